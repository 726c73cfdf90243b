import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { setCelFastPath } from '../../../src/engine/cel/index.js'
import { compileRuleset, evaluateRule, PreparedInput, type RuleResult } from '../../../src/engine/index.js'
import { loadTest } from '../../../src/kyverno-test/load-test.js'
import { CONFORMANCE_DIR as conformanceDir, conformanceIndex, HAS_CONFORMANCE, WITHOUT_CONFORMANCE } from '../../support/shared-conformance.js'

/**
 * Differential check of the CEL fast path: every rule of every Tier A policy of the Kyverno library
 * judges every resource of its test (and every operation those tests use) with the fast path on
 * and off, and the results, messages included, must be identical.
 */

const tierA = conformanceIndex()
  .filter((test) => test.tier === 'A')
  .map((test) => test.dir)

afterEach(() => setCelFastPath(true))

function judgeAll(dir: string, fast: boolean): RuleResult[] {
  setCelFastPath(fast)
  const test = loadTest(join(conformanceDir, 'policies', dir, '.kyverno-test', 'kyverno-test.yaml'))
  const results: RuleResult[] = []
  for (const policy of test.policies.values()) {
    if (!policy.ruleset) continue
    const compiled = compileRuleset(policy.ruleset)
    for (const resource of test.resources) {
      for (const operation of ['CREATE', 'UPDATE'] as const) {
        const input = new PreparedInput({
          object: resource.object,
          oldObject: operation === 'UPDATE' ? resource.object : null,
          request: { operation, namespace: resource.namespace, name: resource.name },
          namespaceObject: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: resource.namespace } },
        })
        for (const rule of compiled.rules) results.push(evaluateRule(rule, input))
      }
    }
  }
  return results
}

describe.skipIf(!HAS_CONFORMANCE)(`the CEL fast path on the Kyverno library (Tier A)${WITHOUT_CONFORMANCE}`, () => {
  it('covers the tier-A tests of the index', () => {
    expect(tierA.length).toBeGreaterThan(0)
  })

  it.each(tierA)('%s', (dir) => {
    const fast = judgeAll(dir, true)
    expect(fast.length).toBeGreaterThan(0)
    expect(fast).toEqual(judgeAll(dir, false))
  })
})
