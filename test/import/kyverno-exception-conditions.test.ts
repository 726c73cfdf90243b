import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileException, compileRuleset, evaluateRule, exemptingException, PreparedInput, type Operation } from '../../src/engine/index.js'
import { ImportError } from '../../src/import/import-error.js'
import { translateExceptionConditions } from '../../src/import/kyverno-exception-conditions.js'

/**
 * The translation is checked against the engine's own port of Kyverno's conditions (the oracle):
 * a rule whose preconditions are the condition and whose deny always fails answers fail when the
 * condition holds, skip when it does not and error when Kyverno could not evaluate it.
 */
function oracle(condition: object, object: unknown, operation: Operation = 'CREATE'): 'holds' | 'not' | 'error' {
  const ruleset = compileRuleset({ name: 'oracle', rules: [{ name: 'c', match: { kinds: ['*'] }, preconditions: { all: [condition] }, validate: { deny: {} } }] })
  const rule = ruleset.rules[0]
  if (!rule) throw new Error('no rule')
  const status = evaluateRule(rule, new PreparedInput(input(object, operation))).status
  return status === 'fail' ? 'holds' : status === 'skip' ? 'not' : 'error'
}

function input(object: unknown, operation: Operation): ConstructorParameters<typeof PreparedInput>[0] {
  return { object: operation === 'DELETE' ? null : object, oldObject: operation === 'CREATE' ? null : object, request: { operation } }
}

/** Whether the translated conditions let the object through. */
function exempts(conditions: object, object: unknown, operation: Operation = 'CREATE'): boolean {
  const translated = translateExceptionConditions(conditions, 'spec.conditions')
  const exception = compileException({ name: 'x', policies: ['*'], match: {}, matchPodTemplates: false, ...(translated ? { conditions: translated } : {}), reason: 'r' })
  const exempting = exemptingException([exception], { policy: 'p', ruleset: 'r', rule: 'x', input: new PreparedInput(input(object, operation)), now: new Date(0) })
  return exempting !== undefined
}

/** A condition that always holds: after one that errs, an `any` still does not let anything through. */
const ALWAYS = { key: '{{ request.operation }}', operator: 'NotEquals', value: 'NEVER' }

const labelValue = fc.oneof(
  fc.constantFrom<unknown>('blue', 'Blue', '', 'blu*', '1h', '5', '1Gi', 'true', null, true, false, 0, 5, 1.5, [], ['blue'], {}, { a: 'blue' }),
  fc.string({ maxLength: 4 }),
)
const labels = fc.oneof(
  fc.dictionary(fc.constantFrom('color', 'app', 'tier'), labelValue, { maxKeys: 3 }),
  fc.constantFrom<unknown>(null, 'color=blue', ['blue'], 7),
)
const metadata = fc.oneof(
  fc.record({ name: fc.constantFrom<unknown>('x', 'blue', null, 3), labels }, { requiredKeys: [] }),
  fc.constantFrom<unknown>(null, 'meta'),
)
const resource = fc.record({ apiVersion: fc.constant('v1'), kind: fc.constant('Pod'), metadata }, { requiredKeys: ['apiVersion', 'kind'] })
const operation = fc.constantFrom<Operation>('CREATE', 'UPDATE', 'DELETE')

const keys = [
  "{{ request.object.metadata.labels.color || '' }}",
  "{{request.object.metadata.labels.color || 'none'}}",
  '{{ request.object.metadata.labels.color }}',
  '{{ request.object.metadata.labels."color" }}',
  "{{ request.oldObject.metadata.labels.color || '' }}",
  '{{ request.oldObject.metadata.labels.color }}',
  '{{ request.object.metadata.name }}',
]

