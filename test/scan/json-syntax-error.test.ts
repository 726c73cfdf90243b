import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findJsonSyntaxError } from '../../src/scan/manifests/json-syntax-error.js'

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a": }', 6, 'unexpected "}", expected a value'],
    ['{"a": 1,\n}', 9, 'unexpected "}", expected a property name in double quotes'],
    ['{"a": 1 "b": 2}', 8, `unexpected "\\"", expected ',' or '}'`],
    ['[1, 2,, 3]', 6, 'unexpected ",", expected a value'],
    ['{"a": "x', 8, 'unterminated string'],
    ['{"a": "\\x"}', 7, 'bad escape in a string'],
    ['{"a" 1}', 5, `unexpected "1", expected ':' after the property name`],
    ['{"a": 01}', 7, `unexpected "1", expected ',' or '}'`],
    ['{} {}', 3, 'unexpected text after the JSON value'],
    ['', 0, 'unexpected end of the JSON text'],
    ['[1', 2, `unexpected end of the JSON text, expected ',' or ']'`],
  ])('finds where %j goes wrong', (text, offset, reason) => {
    expect(parses(text)).toBe(false)
    expect(findJsonSyntaxError(text)).toEqual({ offset, reason })
  })

  it('accepts what JSON.parse accepts and refuses what it refuses, texts cut or spliced at random', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', ',', '}', ']', '"', ':', ' ', '\n', '-', '0', 'e', '\\', '{', '['))
      .map(([text, at, cut, insert]) => {
        const position = at % (text.length + 1)
        return text.slice(0, position) + insert + text.slice(position + cut)
      })
    fc.assert(
      fc.property(fc.oneof(fc.json(), mutated), (text) => {
        const found = findJsonSyntaxError(text)
        expect(found === undefined).toBe(parses(text))
        if (found) expect(found.offset).toBeLessThanOrEqual(text.length)
      }),
      { numRuns: 3000 },
    )
  })
})
