import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './admission-harness.js'
import { postReview, type HttpsTarget } from './https-client.js'

/** Characters that have broken stores, parsers and loggers: NUL, other controls, lone surrogates, bidi overrides, quotes. */
const hostileChar = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\ud800', '\udfff', '\u202e', '\ufeff', '"', '\\', '\n', '$', '{', '}', '%s', "'"),
  fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
)
const hostileString = fc.oneof(
  fc.string({ unit: hostileChar, maxLength: 24 }),
  fc.string({ unit: hostileChar, maxLength: 4 }).map((piece) => piece.repeat(2_000)),
)
const hostileKey = fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''))

/** JSON values with hostile strings and keys, some nested deeper than the engine judges. */
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(1e308), fc.constant(-0)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
})).value
const deepValue = fc.integer({ min: 190, max: 400 }).map((depth) => {
  let value: unknown = 'leaf'
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { n: value } : [value]
  return value
})

const review = fc.record({
  uid: fc.oneof(fc.uuid(), hostileString.filter((text) => text !== '')),
  name: fc.oneof(fc.constant('web'), hostileString),
  namespace: fc.oneof(fc.constant('apps'), hostileString),
  username: fc.oneof(fc.constant('bob@example.com'), hostileString),
  labels: fc.dictionary(hostileKey, fc.oneof(hostileString, hostileValue), { maxKeys: 3 }),
  spec: fc.oneof(hostileValue, deepValue),
  extra: fc.dictionary(hostileKey, hostileValue, { maxKeys: 3 }),
  dryRun: fc.boolean(),
})

describe('AdmissionReview properties: hostile objects, uids and user names', () => {
  let h: Harness
  let target: HttpsTarget

  beforeAll(async () => {
    h = await startHarness()
    const by = 'platform@example.com'
    // Every ConfigMap is judged, so every review that is not a dry run must leave an audit.
    await h.definitions.createRuleset(
      'configmap-name',
      { rules: [{ name: 'name-is-not-forbidden', match: { kinds: ['ConfigMap'] }, validate: { cel: [{ expression: "object.metadata.?name.orValue('') != 'forbidden'", messageExpression: "'saw ' + string(object.metadata.?name.orValue(''))" }] } }] },
      { by },
    )
    await h.definitions.createPolicy('configmaps', { rulesets: ['configmap-name'], action: 'Deny', failurePolicy: 'Fail' }, { by })
    target = (await h.start()).target
  })
  afterAll(async () => {
    await h?.close()
  })

  const auditCount = async (): Promise<number> => {
    await h.settleAudits()
    const { rows } = await h.db.query<{ count: number }>('SELECT count(*)::int AS count FROM policy_audits')
    return rows[0]?.count ?? 0
  }

  it('answers every review with a well-formed AdmissionReview for its uid, never an error, and audits each judged one', async () => {
    await fc.assert(
      fc.asyncProperty(review, async (generated) => {
        const before = await auditCount()
        const body = {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          request: {
            uid: generated.uid,
            kind: { group: '', version: 'v1', kind: 'ConfigMap' },
            resource: { group: '', version: 'v1', resource: 'configmaps' },
            name: generated.name,
            namespace: generated.namespace,
            operation: 'CREATE',
            userInfo: { username: generated.username, groups: ['system:authenticated'] },
            object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generated.name, namespace: generated.namespace, labels: generated.labels }, data: { spec: generated.spec }, ...generated.extra },
            oldObject: null,
            dryRun: generated.dryRun,
          },
        }
        const answer = await postReview(target, JSON.stringify(body))
        expect(answer.status).toBe(200)
        const response = (answer.json as { apiVersion: string; kind: string; response: { uid: string; allowed: boolean; status?: { code: number; message: string } } })
        expect(response.apiVersion).toBe('admission.k8s.io/v1')
        expect(response.kind).toBe('AdmissionReview')
        expect(response.response.uid).toBe(generated.uid)
        expect(typeof response.response.allowed).toBe('boolean')
        if (!response.response.allowed) expect(response.response.status?.message).toEqual(expect.any(String))
        const judged = !generated.dryRun && !/nests deeper/.test(response.response.status?.message ?? '')
        expect(await auditCount()).toBe(before + (judged ? 1 : 0))
      }),
      { numRuns: 60 },
    )
  }, 120_000)
})
