import { describe, expect, it } from 'vitest'
import { evaluateConditions, type Condition, type ConditionResolver } from '../../../src/engine/conditions/index.js'
import { resolverOf } from './support.js'

const holdsFor = (message?: string): Condition => ({ key: 'a', operator: 'Equals', value: 'a', ...(message === undefined ? {} : { message }) })
const failsFor = (message?: string): Condition => ({ key: 'a', operator: 'Equals', value: 'b', ...(message === undefined ? {} : { message }) })

/** A resolver that records which raw keys it was asked for. */
function recording(): { resolve: ConditionResolver; seen: unknown[] } {
  const seen: unknown[] = []
  return { seen, resolve: (raw) => (seen.push(raw), raw) }
}

describe('evaluateConditions', () => {
  it('holds for an absent block, so a deny without conditions always denies', () => {
    expect(evaluateConditions(undefined, resolverOf())).toEqual({ passed: true })
    expect(evaluateConditions(null, resolverOf())).toEqual({ passed: true })
    expect(evaluateConditions({}, resolverOf())).toEqual({ passed: true })
  })

  it('needs one condition of any and every condition of all', () => {
    expect(evaluateConditions({ any: [failsFor(), holdsFor()] }, resolverOf()).passed).toBe(true)
    expect(evaluateConditions({ any: [failsFor(), failsFor()] }, resolverOf()).passed).toBe(false)
    expect(evaluateConditions({ all: [holdsFor(), holdsFor()] }, resolverOf()).passed).toBe(true)
    expect(evaluateConditions({ all: [holdsFor(), failsFor()] }, resolverOf()).passed).toBe(false)
    expect(evaluateConditions({ any: [holdsFor()], all: [failsFor()] }, resolverOf()).passed).toBe(false)
    expect(evaluateConditions({ any: [failsFor()], all: [holdsFor()] }, resolverOf()).passed).toBe(false)
    expect(evaluateConditions({ any: [failsFor(), holdsFor()], all: [holdsFor()] }, resolverOf()).passed).toBe(true)
  })

  it('follows the documented label example: any color=blue or app=busybox, and all animal=cow and env=qa', () => {
    const labels = { color: 'red', app: 'busybox', animal: 'cow', env: 'qa' }
    const label = (name: string) => `{{ request.object.metadata.labels.${name} || '' }}`
    const variables = Object.fromEntries(Object.entries(labels).map(([name, value]) => [`request.object.metadata.labels.${name} || ''`, value]))
    const block = {
      any: [
        { key: label('color'), operator: 'Equals', value: 'blue' },
        { key: label('app'), operator: 'Equals', value: 'busybox' },
      ],
      all: [
        { key: label('animal'), operator: 'Equals', value: 'cow' },
        { key: label('env'), operator: 'Equals', value: 'qa' },
      ],
    }
    expect(evaluateConditions(block, resolverOf(variables)).passed).toBe(true)
    expect(evaluateConditions(block, resolverOf({ ...variables, "request.object.metadata.labels.env || ''": 'prod' })).passed).toBe(false)
  })

  it('never holds for a present but empty any, and always for an empty all', () => {
    expect(evaluateConditions({ any: [] }, resolverOf()).passed).toBe(false)
    expect(evaluateConditions({ all: [] }, resolverOf()).passed).toBe(true)
    expect(evaluateConditions({ any: null, all: [holdsFor()] }, resolverOf()).passed).toBe(true)
  })

  it('takes a bare list as all of it', () => {
    expect(evaluateConditions([holdsFor(), holdsFor()], resolverOf()).passed).toBe(true)
    expect(evaluateConditions([holdsFor(), failsFor()], resolverOf()).passed).toBe(false)
    expect(evaluateConditions([], resolverOf()).passed).toBe(true)
  })

  it('stops any at the first condition that holds and all at the first that does not', () => {
    const any = recording()
    evaluateConditions({ any: [{ key: 'k1', operator: 'Equals', value: 'k1' }, { key: 'k2', operator: 'Equals', value: 'k2' }] }, any.resolve)
    expect(any.seen).toEqual(['k1', 'k1'])
    const all = recording()
    evaluateConditions({ all: [{ key: 'k1', operator: 'Equals', value: 'x' }, { key: 'k2', operator: 'Equals', value: 'k2' }] }, all.resolve)
    expect(all.seen).toEqual(['k1', 'x'])
  })

  it('still evaluates all when any has failed, so an error there is reported', () => {
    const result = evaluateConditions({ any: [failsFor()], all: [{ key: '{{ missing }}', operator: 'Equals', value: 'x' }] }, resolverOf())
    expect(result.error?.path).toBe('all[0].key')
  })

  it("reports the messages of the conditions that held when the block holds (a deny's reason)", () => {
    const block = {
      any: [
        { key: '{{ team }}', operator: 'Equals', value: 'eng', message: 'The expression team = eng failed.' },
        { key: '{{ unit }}', operator: 'Equals', value: 'green', message: 'The expression unit = green failed.' },
      ],
    }
    expect(evaluateConditions(block, resolverOf({ team: 'eng', unit: 'green' }))).toEqual({ passed: true, message: 'The expression team = eng failed.' })
    expect(evaluateConditions(block, resolverOf({ team: 'ops', unit: 'green' }))).toEqual({ passed: true, message: 'The expression unit = green failed.' })
    expect(evaluateConditions(block, resolverOf({ team: 'ops', unit: 'red' }))).toEqual({
      passed: false,
      message: 'The expression team = eng failed.; The expression unit = green failed.',
    })
  })

  it('reports the message of the condition that stopped all (a skipped precondition)', () => {
    const block = {
      all: [
        { key: '{{ food }}', operator: 'Equals', value: 'cheese', message: 'My favorite food is cheese.' },
        { key: '{{ day }}', operator: 'Equals', value: 'monday', message: 'You have a case of the Mondays.' },
      ],
    }
    expect(evaluateConditions(block, resolverOf({ food: 'bread', day: 'monday' }))).toEqual({ passed: false, message: 'My favorite food is cheese.' })
    expect(evaluateConditions(block, resolverOf({ food: 'cheese', day: 'friday' }))).toEqual({ passed: false, message: 'You have a case of the Mondays.' })
    expect(evaluateConditions(block, resolverOf({ food: 'cheese', day: 'monday' }))).toEqual({
      passed: true,
      message: 'My favorite food is cheese.; You have a case of the Mondays.',
    })
  })

  it('joins the messages of any and all, skipping conditions without one', () => {
    expect(evaluateConditions({ any: [failsFor('x'), holdsFor('y')], all: [holdsFor(), holdsFor('z')] }, resolverOf())).toEqual({ passed: true, message: 'y; z' })
    expect(evaluateConditions({ any: [failsFor('x')], all: [failsFor('z')] }, resolverOf())).toEqual({ passed: false, message: 'x; z' })
    expect(evaluateConditions({ all: [holdsFor()] }, resolverOf())).toEqual({ passed: true })
  })

  it('joins the messages of a bare list with a semicolon alone, as Kyverno does', () => {
    expect(evaluateConditions([holdsFor('a'), holdsFor('b')], resolverOf())).toEqual({ passed: true, message: 'a;b' })
    expect(evaluateConditions([holdsFor('a'), failsFor('b'), failsFor('c')], resolverOf())).toEqual({ passed: false, message: 'b' })
  })

  it('ends in an error naming the key or value whose substitution failed', () => {
    const keyFails = evaluateConditions({ all: [holdsFor(), { key: '{{ missing }}', operator: 'Equals', value: 'x' }] }, resolverOf(), 'rules[0].validate.deny.conditions')
    expect(keyFails.error).toMatchObject({ path: 'rules[0].validate.deny.conditions.all[1].key' })
    expect(keyFails.error?.message).toMatch(/^failed to substitute variables in condition key: Unknown key "missing"/)
    expect(keyFails.error?.cause).toBeInstanceOf(Error)
    const valueFails = evaluateConditions([{ key: 'x', operator: 'Equals', value: '{{ missing }}' }], resolverOf(), 'rules[0].preconditions')
    expect(valueFails.error?.path).toBe('rules[0].preconditions[0].value')
    expect(valueFails.error?.message).toMatch(/^failed to substitute variables in condition value/)
  })

  it('substitutes before looking up the operator, and names an unknown operator', () => {
    expect(evaluateConditions({ any: [{ key: '{{ missing }}', operator: 'Contains', value: 'x' }] }, resolverOf()).error?.path).toBe('any[0].key')
    const unknown = evaluateConditions({ any: [{ key: 'x', operator: 'Contains', value: 'x' }] }, resolverOf())
    expect(unknown.error).toEqual({ path: 'any[0].operator', message: 'unknown condition operator "Contains"' })
    expect(evaluateConditions({ any: [{ key: 'x', value: 'x' }] }, resolverOf()).error?.message).toBe('unknown condition operator null')
  })

  it('finds operators in any case at run time, as Kyverno does', () => {
    expect(evaluateConditions({ all: [{ key: 'a', operator: 'EQUALS', value: 'a' }] }, resolverOf()).passed).toBe(true)
    expect(evaluateConditions({ all: [{ key: ['a'], operator: 'anyin', value: ['a'] }] }, resolverOf()).passed).toBe(true)
  })

  it('reports an unreadable block as an error rather than guessing', () => {
    expect(evaluateConditions({ any: 'x' } as never, resolverOf()).error).toEqual({ path: 'any', message: 'any must be a list of conditions' })
    expect(evaluateConditions('x' as never, resolverOf(), 'p').error?.path).toBe('p')
    expect(evaluateConditions(['x'] as never, resolverOf()).error?.path).toBe('[0]')
  })

  it('compares a missing key as null, as Kyverno does with a condition without one', () => {
    expect(evaluateConditions({ all: [{ operator: 'Equals', value: '' }] }, resolverOf()).passed).toBe(false)
    expect(evaluateConditions({ all: [{ operator: 'NotEquals', value: '' }] }, resolverOf()).passed).toBe(false)
  })
})
