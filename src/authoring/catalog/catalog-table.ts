import { CATALOG } from './index.js'
import type { RuleTemplate } from './rule-template.js'

/** The catalog as a Markdown table (id, what it checks, an example phrasing), for docs/authoring.md (test/readme.test.ts checks it). */
export function formatCatalogMarkdown(catalog: readonly RuleTemplate[] = CATALOG): string {
  const rows = catalog.map((template) => `| \`${template.id}\` | ${template.category} | ${template.title.replace(/\|/g, '\\|')} | "${(template.phrasings[0] ?? '').replace(/\|/g, '\\|')}" |`)
  return ['| template | category | checks | for example |', '|---|---|---|---|', ...rows].join('\n') + '\n'
}
