import { describe, expect, it } from 'vitest'
import { compileRequirement } from '../../../src/authoring/understand/compile-requirement.js'
import type { Predicate, Requirement, ValueRef } from '../../../src/authoring/understand/requirement.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

/**
 * Safety: for every predicate, a document without the field is judged as the wording says
 * (`missing`), and never passes only because the path was not found.
 */
const PREDICATES: Predicate[] = [
  { op: 'set' },
  { op: 'equals', value: 'x' },
  { op: 'equals', value: true },
  { op: 'equals', value: 3 },
  { op: 'oneOf', values: ['a', 'b'] },
  { op: 'noneOf', values: ['a'] },
  { op: 'compare', bounds: [{ cmp: '>=', value: 1 }] },
  { op: 'compare', bounds: [{ cmp: '<=', value: '1Gi' }] },
  { op: 'format', format: 'email', pattern: '^[^@]+@[^@]+$' },
  { op: 'startsWith', values: ['/api/'] },
  { op: 'endsWith', values: ['.example.com'] },
  { op: 'notContains', values: ['*'] },
  { op: 'contains', values: ['x'] },
  { op: 'imageRegistry', registries: ['registry.example.com'] },
  { op: 'imageTag', requirement: 'digest' },
  { op: 'listAllOf', values: ['ALL'] },
  { op: 'listOnly', values: ['NET_BIND_SERVICE'] },
]

const field: ValueRef = { scope: 'object', variants: [{ segments: ['spec', 'deep', 'field'] }], label: 'field' }

function requirement(predicate: Predicate, missing: 'pass' | 'fail'): Requirement {
  return { sentence: 'test', subject: { platform: 'generic', kinds: [] }, values: [field], predicate, combine: 'all', missing, conditions: [], exemptions: [] }
}

function passes(rule: Requirement, document: unknown): boolean {
  return evaluateRuleset(compileRuleset({ name: 'missing', labels: {}, rules: [compileRequirement(rule)] }), new PreparedInput({ object: document })).passed
}

describe('an absent value is judged by what the wording says it means', () => {
  const documents: Array<[string, unknown]> = [
    ['an empty document', {}],
    ['a document without the parent', { spec: {} }],
    ['a document whose parent is another type', { spec: { deep: 'text' } }],
    ['a null value', { spec: { deep: { field: null } } }],
    ['an empty string', { spec: { deep: { field: '' } } }],
  ]
  for (const predicate of PREDICATES) {
    for (const [description, document] of documents) {
      it(`${JSON.stringify(predicate)}: ${description} fails when absent fails, passes when absent passes`, () => {
        expect(passes(requirement(predicate, 'fail'), document)).toBe(false)
        expect(passes(requirement(predicate, 'pass'), document)).toBe(true)
      })
    }
  }
})
