import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePattern, matchPattern, type CompiledPattern } from '../../../src/engine/pattern/index.js'
import { expandedMapNode } from '../../../src/engine/pattern/compile-pattern.js'
import { generatedPassCheck } from '../../../src/engine/pattern/generated-pass-check.js'
import { passCheckOf } from '../../../src/engine/pattern/pass-check.js'

/** The full matcher alone: the pattern with a pass check that never answers. */
function fullOutcome(pattern: CompiledPattern, resource: unknown, ints: boolean): string {
  return matchPattern({ ...pattern, passes: () => false }, resource, { wholeNumbers: ints ? 'int64' : 'float64' }).status
}

const KEYS = ['a', 'b', 'c', 'constructor']
const leaves = fc.constantFrom<unknown>('*', '?*', 'x*', '>1', '1-5', '!x', 'null', null, true, 1, 2.5, 'a|b', '', 'true')
const patterns = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaves, tie('map'), tie('list')),
  map: fc.dictionary(
    fc.tuple(fc.constantFrom('', '(', '=(', 'X(', '<(', '^('), fc.constantFrom(...KEYS)).map(([anchor, key]) => (anchor === '' ? key : `${anchor}${key})`)),
    tie('node'),
    { maxKeys: 3 },
  ),
  list: fc.array(tie('node'), { minLength: 1, maxLength: 2 }),
})).node
const resources = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>('x', 'xy', 'a', '', 'true', '3', 1, 0, 4, 2.5, 8, true, false, null),
    tie('map'),
    tie('list'),
  ),
  map: fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 4 }),
  list: fc.array(tie('node'), { maxLength: 3 }),
})).node

describe('the pass check that spares the full matcher', () => {
  it('answers true only when the full matcher passes, generated or as closures alike', () => {
    let generated = 0
    let passes = 0
    fc.assert(
      fc.property(patterns, resources, fc.boolean(), (raw, resource, ints) => {
        const { pattern, problems } = compilePattern(raw)
        if (problems.length > 0) return
        const closures = passCheckOf(pattern.root, expandedMapNode)
        const code = generatedPassCheck(pattern.root, expandedMapNode)
        if (code) generated++
        const answer = closures(resource, ints)
        expect(code?.(resource, ints) ?? answer).toBe(answer)
        if (answer) {
          passes++
          expect(fullOutcome(pattern, resource, ints)).toBe('pass')
        }
      }),
      { numRuns: 4_000 },
    )
    // The property means something only if both kinds of check ran and passes were found.
    expect(generated).toBeGreaterThan(1_000)
    expect(passes).toBeGreaterThan(200)
  })

  it('finds a pass for resources that plainly match, and the pattern answers the same however often it runs', () => {
    const { pattern } = compilePattern({ spec: { '=(initContainers)': [{ '=(securityContext)': { '=(privileged)': 'false' } }], containers: [{ name: '?*' }] } })
    const pod = { spec: { containers: [{ name: 'a', securityContext: { privileged: false } }] } }
    const privileged = { spec: { containers: [{ name: 'a' }], initContainers: [{ securityContext: { privileged: true } }] } }
    const closures = passCheckOf(pattern.root, expandedMapNode)
    const code = generatedPassCheck(pattern.root, expandedMapNode)
    expect([closures(pod, true), code?.(pod, true)]).toEqual([true, true])
    expect([closures(privileged, true), code?.(privileged, true)]).toEqual([false, false])
    // Judged many times, the pattern switches to generated code: the outcomes stay those of the full matcher.
    for (let i = 0; i < 10; i++) {
      expect(matchPattern(pattern, pod)).toEqual({ status: 'pass' })
      expect(matchPattern(pattern, privileged)).toMatchObject({ status: 'fail', path: ['spec', 'initContainers', 0, 'securityContext', 'privileged'] })
    }
  })

  it('writes no text of the pattern into code: hostile keys and values are data', () => {
    const hostile = "'); globalThis.pwned = true; ('"
    const { pattern } = compilePattern({ [hostile]: { [`${hostile}\n}`]: `${hostile}*` }, '`${x}`': '*' })
    const code = generatedPassCheck(pattern.root, expandedMapNode)
    expect(code).toBeDefined()
    expect(code?.({ [hostile]: { [`${hostile}\n}`]: `${hostile}!` }, '`${x}`': 1 }, true)).toBe(true)
    expect(code?.({ [hostile]: { [`${hostile}\n}`]: 'other' }, '`${x}`': 1 }, true)).toBe(false)
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })

  it('keeps the closures for a pattern too large to generate, and still judges it', () => {
    const wide = Object.fromEntries(Array.from({ length: 3_000 }, (_, index) => [`=(k${index})`, 'v*']))
    const { pattern } = compilePattern({ data: wide })
    expect(generatedPassCheck(pattern.root, expandedMapNode)).toBeUndefined()
    for (let i = 0; i < 5; i++) {
      expect(matchPattern(pattern, { data: { k1: 'value', k2999: 'v' } })).toEqual({ status: 'pass' })
      expect(matchPattern(pattern, { data: { k2999: 'x' } })).toMatchObject({ status: 'fail', path: ['data', 'k2999'] })
    }
  })

  it('expands wildcard label keys for each resource inside generated code', () => {
    const { pattern } = compilePattern({ metadata: { labels: { 'app.kubernetes.io/*': '?*' } } })
    const code = generatedPassCheck(pattern.root, expandedMapNode)
    expect(code?.({ metadata: { labels: { 'app.kubernetes.io/name': 'web' } } }, true)).toBe(true)
    expect(code?.({ metadata: { labels: { 'app.kubernetes.io/name': '' } } }, true)).toBe(false)
    expect(code?.({ metadata: { labels: { other: 'x' } } }, true)).toBe(closuresAnswer(pattern, { metadata: { labels: { other: 'x' } } }))
  })
})

function closuresAnswer(pattern: CompiledPattern, resource: unknown): boolean {
  return passCheckOf(pattern.root, expandedMapNode)(resource, true)
}
