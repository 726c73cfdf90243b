import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseExceptionBody } from '../../src/services/exception-body.js'
import { InvalidRequestError } from '../../src/services/service-errors.js'

const json = fc.jsonValue({ maxDepth: 4 })
const field = (keys: readonly string[]) => fc.dictionary(fc.constantFrom(...keys), json, { maxKeys: keys.length })
const matchFilter = fc.record({ resources: fc.oneof(json, field(['kinds', 'names', 'namespaces', 'selector', 'operations', 'annotations'])), subjects: json }, { requiredKeys: [] })
const classicSpec = fc.record(
  {
    exceptions: fc.oneof(json, fc.array(fc.record({ policyName: json, ruleNames: fc.oneof(json, fc.array(fc.string({ maxLength: 20 }))) }, { requiredKeys: [] }), { maxLength: 3 })),
    match: fc.oneof(json, fc.record({ any: fc.oneof(json, fc.array(matchFilter, { maxLength: 3 })), all: json }, { requiredKeys: [] })),
    conditions: fc.oneof(json, fc.record({ any: fc.array(field(['key', 'operator', 'value']), { maxLength: 3 }), all: json }, { requiredKeys: [] })),
    podSecurity: json,
    background: json,
  },
  { requiredKeys: [] },
)
const celSpec = fc.record(
  { policyRefs: fc.oneof(json, fc.array(field(['kind', 'name']), { maxLength: 3 })), matchConditions: json, expiresAt: json, properties: json, images: json, reportResult: json },
  { requiredKeys: [] },
)
const metadata = fc.record({ name: fc.constant('x'), namespace: json, annotations: fc.oneof(json, fc.dictionary(fc.constantFrom('verdict.dev/reason', 'verdict.dev/expires-at', 'verdict.dev/ticket'), json)) }, { requiredKeys: ['name'] })

/** Whatever a Kyverno PolicyException body holds, the REST API answers 400 naming a field or stores a valid exception: never a 500. */
describe('parseExceptionBody with hostile Kyverno PolicyExceptions', () => {
  it('refuses with an InvalidRequestError or accepts, for any spec', () => {
    const body = fc.oneof(
      fc.record({ apiVersion: fc.constantFrom('kyverno.io/v2', 'kyverno.io/v2beta1'), kind: fc.constant('PolicyException'), metadata, spec: fc.oneof(json, classicSpec) }),
      fc.record({ apiVersion: fc.constantFrom('policies.kyverno.io/v1', 'policies.kyverno.io/v1beta1'), kind: fc.constant('PolicyException'), metadata, spec: fc.oneof(json, celSpec) }),
    )
    fc.assert(
      fc.property(body, (document) => {
        try {
          const parsed = parseExceptionBody('x', document)
          expect(typeof parsed.spec.reason).toBe('string')
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidRequestError)
          expect((error as InvalidRequestError).details).toMatch(/^body\./)
        }
      }),
      { numRuns: 2000 },
    )
  })
})
