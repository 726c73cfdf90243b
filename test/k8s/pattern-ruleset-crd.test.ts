import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getRuleset } from '../../src/store/rulesets-repository.js'
import { ControllerHarness, readyOf, rulesetResource } from './controller-harness.js'
import { waitFor } from './wait-for.js'
import { useTestDatabase } from '../support/databases.js'

const privileged = {
  name: 'privileged-containers',
  match: { kinds: ['Pod'] },
  validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } },
}

describe('a Ruleset resource with pattern rules', () => {
  let harness: ControllerHarness

  // One store for the file, emptied for each test by ControllerHarness.start.
  const database = useTestDatabase('pglite')

  beforeEach(async () => {
    harness = await ControllerHarness.start(database.current)
  })
  afterEach(async () => {
    await harness.close()
  })

  it('is stored and Ready when its patterns compile', async () => {
    const { api, db } = harness
    await harness.leader()
    api.create('rulesets', rulesetResource('pod-patterns', { rules: [privileged] }))
    const ready = await waitFor('Ready', () => (readyOf(api, 'rulesets', 'pod-patterns')?.status === 'True' ? readyOf(api, 'rulesets', 'pod-patterns') : undefined))
    expect(ready).toMatchObject({ status: 'True' })
    expect((await getRuleset(db, 'pod-patterns'))?.rules).toEqual([privileged])
  })

  it('is reported Invalid naming the place of a malformed pattern, and stores nothing', async () => {
    const { api, db } = harness
    await harness.leader()
    const rule = { name: 'replicas', validate: { pattern: { spec: { replicas: '=>2' } } } }
    api.create('rulesets', rulesetResource('bad-pattern', { rules: [rule] }))
    const ready = await waitFor('Invalid', () => (readyOf(api, 'rulesets', 'bad-pattern')?.reason === 'Invalid' ? readyOf(api, 'rulesets', 'bad-pattern') : undefined))
    expect(ready).toMatchObject({
      status: 'False',
      message: 'spec.rules[0] (rule "replicas").validate.pattern.spec.replicas: unknown operator "=>" in "=>2" (operators are >, <, >=, <=, !, |, &, a-b and a!-b)',
    })
    expect(await getRuleset(db, 'bad-pattern')).toBeUndefined()
  })
})
