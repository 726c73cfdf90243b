import type { RuleTemplate } from './rule-template.js'

export const TERRAFORM_TEMPLATES: readonly RuleTemplate[] = []
