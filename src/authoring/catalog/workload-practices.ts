import type { RuleTemplate } from './rule-template.js'

export const WORKLOAD_TEMPLATES: readonly RuleTemplate[] = []
