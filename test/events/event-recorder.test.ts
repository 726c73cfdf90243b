import { KubeConfig } from '@kubernetes/client-node'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EventRecorder, type DropReason, type EventRecorderSettings, type EventReport } from '../../src/events/event-recorder.js'
import { KubeEventSink } from '../../src/events/kube-event-sink.js'
import type { ObjectReference, Violation } from '../../src/events/violation.js'
import { FakeKubeApi, type Json, type RecordedRequest } from '../k8s/fake-kube-api.js'
import { waitFor } from '../k8s/wait-for.js'

const START = Date.UTC(2026, 10, 24, 10, 0, 0)

const pod = (name: string, uid = `uid-${name}`): ObjectReference => ({ apiVersion: 'v1', kind: 'Pod', name, namespace: 'team-a', uid })
const POLICY: ObjectReference = { apiVersion: 'verdict.dev/v1alpha1', kind: 'Policy', name: 'production', uid: 'uid-production' }
const RULE = 'production/pod-basics/no-privileged'
const FAILURE = `${RULE}: privileged containers are not allowed`

function denial(regarding: ObjectReference, note = `denied UPDATE: ${FAILURE}`, rule = RULE): Violation {
  return { action: 'Admission', regarding, related: POLICY, rule, note }
}

/** The hexadecimal stamp client-go names Events with: nanoseconds, the last digits counting Events named within a millisecond. */
function stamp(ms: number, sequence: number): string {
  return (BigInt(ms) * 1_000_000n + BigInt(sequence)).toString(16)
}

