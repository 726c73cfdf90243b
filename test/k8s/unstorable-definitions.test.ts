import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getPolicy } from '../../src/store/policies-repository.js'
import { getRuleset } from '../../src/store/rulesets-repository.js'
import { ControllerHarness, policyResource, readyOf, rulesetResource } from './controller-harness.js'
import { waitFor } from './wait-for.js'
import { useTestDatabase } from '../support/databases.js'

describe('custom resources holding text the store cannot keep', () => {
  let harness: ControllerHarness

  // One store for the file, emptied for each test by ControllerHarness.start.
  const database = useTestDatabase('pglite')

  beforeEach(async () => {
    harness = await ControllerHarness.start(database.current)
  })
  afterEach(async () => {
    await harness.close()
  })

  it('reports a Ruleset with U+0000 in a message as Invalid, naming the field, and stores nothing', async () => {
    const { api, db } = harness
    await harness.leader()
    api.create('rulesets', rulesetResource('nul-message', { rules: [{ name: 'r', message: 'bad\u0000text', validate: { cel: [{ expression: 'true' }] } }] }))
    const ready = await waitFor('Invalid', () => (readyOf(api, 'rulesets', 'nul-message')?.reason === 'Invalid' ? readyOf(api, 'rulesets', 'nul-message') : undefined))
    expect(ready).toMatchObject({ status: 'False', message: 'spec.rules[0].message: contains U+0000 (NUL), which cannot be stored; remove it' })
    expect(await getRuleset(db, 'nul-message')).toBeUndefined()
  })

  it('reports a Policy with an unpaired surrogate in a label as Invalid and stores nothing', async () => {
    const { api, db } = harness
    await harness.leader()
    api.create('rulesets', rulesetResource('fine', { rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] }))
    await waitFor('Reconciled', () => (readyOf(api, 'rulesets', 'fine')?.reason === 'Reconciled' ? true : undefined))
    api.create('policies', policyResource('odd-labels', { rulesets: ['fine'], labels: { team: 'a\ud800' } }))
    const ready = await waitFor('Invalid', () => (readyOf(api, 'policies', 'odd-labels')?.reason === 'Invalid' ? readyOf(api, 'policies', 'odd-labels') : undefined))
    expect(ready).toMatchObject({ status: 'False', message: 'spec.labels.team: contains U+D800 (an unpaired UTF-16 surrogate), which cannot be stored; remove it' })
    expect(await getPolicy(db, 'odd-labels')).toBeUndefined()
  })
})
