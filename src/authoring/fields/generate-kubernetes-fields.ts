/**
 * `npm run generate:fields`: rewrites `src/authoring/fields/kubernetes-fields.generated.ts` from the
 * installed `kubernetes-models` declarations. npm runs scripts from the package root, so the output
 * path is relative to it.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildKubernetesFieldTable, renderKubernetesFieldsModule } from './kubernetes-field-table.js'

const table = buildKubernetesFieldTable()
const output = join(process.cwd(), 'src', 'authoring', 'fields', 'kubernetes-fields.generated.ts')
const text = renderKubernetesFieldsModule(table)
writeFileSync(output, text)
const fields = Object.values(table.kinds).reduce((sum, kind) => sum + kind.fields.length, 0)
console.log(`wrote ${output}: ${Object.keys(table.kinds).length} kinds, ${fields} entries (shared models listed once), ${text.length} bytes`)
