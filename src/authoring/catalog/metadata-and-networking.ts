import type { RuleTemplate } from './rule-template.js'

export const METADATA_AND_NETWORKING_TEMPLATES: readonly RuleTemplate[] = []
