import { afterEach, describe, expect, it } from 'vitest'
import {
  defaultJmespathLimits,
  evaluateJmespath,
  JmespathBudgetError,
  JmespathError,
  JmespathSyntaxError,
  KyvernoContext,
  setJmespathLimits,
  substituteVariables,
  type JsonValue,
} from '../../../src/engine/jmespath/index.js'

afterEach(() => setJmespathLimits(defaultJmespathLimits()))

/** The error and the milliseconds it took to come. */
function timedError(run: () => unknown): { error: unknown; millis: number } {
  const started = performance.now()
  try {
    run()
  } catch (error) {
    return { error, millis: performance.now() - started }
  }
  throw new Error('expected an error')
}

const doubling = (times: number): string => `@${' | [@, @]'.repeat(times)}`

describe('expressions built to explode', () => {
  it('stops work on structures that double at every step (shared in memory, exponential to walk)', () => {
    for (const tail of ['to_string(@)', '[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]', 'length(to_string(@))']) {
      const { error, millis } = timedError(() => evaluateJmespath(`${doubling(60)} | ${tail}`, 'x'))
      expect(error).toBeInstanceOf(JmespathBudgetError)
      expect(millis).toBeLessThan(2000)
    }
  })

  it('stops comparisons of two such structures', () => {
    const { error } = timedError(() => evaluateJmespath(`(${doubling(60)}) == (${doubling(60)})`, 'x'))
    expect(error).toBeInstanceOf(JmespathBudgetError)
  })

  it('refuses strings past the size limit before building them', () => {
    setJmespathLimits({ maxStringLength: 10_000 })
    const long = 'x'.repeat(5_000)
    expect(timedError(() => evaluateJmespath("replace_all(@, '', @)", long)).error).toBeInstanceOf(JmespathBudgetError)
    expect(timedError(() => evaluateJmespath("regex_replace_all('', @, @)", long)).error).toBeInstanceOf(JmespathBudgetError)
    expect(timedError(() => evaluateJmespath("join(@, [@, @, @])", long)).error).toBeInstanceOf(JmespathBudgetError)
    expect(evaluateJmespath("replace_all(@, 'x', 'y')", long)).toBe('y'.repeat(5_000))
  })

  it('applies the cost limit it is given', () => {
    setJmespathLimits({ maxCost: 2_000 })
    const list = Array.from({ length: 5_000 }, (_, i) => i)
    const { error } = timedError(() => evaluateJmespath('[*].to_string(@)', list))
    expect(error).toBeInstanceOf(JmespathBudgetError)
    expect((error as Error).message).toBe('JMESPath budget exceeded: the operation used more than 2000 work units')
  })

  it('refuses over-long and over-nested expressions without exhausting the stack', () => {
    expect(timedError(() => evaluateJmespath('a'.repeat(70_000), {})).error).toBeInstanceOf(JmespathSyntaxError)
    const nested = `${'('.repeat(20_000)}a${')'.repeat(20_000)}`
    expect(timedError(() => evaluateJmespath(nested, { a: 1 })).error).toBeInstanceOf(JmespathSyntaxError)
    const deepLiteral = `\`${'['.repeat(5_000)}${']'.repeat(5_000)}\``
    expect(timedError(() => evaluateJmespath(deepLiteral, null)).error).toBeInstanceOf(JmespathError)
  })

  it('refuses decoded documents deeper than the document limit and YAML alias bombs', () => {
    expect(timedError(() => evaluateJmespath('parse_json(@)', '['.repeat(10_000) + ']'.repeat(10_000))).error).toBeInstanceOf(
      JmespathBudgetError,
    )
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for (let i = 1; i < 12; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}, *${String.fromCharCode(96 + i)}]`)
    const { error, millis } = timedError(() => evaluateJmespath('parse_yaml(@)', bomb.join('\n')))
    expect(error).toBeInstanceOf(JmespathBudgetError)
    expect(millis).toBeLessThan(2000)
  })
})

describe('substitution on hostile input', () => {
  it('stops a value that substitutes itself ever deeper or wider', () => {
    const wider = KyvernoContext.fromData({ a: '{{a}}{{a}}' })
    // A whole-string variable returns its value without rescanning it, as in Kyverno...
    expect(substituteVariables('{{a}}', wider)).toBe('{{a}}{{a}}')
    // ...but inside a longer string every pass doubles the variables.
    expect(timedError(() => substituteVariables('x{{a}}', wider)).error).toBeInstanceOf(JmespathBudgetError)
    const deeper = KyvernoContext.fromData({ a: { again: '{{a}}' } })
    const { error, millis } = timedError(() => substituteVariables('{{a}}', deeper))
    expect(error).toBeInstanceOf(JmespathBudgetError)
    expect(millis).toBeLessThan(2000)
  })

  it('walks documents as deep as the project allows, and refuses deeper ones without overflowing', () => {
    let document: JsonValue = '{{ name }}'
    for (let i = 0; i < 200; i++) document = { nested: document }
    const context = KyvernoContext.fromData({ name: 'ok' })
    let out = substituteVariables(document, context)
    for (let i = 0; i < 200; i++) out = (out as { nested: JsonValue }).nested
    expect(out).toBe('ok')
    for (let i = 0; i < 2_000; i++) document = { nested: document }
    expect(timedError(() => substituteVariables(document, context)).error).toBeInstanceOf(JmespathBudgetError)
  })
})
