import type { RuleTemplate } from './rule-template.js'

export const GENERIC_JSON_TEMPLATES: readonly RuleTemplate[] = []
