import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getRuleset } from '../../src/store/rulesets-repository.js'
import { ControllerHarness, readyOf, rulesetResource, TEAM_LABEL } from './controller-harness.js'
import type { Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'
import { useTestDatabase } from '../support/databases.js'

/** Writes other than reads made by one replica, leaving out its own leader-election traffic. */
function writesBy(harness: ControllerHarness, token: string): string[] {
  return harness.api.requests.filter((request) => request.token === token && request.method !== 'GET' && !request.path.includes('/leases')).map((request) => `${request.method} ${request.path}`)
}

function leaseHolder(harness: ControllerHarness): unknown {
  return (harness.api.get('leases', 'verdict-controller', 'verdict')?.spec as Json | undefined)?.holderIdentity
}

describe('controller replicas', () => {
  let harness: ControllerHarness

  // One store for the file, emptied for each test by ControllerHarness.start.
  const database = useTestDatabase('pglite')

  beforeEach(async () => {
    harness = await ControllerHarness.start(database.current)
  })
  afterEach(async () => {
    await harness.close()
  })

  it('lets only the leader write the store and the status', async () => {
    const a = await harness.leader('replica-a')
    const b = await harness.replica('replica-b')
    await waitFor('replica-b to watch and try the lease', () => harness.api.requests.some((request) => request.token === 'replica-b' && request.path.includes('/leases')))
    harness.api.create('rulesets', rulesetResource('shared', { rules: [TEAM_LABEL] }))
    await waitFor('Ready', () => readyOf(harness.api, 'rulesets', 'shared')?.status === 'True')
    await harness.settled(a)
    expect(await getRuleset(harness.db, 'shared')).toMatchObject({ createdBy: 'verdict-controller@replica-a' })
    expect(writesBy(harness, 'replica-a')).toEqual(['PATCH /apis/verdict.dev/v1alpha1/rulesets/shared/status'])
    expect(writesBy(harness, 'replica-b')).toEqual([])
    // replica-b tried for the lease and wrote nothing: it saw a holder whose lease was valid.
    expect(harness.api.requests.filter((request) => request.token === 'replica-b' && request.method !== 'GET')).toEqual([])
    expect(b.controller.isLeader()).toBe(false)
    expect(leaseHolder(harness)).toBe('replica-a')
    // The follower keeps a warm catalog through NOTIFY all the same.
    await waitFor('replica-b catalog', () => b.catalog.ruleset('shared'))
  })

  it('hands over at once when the leader stops: it releases the lease', async () => {
    // A lease far longer than the wait below: replica-b can only lead in time if it was handed back.
    const longLease = { leaseDurationMs: 60_000, renewDeadlineMs: 40_000 }
    const a = await harness.leader('replica-a', longLease)
    const b = await harness.replica('replica-b', longLease)
    harness.api.create('rulesets', rulesetResource('before', { rules: [TEAM_LABEL] }))
    await waitFor('before stored', () => getRuleset(harness.db, 'before'))
    await a.stop()
    expect((harness.api.get('leases', 'verdict-controller', 'verdict')?.spec as Json).holderIdentity).toBeUndefined()
    await waitFor('replica-b to lead', () => b.controller.isLeader())
    expect(leaseHolder(harness)).toBe('replica-b')
    harness.api.create('rulesets', rulesetResource('after', { rules: [TEAM_LABEL] }))
    await waitFor('after stored', () => getRuleset(harness.db, 'after'))
    expect(await getRuleset(harness.db, 'after')).toMatchObject({ createdBy: 'verdict-controller@replica-b' })
    await waitFor('after Ready', () => readyOf(harness.api, 'rulesets', 'after')?.status === 'True')
    expect(writesBy(harness, 'replica-a').some((write) => write.includes('/after'))).toBe(false)
    expect((harness.api.get('leases', 'verdict-controller', 'verdict')?.spec as Json).leaseTransitions).toBe(1)
  })

  it('takes over from a leader cut off from the API server, which stops leading before the lease runs out', async () => {
    // The old leader gives up after 0.6 s without renewing; the lease lasts 2 s.
    const timings = { leaseDurationMs: 2_000, renewDeadlineMs: 600 }
    const a = await harness.leader('replica-a', timings)
    const b = await harness.replica('replica-b', timings)
    await waitFor('replica-b to see the lease', () => harness.api.requests.some((request) => request.token === 'replica-b' && request.path.includes('/leases')))
    harness.api.partition('replica-a')
    const cutAt = Date.now()
    await waitFor('replica-a to step down', () => !a.controller.isLeader())
    const steppedDownAfter = Date.now() - cutAt
    await waitFor('replica-b to lead', () => b.controller.isLeader())
    const tookOverAfter = Date.now() - cutAt
    // Never two leaders: the old one gives up (renew deadline) before the lease expires for others.
    expect(steppedDownAfter).toBeLessThan(tookOverAfter)
    expect(leaseHolder(harness)).toBe('replica-b')
    expect((harness.api.get('leases', 'verdict-controller', 'verdict')?.spec as Json).leaseTransitions).toBe(1)

    harness.api.create('rulesets', rulesetResource('during-partition', { rules: [TEAM_LABEL] }))
    await waitFor('Ready', () => readyOf(harness.api, 'rulesets', 'during-partition')?.status === 'True')
    expect(await getRuleset(harness.db, 'during-partition')).toMatchObject({ createdBy: 'verdict-controller@replica-b' })

    // Back on the network, the old leader finds a valid holder and stays a follower.
    const reconnectedFrom = harness.api.requests.length
    harness.api.partition('replica-a', false)
    await waitFor('replica-a reading the lease again', () =>
      harness.api.requests.slice(reconnectedFrom).some((request) => request.token === 'replica-a' && request.path.includes('/leases') && request.status === 200),
    )
    await harness.settled(b)
    expect(a.controller.isLeader()).toBe(false)
    expect(leaseHolder(harness)).toBe('replica-b')
  })
})
