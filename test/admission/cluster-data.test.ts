import { describe, expect, it, vi } from 'vitest'
import { handleAdmissionReview, type ReviewHandlerDeps } from '../../src/admission/handle-admission-review.js'
import type { BoundedAuditRecorder } from '../../src/admission/bounded-audit-recorder.js'
import type { ClusterData, EvaluationInput } from '../../src/engine/index.js'
import { recordingLogger, startHarness } from './admission-harness.js'
import { postReview } from './https-client.js'

/** Every input the engine was given in this file: PreparedInput is where an evaluation starts. */
const given = vi.hoisted(() => [] as EvaluationInput[])

vi.mock('../../src/engine/index.js', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/engine/index.js')>()
  class RecordedInput extends engine.PreparedInput {
    constructor(input: EvaluationInput) {
      given.push(input)
      super(input)
    }
  }
  return { ...engine, PreparedInput: RecordedInput }
})

function review(uid: string): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      namespace: 'team-a',
      name: 'web',
      userInfo: { username: 'alice' },
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' }, spec: { containers: [] } },
    },
  })
}

function deps(cluster?: ClusterData): ReviewHandlerDeps {
  return {
    policies: { current: () => [] },
    namespaces: { get: () => undefined },
    ...(cluster ? { cluster } : {}),
    audits: {} as BoundedAuditRecorder,
    skip: { exemptNamespaces: new Set() },
    logger: recordingLogger(),
  }
}

describe('handleAdmissionReview', () => {
  it('gives the engine the cluster data of its deps, and none without a cluster', async () => {
    given.length = 0
    const cluster: ClusterData = { configMap: () => undefined }
    expect((await handleAdmissionReview(review('with'), deps(cluster))).status).toBe(200)
    expect((await handleAdmissionReview(review('without'), deps())).status).toBe(200)
    expect(given.map((input) => [input.request?.uid, input.cluster])).toEqual([
      ['with', cluster],
      ['without', undefined],
    ])
  })
})

describe('startAdmissionServer', () => {
  it('passes its cluster data to every review it judges', async () => {
    given.length = 0
    const harness = await startHarness()
    try {
      const cluster: ClusterData = { configMap: () => undefined }
      const server = await harness.start({ cluster })
      const answer = await postReview(server.target, review('over-https'))
      expect(answer.status).toBe(200)
      expect(given.map((input) => [input.request?.uid, input.cluster])).toEqual([['over-https', cluster]])
    } finally {
      await harness.close()
    }
  })
})
