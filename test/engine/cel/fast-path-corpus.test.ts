import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { setCelFastPath } from '../../../src/engine/cel/index.js'
import { compileRuleset, evaluateRule, PreparedInput, type RuleResult } from '../../../src/engine/index.js'
import { loadTest } from '../../../src/kyverno-test/load-test.js'

/**
 * Differential check of the CEL fast path: every rule of every Tier A policy of the Kyverno library
 * judges every resource of its test (and every operation those tests use) with the fast path on
 * and off, and the results, messages included, must be identical.
 */

const here = dirname(fileURLToPath(import.meta.url))
const conformanceDir = resolve(here, '../../../../shared/conformance/kyverno')
const index = JSON.parse(readFileSync(join(conformanceDir, 'index.json'), 'utf8')) as { tests: { dir: string; tier: string }[] }
const tierA = index.tests.filter((test) => test.tier === 'A').map((test) => test.dir)

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

describe('the CEL fast path on the Kyverno library (Tier A)', () => {
  it.each(tierA)('%s', (dir) => {
    const fast = judgeAll(dir, true)
    expect(fast.length).toBeGreaterThan(0)
    expect(fast).toEqual(judgeAll(dir, false))
  })
})
