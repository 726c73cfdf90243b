import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { metered } from '../../../src/engine/jmespath/budget.js'
import { closuresOf } from '../../../src/engine/jmespath/closures.js'
import { compileKyvernoJmespath } from '../../../src/engine/jmespath/compile.js'
import { ALL_FUNCTIONS, REMOVED_LIBRARY_FUNCTIONS } from '../../../src/engine/jmespath/functions/index.js'
import { KyvernoInterpreter } from '../../../src/engine/jmespath/interpreter.js'
import type { JsonValue } from '../../../src/engine/jmespath/json.js'

// The closures must answer exactly as the tree interpreter they replace: same values, same errors.
const interpreter = new KyvernoInterpreter(ALL_FUNCTIONS, REMOVED_LIBRARY_FUNCTIONS)

const EXPRESSIONS = [
  'a',
  'a.b',
  'a.b.c',
  'a.missing.c',
  'a[0]',
  'a[-1].b',
  'a[*].b',
  'a[].b',
  'a[][]',
  'a[?b == `1`].c',
  'a[?b != c]',
  'a.[b, c]',
  'a.{x: b, y: c}',
  'a || b',
  'a && b',
  '!a',
  'a | b',
  "a.b || 'none'",
  'length(a)',
  'keys(@)',
  'a[].keys(@)[]',
  'to_string(a.b)',
  'sort_by(a, &b)',
  'a[1:2]',
  'a.b > `1`',
  '`[1, 2]`',
  '@',
  'a.*.b',
]

const key = fc.constantFrom('a', 'b', 'c', 'x')
const value = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<JsonValue>(null, true, false, 0, 1, 2, 'a', ''),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value
// The expressions read from a map at the top, mostly under `a`; lists of lists and of maps are common.
const document: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.record({ a: fc.oneof(value, fc.array(fc.oneof(value, fc.array(value, { maxLength: 3 })), { maxLength: 3 })), b: value, c: value }, { requiredKeys: ['a'] }),
  value,
)
/** Cases that must be among those tried whatever the seed. */
const EXAMPLES: [string, JsonValue][] = [
  ['a[][]', { a: [[1], [2, [3]], 4] }],
  ['a[].keys(@)[]', { a: [{ b: 1, c: 2 }, null, { x: 3 }] }],
  ['a.missing.c', { a: { b: null } }],
  ['a[?b == `1`].c', { a: [{ b: 1, c: 'x' }, { b: 2, c: 'y' }, 'z'] }],
]

function outcome(run: () => JsonValue): { value: JsonValue } | { error: string } {
  try {
    return { value: metered(run) }
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` }
  }
}

describe('JMESPath closures', () => {
  it('evaluate every expression as the interpreter does, errors included', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EXPRESSIONS), document, (expression, data) => {
        const ast = compileKyvernoJmespath(expression)
        const closures = closuresOf(ast, interpreter)
        expect(outcome(() => closures.evaluate(data))).toEqual(outcome(() => interpreter.evaluate(ast, data)))
        expect(outcome(() => closures.visit(data))).toEqual(outcome(() => interpreter.visit(ast, data as never) as JsonValue))
      }),
      { numRuns: 3_000, examples: EXAMPLES },
    )
  })
})