describe('EventRecorder against an API server', () => {
  let api: FakeKubeApi
  let clock: number
  let reports: EventReport[]
  const recorders: EventRecorder[] = []

  beforeEach(async () => {
    api = await FakeKubeApi.start()
    clock = START
    reports = []
  })
  afterEach(async () => {
    for (const recorder of recorders.splice(0)) await recorder.close()
    await api.close()
  })

  function recorder(settings: Partial<EventRecorderSettings> = {}): EventRecorder {
    const made = new EventRecorder({
      sink: new KubeEventSink(api.kubeConfig('verdict-0')),
      instance: 'verdict-0',
      now: () => clock,
      // No timer: the test decides when repeats are patched (flush), so every count is exact.
      settings: { flushEveryMs: 0, ...settings },
      onReport: (report) => reports.push(report),
    })
    recorders.push(made)
    return made
  }

  const eventWrites = (): RecordedRequest[] => api.requests.filter((request) => request.path.startsWith('/apis/events.k8s.io/'))
  const writesBy = (method: string): number => eventWrites().filter((request) => request.method === method).length
  const dropped = (reason: DropReason): number =>
    reports.reduce((sum, report) => sum + (report.type === 'dropped' && report.reason === reason ? report.violations : 0), 0)
  const stored = (namespace = 'team-a'): Json[] => api.list('events', { namespace })

  it('writes an events.k8s.io/v1 Event the API server accepts: Warning, PolicyViolation, the object, the policy, the note', async () => {
    const events = recorder()
    events.record(denial(pod('web')))
    await events.flush()
    expect(eventWrites().map((request) => [request.method, request.path, request.status])).toEqual([['POST', '/apis/events.k8s.io/v1/namespaces/team-a/events', 201]])
    const [event] = stored()
    const { metadata, ...rest } = event as Json
    expect(metadata).toMatchObject({ name: `web.${stamp(START, 0)}`, namespace: 'team-a' })
    expect(rest).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      eventTime: '2026-11-24T10:00:00.000000Z',
      reportingController: 'verdict.dev/admission',
      reportingInstance: 'verdict-0',
      action: 'Admission',
      reason: 'PolicyViolation',
      regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'team-a', uid: 'uid-web' },
      related: POLICY,
      note: `denied UPDATE: ${FAILURE}`,
      type: 'Warning',
    })
    expect(reports).toEqual([{ type: 'written', write: 'create' }])
  })

  it("puts a cluster-scoped object's Event in default, names it as a DNS subdomain, and cuts a long note to 1,024 bytes", async () => {
    const events = recorder()
    const role: ObjectReference = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'system:Aggregate_to-edit', uid: 'uid-role' }
    clock = START + 1
    events.record({ action: 'Scan', regarding: role, rule: 'rbac/roles/no-wildcards', note: `rbac/roles/no-wildcards: ${'é'.repeat(2000)}` })
    events.record({ action: 'Scan', regarding: role, rule: 'rbac/roles/no-escalate', note: 'rbac/roles/no-escalate: escalate is not allowed' })
    await events.flush()
    const [wildcards, escalate] = stored('default')
    // Two Events in one millisecond: the stamp's last digits tell them apart.
    expect((wildcards?.metadata as Json).name).toBe(`system-aggregate-to-edit.${stamp(START + 1, 0)}`)
    expect((escalate?.metadata as Json).name).toBe(`system-aggregate-to-edit.${stamp(START + 1, 1)}`)
    expect(wildcards).toMatchObject({ reportingController: 'verdict.dev/background-scan', action: 'Scan', regarding: role, eventTime: '2026-11-24T10:00:00.001000Z' })
    expect(wildcards).not.toHaveProperty('related')
    const note = wildcards?.note as string
    expect(Buffer.byteLength(note)).toBeLessThanOrEqual(1024)
    expect(Buffer.byteLength(note)).toBeGreaterThan(1020)
    expect(note.startsWith('rbac/roles/no-wildcards: éé')).toBe(true)
    expect(note.endsWith('é\u2026')).toBe(true)
  })

  it('aggregates 1,000 denials of one object in a second into one Event: one create, one patch, series count 1,000', async () => {
    const events = recorder()
    for (let i = 0; i < 1000; i++) {
      clock = START + i
      events.record(denial(pod('web')))
    }
    await events.flush()
    expect([writesBy('POST'), writesBy('PATCH')]).toEqual([1, 1])
    const patch = eventWrites().find((request) => request.method === 'PATCH')
    expect(patch).toMatchObject({ contentType: 'application/merge-patch+json', status: 200, body: { series: { count: 1000, lastObservedTime: '2026-11-24T10:00:00.999000Z' } } })
    const [event] = stored()
    expect(event).toMatchObject({ eventTime: '2026-11-24T10:00:00.000000Z', series: { count: 1000, lastObservedTime: '2026-11-24T10:00:00.999000Z' }, note: `denied UPDATE: ${FAILURE}` })
    expect(stored()).toHaveLength(1)

    // Later repeats within the window add to the same series; nothing new, nothing written again without them.
    clock = START + 60_000
    for (let i = 0; i < 5; i++) events.record(denial(pod('web')))
    await events.flush()
    await events.flush()
    expect([writesBy('POST'), writesBy('PATCH')]).toEqual([1, 2])
    expect(stored()[0]?.series).toEqual({ count: 1005, lastObservedTime: '2026-11-24T10:01:00.000000Z' })

    // After ten quiet minutes the violation starts a new Event.
    clock = START + 60_000 + 10 * 60_000 + 1
    events.record(denial(pod('web')))
    await events.flush()
    expect([writesBy('POST'), writesBy('PATCH')]).toEqual([2, 2])
    expect(stored().map((event) => (event.series as Json | undefined)?.count ?? 1)).toEqual([1005, 1])
    expect(dropped('rate-limited') + dropped('queue-full') + dropped('write-failed') + dropped('evicted')).toBe(0)
  })

  it("combines one object's violations of one rule past ten different notes: 1,000 CREATE denials on a Policy make 11 Events", async () => {
    const events = recorder()
    for (let i = 0; i < 1000; i++) {
      clock = START + i
      events.record({ action: 'Admission', regarding: POLICY, related: { apiVersion: 'v1', kind: 'Pod', name: `web-${i}`, namespace: 'team-a' }, rule: RULE, note: `denied CREATE of Pod team-a/web-${i}: ${FAILURE}` })
    }
    await events.flush()
    // Ten Events of their own, one combined Event created by the eleventh and patched with the 989 after it.
    expect([writesBy('POST'), writesBy('PATCH')]).toEqual([11, 1])
    const onPolicy = stored('default')
    expect(onPolicy).toHaveLength(11)
    expect(onPolicy.slice(0, 10).map((event) => [event.note, (event.related as Json).name, event.series])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`denied CREATE of Pod team-a/web-${i}: ${FAILURE}`, `web-${i}`, undefined]),
    )
    const combined = onPolicy[10] as Json
    expect(combined).toMatchObject({
      regarding: POLICY,
      note: `(combined from similar events): denied CREATE of Pod team-a/web-10: ${FAILURE}`,
      eventTime: '2026-11-24T10:00:00.010000Z',
      series: { count: 990, lastObservedTime: '2026-11-24T10:00:00.999000Z' },
    })
    expect(combined).not.toHaveProperty('related')
    // A note seen before keeps counting on its own Event.
    events.record({ action: 'Admission', regarding: POLICY, rule: RULE, related: { apiVersion: 'v1', kind: 'Pod', name: 'web-3', namespace: 'team-a' }, note: `denied CREATE of Pod team-a/web-3: ${FAILURE}` })
    await events.flush()
    expect(stored('default')[3]?.series).toMatchObject({ count: 2 })
  })

  it('limits new Events per object and source: 25 at once, then one per 5 minutes; the rest are dropped and counted', async () => {
    const events = recorder()
    for (let i = 0; i < 30; i++) events.record(denial(pod('web'), `denied UPDATE: production/pod-basics/rule-${i}: failed`, `production/pod-basics/rule-${i}`))
    // Background scans have a bucket of their own for the same object.
    events.record({ action: 'Scan', regarding: pod('web'), rule: RULE, note: FAILURE })
    await events.flush()
    expect(writesBy('POST')).toBe(26)
    expect(dropped('rate-limited')).toBe(5)
    // A token comes back after 5 minutes (a millisecond more, past the floating-point rounding of 1/300 a second).
    clock = START + 300_001
    events.record(denial(pod('web'), 'denied UPDATE: production/pod-basics/rule-28: failed', 'production/pod-basics/rule-28'))
    events.record(denial(pod('web'), 'denied UPDATE: production/pod-basics/rule-29: failed', 'production/pod-basics/rule-29'))
    await events.flush()
    expect(writesBy('POST')).toBe(27)
    expect(dropped('rate-limited')).toBe(6)
  })

  it('caps Event writes per source: 1,000 denials of 1,000 objects at once make 100 Events, then 10 a second', async () => {
    const events = recorder()
    for (let i = 0; i < 1000; i++) events.record(denial(pod(`web-${i}`)))
    events.record({ action: 'Scan', regarding: pod('db-0'), rule: RULE, note: FAILURE })
    await events.flush()
    expect(writesBy('POST')).toBe(101)
    expect(dropped('rate-limited')).toBe(900)
    expect(stored().filter((event) => event.action === 'Scan')).toHaveLength(1)
    clock = START + 1000
    for (let i = 1000; i < 1020; i++) events.record(denial(pod(`web-${i}`)))
    await events.flush()
    expect(writesBy('POST')).toBe(111)
    expect(dropped('rate-limited')).toBe(910)
  })

  it('holds patches the cap leaves no room for until there is: the count is written whole, nothing lost', async () => {
    const events = recorder({ globalBurst: 2, globalPerSecond: 1 })
    events.record(denial(pod('web')))
    events.record(denial(pod('api')))
    for (let i = 0; i < 7; i++) events.record(denial(pod('web')))
    events.record(denial(pod('api')))
    await events.flush()
    expect([writesBy('POST'), writesBy('PATCH')]).toEqual([2, 0])
    clock = START + 2000
    await events.flush()
    expect([writesBy('POST'), writesBy('PATCH')]).toEqual([2, 2])
    expect(stored().map((event) => (event.series as Json).count)).toEqual([8, 2])
    expect(reports.filter((report) => report.type === 'dropped')).toEqual([])
  })

  it('bounds the queue: violations needing a write past maxQueued are dropped and counted', async () => {
    const events = recorder({ maxQueued: 5 })
    for (let i = 0; i < 20; i++) events.record(denial(pod(`web-${i}`)))
    await events.flush()
    expect(writesBy('POST')).toBe(5)
    expect(dropped('queue-full')).toBe(15)
  })

  it('bounds what it remembers: a series pushed out before its repeats were written counts them as dropped', async () => {
    const events = recorder({ maxEntries: 2 })
    events.record(denial(pod('a')))
    await events.flush()
    events.record(denial(pod('a')))
    events.record(denial(pod('a')))
    events.record(denial(pod('b')))
    events.record(denial(pod('c')))
    await events.flush()
    expect(dropped('evicted')).toBe(2)
    expect(stored().map((event) => [(event.regarding as Json).name, event.series])).toEqual([
      ['a', undefined],
      ['b', undefined],
      ['c', undefined],
    ])
  })

  it('counts a write the API server refuses as dropped, and tries again at the next violation', async () => {
    const events = recorder()
    api.failRequests({ pathIncludes: '/apis/events.k8s.io/', status: 500 })
    events.record(denial(pod('web')))
    await events.flush()
    expect(stored()).toEqual([])
    expect(dropped('write-failed')).toBe(1)
    events.record(denial(pod('web')))
    await events.flush()
    expect(stored()).toHaveLength(1)
  })

  it('writes a new Event with the whole count when the API server let the first one expire', async () => {
    const events = recorder()
    events.record(denial(pod('web')))
    await events.flush()
    const first = stored()[0]?.metadata as Json
    api.delete('events', first.name as string, { namespace: 'team-a' })
    clock = START + 5
    for (let i = 0; i < 3; i++) events.record(denial(pod('web')))
    await events.flush()
    const again = stored()
    expect(again).toHaveLength(1)
    expect((again[0]?.metadata as Json).name).not.toBe(first.name)
    expect(again[0]).toMatchObject({ eventTime: '2026-11-24T10:00:00.000000Z', series: { count: 4, lastObservedTime: '2026-11-24T10:00:00.005000Z' } })
    expect(eventWrites().map((request) => [request.method, request.status])).toEqual([
      ['POST', 201],
      ['PATCH', 404],
      ['POST', 201],
    ])
  })

  it('patches repeats on its own every flushEveryMs', async () => {
    const events = recorder({ flushEveryMs: 20 })
    events.record(denial(pod('web')))
    events.record(denial(pod('web')))
    const series = await waitFor('the repeat to be patched', () => stored()[0]?.series as Json | undefined)
    expect(series).toEqual({ count: 2, lastObservedTime: '2026-11-24T10:00:00.000000Z' })
  })

  it('never waits for an API server that does not answer: record returns at once, close gives up after its grace', async () => {
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const kubeConfig = new KubeConfig()
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'silent', server: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'verdict', token: 'verdict' }],
      contexts: [{ name: 'silent', cluster: 'silent', user: 'verdict' }],
      currentContext: 'silent',
    })
    const events = new EventRecorder({ sink: new KubeEventSink(kubeConfig), instance: 'verdict-0', now: () => clock, settings: { flushEveryMs: 0 }, onReport: (report) => reports.push(report) })
    try {
      for (let i = 0; i < 3; i++) events.record(denial(pod(`web-${i}`)))
      await waitFor('the first write to reach the API server', () => sockets.size === 1)
      await events.close(50)
      // The first write is still in flight; the two behind it are given up.
      expect(dropped('shutdown')).toBe(2)
      // A closed recorder takes nothing more.
      events.record(denial(pod('web-3')))
      expect(dropped('shutdown')).toBe(3)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})