describe('Kyverno exception conditions translated to CEL agree with Kyverno', () => {
  for (const key of keys) {
    for (const operator of ['Equals', 'NotEquals']) {
      const condition = { key, operator, value: 'blue' }
      it(`${key} ${operator} blue: lets through exactly what holds, and errs where Kyverno errs`, () => {
        fc.assert(
          fc.property(resource, operation, (object, op) => {
            const expected = oracle(condition, object, op)
            expect(exempts({ all: [condition] }, object, op)).toBe(expected === 'holds')
            expect(exempts({ any: [condition] }, object, op)).toBe(expected === 'holds')
            // An error in an earlier `any` stops it, as Kyverno's CheckAnyAllConditions does.
            expect(exempts({ any: [condition, ALWAYS] }, object, op)).toBe(expected !== 'error')
          }),
          { numRuns: 300 },
        )
      })
    }
  }

  it('judges request.operation', () => {
    const condition = { key: '{{ request.operation }}', operator: 'Equals', value: 'UPDATE' }
    expect(exempts({ all: [condition] }, { kind: 'Pod' }, 'UPDATE')).toBe(true)
    expect(exempts({ all: [condition] }, { kind: 'Pod' }, 'CREATE')).toBe(false)
    expect(oracle(condition, { kind: 'Pod' }, 'UPDATE')).toBe('holds')
  })

  it('requires every all and one any (an empty any is no constraint)', () => {
    const blue = { key: "{{ request.object.metadata.labels.color || '' }}", operator: 'Equals', value: 'blue' }
    const app = { key: "{{ request.object.metadata.labels.app || '' }}", operator: 'Equals', value: 'web' }
    const pod = (labels: Record<string, string>) => ({ kind: 'Pod', metadata: { name: 'x', labels } })
    expect(exempts({ all: [blue, app] }, pod({ color: 'blue', app: 'web' }))).toBe(true)
    expect(exempts({ all: [blue, app] }, pod({ color: 'blue' }))).toBe(false)
    expect(exempts({ any: [blue, app] }, pod({ app: 'web' }))).toBe(true)
    expect(exempts({ all: [blue], any: [app] }, pod({ color: 'blue' }))).toBe(false)
    expect(exempts({ all: [blue], any: [] }, pod({ color: 'blue' }))).toBe(true)
  })
})

describe('conditions that cannot be translated are refused, naming the field', () => {
  const refusal = (conditions: unknown): [string, string] => {
    try {
      translateExceptionConditions(conditions, 'spec.conditions')
    } catch (error) {
      if (error instanceof ImportError) return [error.field, error.problem]
      throw error
    }
    return ['', 'translated']
  }
  const key = "{{ request.object.metadata.labels.color || '' }}"

  it.each([
    [{ any: [{ key, operator: 'AnyIn', value: ['blue'] }] }, 'spec.conditions.any[0].operator', /"AnyIn" cannot be translated: exception conditions are imported with Equals and NotEquals only/],
    [{ all: [{ key, operator: 'Equals', value: 'blu*' }] }, 'spec.conditions.all[0].value', /holds a wildcard/],
    [{ all: [{ key, operator: 'Equals', value: '1Gi' }] }, 'spec.conditions.all[0].value', /reads as a number or quantity/],
    [{ all: [{ key, operator: 'Equals', value: '10m0s' }] }, 'spec.conditions.all[0].value', /reads as a duration/],
    [{ all: [{ key, operator: 'Equals', value: 3 }] }, 'spec.conditions.all[0].value', /only a text value is/],
    [{ all: [{ key: '{{ request.object.spec.containers[].image }}', operator: 'Equals', value: 'x' }] }, 'spec.conditions.all[0].key', /only a field path under request.object/],
    [{ all: [{ key: '{{ request.userInfo.username }}', operator: 'Equals', value: 'x' }] }, 'spec.conditions.all[0].key', /only a field path under request.object/],
    [{ all: [{ key: 'prefix-{{ request.object.metadata.name }}', operator: 'Equals', value: 'x' }] }, 'spec.conditions.all[0].key', /only a key that is one \{\{ \}\} variable is/],
    [{ all: [{ key: "{{ request.object.metadata.labels.color || 'blue' }}", operator: 'Equals', value: 'blue' }] }, 'spec.conditions.all[0].value', /equals the key's default/],
    [{ some: [] }, 'spec.conditions.some', /is not a field of exception conditions/],
  ])('%j', (conditions, field, problem) => {
    const [at, message] = refusal(conditions)
    expect(at).toBe(field)
    expect(message).toMatch(problem)
  })
})
