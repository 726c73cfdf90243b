import { ConflictError } from '../../src/services/service-errors.js'
import { announceDefinitionChange } from '../../src/store/definition-changes.js'
import { deleteRuleset as deleteStoredRuleset } from '../../src/store/rulesets-repository.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DefinitionService } from '../../src/services/definition-service.js'
import { getPolicy } from '../../src/store/policies-repository.js'
import { getRuleset, insertRuleset } from '../../src/store/rulesets-repository.js'
import { ControllerHarness, NO_LATEST_TAG, policyResource, readyOf, rulesetResource, statusOf, TEAM_LABEL } from './controller-harness.js'
import type { Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'
import { useTestDatabase } from '../support/databases.js'

describe('the CRD controller', () => {
  let harness: ControllerHarness

  // One store for the file, emptied for each test by ControllerHarness.start.
  const database = useTestDatabase('pglite')

  beforeEach(async () => {
    harness = await ControllerHarness.start(database.current)
  })
  afterEach(async () => {
    await harness.close()
  })

  it('stores a Ruleset with source crd and reports it Ready with its generation and rule count', async () => {
    const { api, db } = harness
    api.create('rulesets', rulesetResource('pod-hygiene', { description: 'Basic hygiene', rules: [NO_LATEST_TAG, TEAM_LABEL] }, { platform: 'kubernetes' }))
    const leader = await harness.leader()
    const stored = await waitFor('the stored ruleset', () => getRuleset(db, 'pod-hygiene'))
    expect(stored).toMatchObject({
      source: 'crd',
      version: 1,
      description: 'Basic hygiene',
      labels: { platform: 'kubernetes' },
      createdBy: 'verdict-controller@replica-a',
      updatedBy: 'verdict-controller@replica-a',
    })
    expect(stored.rules.map((rule) => rule.name)).toEqual(['no-latest-tag', 'team-label'])
    await waitFor('Ready', () => readyOf(api, 'rulesets', 'pod-hygiene')?.status === 'True')
    expect(statusOf(api, 'rulesets', 'pod-hygiene')).toEqual({
      observedGeneration: 1,
      rules: 2,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Reconciled',
          message: 'compiled and stored as version 1',
          lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          observedGeneration: 1,
        },
      ],
    })
    // This replica's catalog (what the webhook and the API evaluate with) has it at once.
    expect(leader.catalog.ruleset('pod-hygiene')?.source).toBe('crd')
    // Written once: the status write's own watch event changes nothing more.
    await harness.settled(leader)
    expect(api.requests.filter((request) => request.path.endsWith('/pod-hygiene/status'))).toHaveLength(1)
    // What verdict_controller_reconciles_total counts.
    expect(leader.reconciles[0]).toBe('ruleset:Reconciled')
  })

  it('reports an invalid Ruleset as Invalid, naming the fields, and stores nothing', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.create('rulesets', rulesetResource('broken-cel', { rules: [{ name: 'r', validate: { cel: [{ expression: 'object.spec.containers.all(c, ' }] } }] }))
    api.create('rulesets', rulesetResource('twice', { rules: [TEAM_LABEL, TEAM_LABEL] }))
    api.create('rulesets', rulesetResource('two-kinds', { rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }], pattern: { spec: {} } } }] }))
    const brokenCel = await waitFor('Invalid', () => (readyOf(api, 'rulesets', 'broken-cel')?.reason === 'Invalid' ? readyOf(api, 'rulesets', 'broken-cel') : undefined))
    expect(brokenCel).toMatchObject({ status: 'False', observedGeneration: 1 })
    expect(brokenCel.message).toMatch(/^spec\.rules\[0\] \(rule "r"\)\.validate\.cel\[0\]\.expression \(line 1, column \d+\): /)
    const twice = await waitFor('Invalid', () => readyOf(api, 'rulesets', 'twice'))
    expect(twice).toMatchObject({ status: 'False', reason: 'Invalid', message: 'spec.rules[1].name: duplicate rule name "team-label" (also rules[0])' })
    const twoKinds = await waitFor('Invalid', () => readyOf(api, 'rulesets', 'two-kinds'))
    expect(twoKinds).toMatchObject({ reason: 'Invalid', message: 'spec.rules[0].validate: has cel and pattern; a rule validates in exactly one way' })
    expect(statusOf(api, 'rulesets', 'twice')?.rules).toBe(2)
    for (const name of ['broken-cel', 'twice', 'two-kinds']) expect(await getRuleset(db, name)).toBeUndefined()
    // Each once for its creation, and again for the watch event of its own status write.
    // The last status write's watch event may still be on its way: wait for the count rather than read it once.
    const invalid = await waitFor('three Invalid reconciles', () => {
      const count = leader.reconciles.filter((entry) => entry === 'ruleset:Invalid').length
      return count >= 3 ? count : undefined
    })
    expect(invalid).toBeGreaterThanOrEqual(3)
  })

  it('follows updates: each new generation is stored as a new version and observed; a broken edit keeps the last good one', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.create('rulesets', rulesetResource('hygiene', { rules: [NO_LATEST_TAG] }))
    await waitFor('generation 1', () => statusOf(api, 'rulesets', 'hygiene')?.observedGeneration === 1)
    api.update('rulesets', rulesetResource('hygiene', { rules: [NO_LATEST_TAG, TEAM_LABEL] }))
    expect((api.get('rulesets', 'hygiene')?.metadata as Json).generation).toBe(2)
    await waitFor('generation 2', () => statusOf(api, 'rulesets', 'hygiene')?.observedGeneration === 2)
    expect(statusOf(api, 'rulesets', 'hygiene')).toMatchObject({ rules: 2, conditions: [{ status: 'True', observedGeneration: 2, message: 'compiled and stored as version 2' }] })
    expect(await getRuleset(db, 'hygiene')).toMatchObject({ version: 2, source: 'crd' })

    // Labels are metadata: no new generation, but the stored labels follow.
    api.update('rulesets', rulesetResource('hygiene', { rules: [NO_LATEST_TAG, TEAM_LABEL] }, { tier: 'gold' }))
    await waitFor('the labels stored', async () => (await getRuleset(db, 'hygiene'))?.labels?.tier === 'gold')

    api.update('rulesets', rulesetResource('hygiene', { rules: [{ name: 'r', validate: { cel: [{ expression: '1 +' }] } }] }))
    await waitFor('generation 3 Invalid', () => statusOf(api, 'rulesets', 'hygiene')?.observedGeneration === 3)
    const ready = readyOf(api, 'rulesets', 'hygiene')
    expect(ready).toMatchObject({ status: 'False', reason: 'Invalid', observedGeneration: 3 })
    expect(ready?.message).toMatch(/the version stored before stays in effect$/)
    await harness.settled(leader)
    expect(await getRuleset(db, 'hygiene')).toMatchObject({ version: 3, labels: { tier: 'gold' } })
    expect((await getRuleset(db, 'hygiene'))?.rules).toHaveLength(2)
  })

  it('removes a deleted Ruleset from the store', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.create('rulesets', rulesetResource('short-lived', { rules: [TEAM_LABEL] }))
    await waitFor('stored', () => getRuleset(db, 'short-lived'))
    api.delete('rulesets', 'short-lived')
    await waitFor('removed', async () => (await getRuleset(db, 'short-lived')) === undefined)
    expect(leader.catalog.ruleset('short-lived')).toBeUndefined()
  })

  it('stores a Policy once the rulesets it names exist, and keeps a ruleset while a policy names it', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.create('policies', policyResource('production', { rulesets: ['pod-hygiene'], action: 'Deny' }))
    const missing = await waitFor('MissingRulesets', () => readyOf(api, 'policies', 'production'))
    expect(missing).toMatchObject({ status: 'False', reason: 'MissingRulesets', message: 'spec.rulesets: "pod-hygiene" does not exist; the policy is stored once they exist' })
    expect(await getPolicy(db, 'production')).toBeUndefined()

    api.create('rulesets', rulesetResource('pod-hygiene', { rules: [NO_LATEST_TAG, TEAM_LABEL] }))
    await waitFor('the policy Ready', () => readyOf(api, 'policies', 'production')?.status === 'True')
    expect(await getPolicy(db, 'production')).toMatchObject({ source: 'crd', rulesets: ['pod-hygiene'], action: 'Deny' })
    expect(statusOf(api, 'policies', 'production')).toMatchObject({ rules: 2, conditions: [{ reason: 'Reconciled', message: 'stored as version 1; applies 1 ruleset (pod-hygiene)' }] })

    // `kubectl delete -f` removes the Ruleset first: it stays stored until the Policy is gone too.
    api.delete('rulesets', 'pod-hygiene')
    await waitFor('the wait logged', () => leader.logger.lines.some((line) => line.message === 'waiting for other definitions'))
    expect(await getRuleset(db, 'pod-hygiene')).toBeDefined()
    api.delete('policies', 'production')
    await waitFor('both removed', async () => (await getPolicy(db, 'production')) === undefined && (await getRuleset(db, 'pod-hygiene')) === undefined)
  })

  it('stores a Policy and a rule switched off (enabled: false) with their reasons, and refuses a switch without one', async () => {
    const { api, db } = harness
    await harness.leader()
    api.create('rulesets', rulesetResource('pod-hygiene', { rules: [{ ...NO_LATEST_TAG, enabled: false, disabledReason: 'registry migration' }, TEAM_LABEL] }))
    api.create('policies', policyResource('production', { rulesets: ['pod-hygiene'], action: 'Deny', enabled: false, disabledReason: 'replaced by restricted' }))
    api.create('policies', policyResource('unexplained', { rulesets: ['pod-hygiene'], enabled: false }))
    await waitFor('the policy Ready', () => readyOf(api, 'policies', 'production')?.status === 'True')
    expect(await getPolicy(db, 'production')).toMatchObject({ source: 'crd', enabled: false, disabledReason: 'replaced by restricted' })
    expect((await getRuleset(db, 'pod-hygiene'))?.rules[0]).toMatchObject({ name: 'no-latest-tag', enabled: false, disabledReason: 'registry migration' })
    const unexplained = await waitFor('Invalid', () => readyOf(api, 'policies', 'unexplained'))
    expect(unexplained).toMatchObject({ status: 'False', reason: 'Invalid', message: 'spec.disabledReason: is required with enabled: false (say why it is switched off)' })
    expect(await getPolicy(db, 'unexplained')).toBeUndefined()
  })

  it('leaves a definition made through the REST API alone and reports the conflict until it is deleted there', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    const service = new DefinitionService(db, leader.catalog)
    await service.createRuleset('shared', { rules: [TEAM_LABEL] }, { by: 'alice@example.com' })
    api.create('rulesets', rulesetResource('shared', { rules: [NO_LATEST_TAG] }))
    const conflict = await waitFor('Conflict', () => readyOf(api, 'rulesets', 'shared'))
    expect(conflict).toMatchObject({ status: 'False', reason: 'Conflict' })
    expect(conflict.message).toMatch(/made through the REST API \(source api\)/)
    expect(await getRuleset(db, 'shared')).toMatchObject({ source: 'api', createdBy: 'alice@example.com', rules: [{ name: 'team-label' }] })

    await service.deleteRuleset('shared')
    await waitFor('taken over', () => readyOf(api, 'rulesets', 'shared')?.status === 'True')
    expect(await getRuleset(db, 'shared')).toMatchObject({ source: 'crd', rules: [{ name: 'no-latest-tag' }] })

    // Deleting a resource in conflict never deletes the API's definition.
    await service.createRuleset('theirs', { rules: [TEAM_LABEL] }, { by: 'alice@example.com' })
    api.create('rulesets', rulesetResource('theirs', { rules: [TEAM_LABEL] }))
    await waitFor('Conflict', () => readyOf(api, 'rulesets', 'theirs')?.reason === 'Conflict')
    api.delete('rulesets', 'theirs')
    await harness.settled(leader)
    expect(await getRuleset(db, 'theirs')).toMatchObject({ source: 'api' })
  })

  it('puts back a CRD-made ruleset deleted behind its back, and the REST API refuses to delete it', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.create('rulesets', rulesetResource('owned', { rules: [TEAM_LABEL] }))
    await waitFor('stored', () => getRuleset(db, 'owned'))
    await expect(new DefinitionService(db, leader.catalog).deleteRuleset('owned')).rejects.toThrow(ConflictError)
    await deleteStoredRuleset(db, 'owned')
    await announceDefinitionChange(db, { kind: 'ruleset', name: 'owned', version: 0 })
    await waitFor('stored again', async () => (await getRuleset(db, 'owned'))?.source === 'crd')
  })

  it('re-lists after 410 Gone and converges on what its watch missed', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.create('rulesets', rulesetResource('one', { rules: [TEAM_LABEL] }))
    api.create('rulesets', rulesetResource('two', { rules: [TEAM_LABEL] }))
    await waitFor('both stored', async () => (await getRuleset(db, 'one')) && (await getRuleset(db, 'two')))
    const listsBefore = api.requests.filter((request) => request.path.endsWith('/rulesets') && !request.query.includes('watch')).length

    // Changes the watch never delivers, then the history is compacted and the watch ends.
    api.delete('rulesets', 'one', { silent: true })
    api.update('rulesets', rulesetResource('two', { rules: [TEAM_LABEL, NO_LATEST_TAG] }), { silent: true })
    api.create('rulesets', rulesetResource('three', { rules: [TEAM_LABEL] }), { silent: true })
    api.compact()
    api.closeWatches()

    await waitFor('converged', async () => {
      const [one, two, three] = await Promise.all([getRuleset(db, 'one'), getRuleset(db, 'two'), getRuleset(db, 'three')])
      return one === undefined && two?.rules.length === 2 && three !== undefined
    })
    expect(api.expiredWatches).toBeGreaterThanOrEqual(1)
    expect(api.requests.filter((request) => request.path.endsWith('/rulesets') && !request.query.includes('watch')).length).toBeGreaterThan(listsBefore)
    await waitFor('status of three', () => readyOf(api, 'rulesets', 'three')?.status === 'True')
    await harness.settled(leader)
  })

  it('starts a failing watch again with backoff and resumes where it was', async () => {
    const { api, db } = harness
    const leader = await harness.leader()
    api.failRequests({ pathIncludes: '/apis/verdict.dev/v1alpha1/rulesets', method: 'GET', status: 500, times: 3 })
    api.closeWatches()
    api.create('rulesets', rulesetResource('after-outage', { rules: [TEAM_LABEL] }))
    await waitFor('stored after the outage', () => getRuleset(db, 'after-outage'))
    expect(leader.logger.lines.filter((line) => line.message === 'list or watch failed; starting again').length).toBeGreaterThanOrEqual(1)
    expect(api.requests.filter((request) => request.status === 500)).toHaveLength(3)
  })

  it('removes definitions whose resources were deleted while no controller ran, and only those', async () => {
    const { api, db } = harness
    const stamp = { createdBy: 'x@example.com', updatedBy: 'x@example.com' }
    await insertRuleset(db, { name: 'orphan', rules: [TEAM_LABEL as never], labels: {}, source: 'crd', ...stamp })
    await insertRuleset(db, { name: 'api-made', rules: [TEAM_LABEL as never], labels: {}, source: 'api', ...stamp })
    api.create('rulesets', rulesetResource('present', { rules: [TEAM_LABEL] }))
    await harness.leader()
    await waitFor('orphan removed', async () => (await getRuleset(db, 'orphan')) === undefined)
    expect(await getRuleset(db, 'api-made')).toBeDefined()
    expect(await getRuleset(db, 'present')).toBeDefined()
  })

  it('caches namespaces for the webhook on every replica', async () => {
    const { api } = harness
    api.create('namespaces', { metadata: { name: 'team-a', labels: { team: 'a' } } })
    const replica = await harness.replica('replica-a')
    await waitFor('team-a', () => replica.controller.namespaces.get('team-a'))
    expect(replica.controller.namespaces.get('team-a')).toMatchObject({
      apiVersion: 'v1',
      kind: 'Namespace',
      // As the API server wrote it, though the first list came through the typed client.
      metadata: { name: 'team-a', labels: { team: 'a' }, creationTimestamp: (api.get('namespaces', 'team-a')?.metadata as Json).creationTimestamp },
    })
    api.update('namespaces', { metadata: { name: 'team-a', labels: { team: 'b' } } })
    await waitFor('the new label', () => (replica.controller.namespaces.get('team-a')?.metadata as Json | undefined)?.labels)
    await waitFor('team b', () => ((replica.controller.namespaces.get('team-a')?.metadata as Json).labels as Json).team === 'b')
    api.delete('namespaces', 'team-a')
    await waitFor('gone', () => replica.controller.namespaces.get('team-a') === undefined)
  })
})
