import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { microTime } from '../../src/events/event-object.js'
import { startController, type RunningController } from '../../src/k8s/start-controller.js'
import { FAST_TIMINGS, policyResource, recordingLogger, rulesetResource } from '../k8s/controller-harness.js'
import { FakeKubeApi, type Json, type RecordedRequest } from '../k8s/fake-kube-api.js'
import { waitFor } from '../k8s/wait-for.js'
import { startHarness, type Harness } from './admission-harness.js'
import { variant } from './fixtures.js'
import { postReview, type HttpsTarget } from './https-client.js'

const START = Date.UTC(2026, 10, 24, 10, 0, 0)
/** 1,000 reviews over HTTPS, each audited in PGlite on the test's event loop: 13-15 s on the 2-core VM beside other work. */
const FLOOD_TIMEOUT_MS = 120_000
const REVIEWED = {
  name: 'reviewed',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: "object.metadata.?labels.?reviewed.orValue('') == 'yes'", message: 'pods must be reviewed' }] },
}

/**
 * Denials as `kubectl describe` shows them: the webhook, the controller's Event recorder and a
 * fake API server, wired as `verdict serve` wires them. `production` comes from a Policy resource,
 * `cluster-roles` was made through the REST API.
 */
describe('Kubernetes Events of admission denials', () => {
  let h: Harness
  let api: FakeKubeApi
  let controller: RunningController
  let target: HttpsTarget
  let clock = START
  /** Each test an hour after the last: no series of an earlier test carries over (the window is ten minutes). */
  let hour = 0
  let productionUid: string

  beforeAll(async () => {
    h = await startHarness()
    api = await FakeKubeApi.start()
    api.create('rulesets', rulesetResource('pod-rules', { rules: [REVIEWED] }))
    api.create('policies', policyResource('production', { rulesets: ['pod-rules'], action: 'Deny', match: { namespaces: ['team-a'] } }))
    productionUid = (api.get('policies', 'production')?.metadata as Json).uid as string
    await h.definitions.createRuleset(
      'role-rules',
      { rules: [{ name: 'no-wildcards', match: { kinds: ['ClusterRole'] }, validate: { cel: [{ expression: "!object.rules.exists(r, '*' in r.verbs)", message: 'no wildcard verbs' }] } }] },
      { by: 'admin' },
    )
    await h.definitions.createPolicy('cluster-roles', { rulesets: ['role-rules'], action: 'Deny' }, { by: 'admin' })
    const running = await startController({
      config: { controller: 'on', podNamespace: 'verdict', podName: 'verdict-0', webhookConfiguration: 'verdict', events: true },
      db: h.db,
      catalog: h.catalog,
      logger: recordingLogger('controller'),
      kubeConfig: api.kubeConfig('verdict-0'),
      env: {},
      timings: FAST_TIMINGS,
      now: () => new Date(clock),
      // Repeats are patched when the test flushes, so every count is exact.
      eventSettings: { flushEveryMs: 0 },
    })
    if (!running?.events) throw new Error('the controller runs with an Event recorder')
    controller = running
    await waitFor('production stored from its resource', () => h.catalog.policy('production')?.source === 'crd')
    await h.definitions.createPolicy('advice', { rulesets: ['pod-rules'], action: 'Warn', match: { namespaces: ['team-b'] } }, { by: 'admin' })
    target = (await h.start({ events: running.events })).target
  })
  afterAll(async () => {
    await controller?.stop()
    await h?.close()
    await api?.close()
  })
  beforeEach(async () => {
    await controller.events?.flush()
    for (const event of api.list('events')) {
      const metadata = event.metadata as Json
      api.delete('events', metadata.name as string, { namespace: metadata.namespace as string })
    }
    api.requests.length = 0
    clock = START + hour++ * 3_600_000
  })

  const eventWrites = (): RecordedRequest[] => api.requests.filter((request) => request.path.startsWith('/apis/events.k8s.io/'))
  const writes = (): [number, number] => [eventWrites().filter((request) => request.method === 'POST').length, eventWrites().filter((request) => request.method === 'PATCH').length]
  const denied = async (review: object): Promise<void> => {
    const answer = await postReview(target, review)
    expect((answer.json as { response: { allowed: boolean } }).response.allowed).toBe(false)
  }
  /**
   * 1,000 reviews in 50 rounds of 20 sent together, the clock 20 ms further each round: a second
   * from the first to the last, whatever the order the reviews of a round arrive in.
   */
  const deniedInASecond = async (review: (i: number) => object): Promise<number> => {
    const first = clock
    for (let round = 0; round < 50; round++) {
      clock = first + round * 20
      await Promise.all(Array.from({ length: 20 }, (_, j) => denied(review(round * 20 + j))))
    }
    return first
  }
  const production = (): Json => ({ apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', name: 'production', uid: productionUid })

  it('records an UPDATE denial on the object, its Policy resource as related', async () => {
    await denied(variant('pod-update', 'update-1'))
    await controller.events?.flush()
    const events = api.list('events', { namespace: 'team-a' })
    expect(events).toHaveLength(1)
    const { metadata, ...event } = events[0] as Json
    expect((metadata as Json).name).toMatch(/^web\.[0-9a-f]+$/)
    expect(event).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      eventTime: '2026-11-24T10:00:00.000000Z',
      reportingController: 'verdict.dev/admission',
      reportingInstance: 'verdict-0',
      action: 'Admission',
      reason: 'PolicyViolation',
      regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'team-a', uid: '4c7b5c9e-6a0e-4f55-8f4e-0d6f4b8f2a10' },
      related: production(),
      note: 'denied UPDATE: production/pod-rules/reviewed: pods must be reviewed',
      type: 'Warning',
    })
  })

  it('records a CREATE denial, whose object was never stored, on the Policy resource, naming the object', async () => {
    await denied(variant('pod-create', 'create-1'))
    await controller.events?.flush()
    expect(api.list('events', { namespace: 'team-a' })).toEqual([])
    const [event] = api.list('events', { namespace: 'default' })
    expect(event).toMatchObject({
      regarding: production(),
      // No uid: the uid the API server gave the object before admission belongs to nothing.
      related: { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'team-a' },
      note: 'denied CREATE of Pod team-a/web: production/pod-rules/reviewed: pods must be reviewed',
      reportingController: 'verdict.dev/admission',
    })
    expect(event?.related).not.toHaveProperty('uid')
  })

  it('records a CREATE denial by a policy made through the REST API on the object, without a uid, where its namespace would be', async () => {
    await denied(variant('clusterrole-create', 'role-1'))
    await controller.events?.flush()
    const [event] = api.list('events', { namespace: 'default' })
    expect(event).toMatchObject({
      regarding: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'everything' },
      note: 'denied CREATE: cluster-roles/role-rules/no-wildcards: no wildcard verbs',
    })
    expect(event).not.toHaveProperty('related')
    expect(event?.regarding).not.toHaveProperty('uid')
  })

  it('records nothing for a dry run, an allowed request or a Warn policy', async () => {
    await denied(variant('pod-create', 'dry-1', (review) => (review.request.dryRun = true)))
    const warned = await postReview(target, variant('pod-update', 'warn-1', (review) => {
      review.request.namespace = 'team-b'
      ;(review.request.object?.metadata as Json).namespace = 'team-b'
    }))
    expect(warned.json).toMatchObject({ response: { allowed: true, warnings: ['advice/pod-rules/reviewed: pods must be reviewed'] } })
    const allowed = await postReview(target, variant('pod-update', 'ok-1', (review) => ((review.request.object?.metadata as Json).labels = { reviewed: 'yes' })))
    expect(allowed.json).toMatchObject({ response: { allowed: true } })
    await controller.events?.flush()
    expect(eventWrites()).toEqual([])
  })

  it('aggregates 1,000 UPDATE denials of one Pod in a second: one create, one patch, series count 1,000', async () => {
    const first = await deniedInASecond((i) => variant('pod-update', `flood-${i}`))
    await controller.events?.flush()
    expect(writes()).toEqual([1, 1])
    const events = api.list('events', { namespace: 'team-a' })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ eventTime: microTime(first), series: { count: 1000, lastObservedTime: microTime(first + 980) } })
  }, FLOOD_TIMEOUT_MS)

  it('aggregates 1,000 CREATE denials of 1,000 Pods in a second on the Policy resource: ten Events, one combined for the other 990', async () => {
    await deniedInASecond((i) =>
      variant('pod-create', `burst-${i}`, (review) => {
        review.request.name = `web-${i}`
        ;(review.request.object?.metadata as Json).name = `web-${i}`
      }),
    )
    await controller.events?.flush()
    expect(writes()).toEqual([11, 1])
    const events = api.list('events', { namespace: 'default' })
    expect(events.map((event) => (event.series as Json | undefined)?.count ?? 1)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 990])
    // Which ten Pods got Events of their own depends on the order the reviews of the first round arrived in.
    const own = events.slice(0, 10).map((event) => (event.related as Json).name as string)
    expect(new Set(own).size).toBe(10)
    expect(events[10]).toMatchObject({ regarding: production(), note: expect.stringMatching(/^\(combined from similar events\): denied CREATE of Pod team-a\/web-\d+: production\/pod-rules\/reviewed: pods must be reviewed$/) })
    expect(events[10]).not.toHaveProperty('related')
  }, FLOOD_TIMEOUT_MS)

  it('answers denials while the API server refuses every Event', async () => {
    api.failRequests({ pathIncludes: '/apis/events.k8s.io/', status: 503, times: 5 })
    for (let i = 0; i < 5; i++) {
      clock += 1
      await denied(variant('pod-update', `refused-${i}`))
    }
    await controller.events?.flush()
    expect(api.list('events')).toEqual([])
    // Each failed create forgets its series, so each denial tried one write.
    expect(eventWrites().map((request) => request.status)).toEqual([503, 503, 503, 503, 503])
  })
})
