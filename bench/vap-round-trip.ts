// Issue 34's round trip, measured on the shared conformance data: every policy of the Kyverno
// library's `-cel` and `-vpol` folders imported, exported as ValidatingAdmissionPolicies
// (`verdict export vap`), imported back through Verdict's VAP importer and run with `verdict test`
// (`--through-vap`), pair by pair against the same tests run with the policy as imported.
//   npm run bench:vap-roundtrip -- <conformance policies folder, e.g. ../shared/conformance/kyverno/policies>
// Prints the refused policies with their reasons, the differing pairs, and last the figure:
// policies generated and refused (every policy of the folders' files, tested or not), pairs equal
// of pairs compared (the tests' pairs of generated policies).
import { readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { measureVapRoundTrip } from '../src/kyverno-test/vap-round-trip.js'

const root = process.argv[2]
if (!root) {
  console.error('usage: node dist/bench/vap-round-trip.js <folder holding the *-cel and *-vpol policy folders>')
  process.exit(2)
}
const folders = readdirSync(resolve(root), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /-(cel|vpol)$/.test(entry.name))
  .map((entry) => join(resolve(root), entry.name))
  .sort()
if (folders.length === 0) {
  console.error(`${root}: no *-cel or *-vpol folder`)
  process.exit(2)
}
const figures = measureVapRoundTrip(folders)
const generated = figures.policies.filter((policy) => policy.generated !== undefined)
const refused = figures.policies.filter((policy) => policy.refused !== undefined)
console.log(`folders: ${folders.map((folder) => relative(process.cwd(), folder)).join(', ')}`)
console.log('')
console.log('refused:')
for (const policy of refused) console.log(`  ${relative(resolve(root), policy.file)} ${policy.name}: ${(policy.refused ?? []).join('; ')}`)
console.log('')
console.log('differing pairs (test policy rule resource: original -> through VAP):')
for (const pair of figures.differing) {
  const { original, throughVap } = pair
  console.log(`  ${original.test} ${original.policy} ${original.rule} ${original.resource}: ${original.actual} -> ${throughVap.actual}${throughVap.detail ? ` (${throughVap.detail})` : ''}`)
}
console.log('')
const vaps = generated.reduce((sum, policy) => sum + (policy.generated ?? 0), 0)
console.log(
  `policies generated: ${generated.length} (${vaps} ValidatingAdmissionPolicies), policies refused: ${refused.length}, ` +
    `pairs equal: ${figures.compared.length - figures.differing.length} of ${figures.compared.length} (pairs of refused policies: ${figures.refusedPairs})`,
)
