import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getRuleset } from '../../../src/store/rulesets-repository.js'
import { ControllerHarness, readyOf, rulesetResource } from '../../k8s/controller-harness.js'
import { waitFor } from '../../k8s/wait-for.js'

describe('a Ruleset resource whose variables read each other', () => {
  let harness: ControllerHarness

  beforeEach(async () => {
    harness = await ControllerHarness.start()
  })
  afterEach(async () => {
    await harness.close()
  })

  it('is reported Invalid, naming the field and the cycle, and stores nothing', async () => {
    const { api, db } = harness
    await harness.leader()
    const variables = [
      { name: 'a', expression: 'variables.b || variables.b' },
      { name: 'b', expression: 'variables.a || variables.a' },
    ]
    api.create('rulesets', rulesetResource('cyclic', { rules: [{ name: 'looping', variables, validate: { cel: [{ expression: 'variables.a' }] } }] }))
    const ready = await waitFor('Invalid', () => (readyOf(api, 'rulesets', 'cyclic')?.reason === 'Invalid' ? readyOf(api, 'rulesets', 'cyclic') : undefined))
    expect(ready).toMatchObject({ status: 'False', message: 'spec.rules[0] (rule "looping").variables[0].expression (line 1, column 1): variables cycle: a -> b -> a' })
    expect(await getRuleset(db, 'cyclic')).toBeUndefined()
  })
})
