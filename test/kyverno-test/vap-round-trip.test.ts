import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { measureVapRoundTrip } from '../../src/kyverno-test/vap-round-trip.js'
import { CONFORMANCE_DIR, HAS_CONFORMANCE, WITHOUT_CONFORMANCE } from '../support/shared-conformance.js'

/**
 * Issue 34's round trip on the shared conformance data (bench/vap-round-trip.ts prints the same
 * figures): every `-cel` and `-vpol` policy exported as ValidatingAdmissionPolicies, imported back
 * and run with `verdict test` judges every pair as the policy itself does.
 */
describe.skipIf(!HAS_CONFORMANCE)(`VAP round trip over the conformance data${WITHOUT_CONFORMANCE}`, () => {
  it('judges every pair of every generated policy as the original, and refuses the others with a reason', { timeout: 120_000 }, () => {
    const policies = join(CONFORMANCE_DIR, 'policies')
    const folders = readdirSync(policies).filter((name) => /-(cel|vpol)$/.test(name)).map((name) => join(policies, name))
    expect(folders.length).toBeGreaterThan(0)
    const figures = measureVapRoundTrip(folders)
    expect(figures.differing.map(({ original, throughVap }) => `${original.test} ${original.rule} ${original.resource}: ${original.actual} -> ${throughVap.actual} ${throughVap.detail ?? ''}`)).toEqual([])
    const generated = figures.policies.filter((policy) => policy.generated !== undefined)
    const refused = figures.policies.filter((policy) => policy.refused !== undefined)
    // Most of the library is plain Kubernetes CEL; what is refused uses Kyverno's cluster data and functions.
    expect(generated.length).toBeGreaterThan(refused.length * 5)
    expect(figures.compared.length).toBeGreaterThan(1000)
    for (const policy of refused) expect(policy.refused?.length).toBeGreaterThan(0)
  })
})
