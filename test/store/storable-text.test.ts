import { describe, expect, it } from 'vitest'
import { describeCodeUnit, storableJson, storableText, unstorableCharacterIn } from '../../src/store/storable-text.js'

describe('storable text', () => {
  it('finds U+0000 and unpaired surrogates, and nothing in well-formed text', () => {
    expect(unstorableCharacterIn('plain é 😀 text')).toBeUndefined()
    expect(unstorableCharacterIn('a\u0000b')).toEqual({ index: 1, codeUnit: 0 })
    expect(unstorableCharacterIn('ab\uD800')).toEqual({ index: 2, codeUnit: 0xd800 })
    expect(unstorableCharacterIn('\uDC00x')).toEqual({ index: 0, codeUnit: 0xdc00 })
    expect(unstorableCharacterIn('\uDC00\uD800')).toEqual({ index: 0, codeUnit: 0xdc00 })
  })

  it('replaces each of them with U+FFFD and keeps pairs and other control characters', () => {
    expect(storableText('a\u0000b\uD800c\uDC00d😀\u0001')).toBe('a\uFFFDb\uFFFDc\uFFFDd😀\u0001')
    const clean = 'nothing to do'
    expect(storableText(clean)).toBe(clean)
  })

  it('names code units in messages', () => {
    expect(describeCodeUnit(0)).toBe('U+0000 (NUL)')
    expect(describeCodeUnit(0xdbff)).toBe('U+DBFF (an unpaired UTF-16 surrogate)')
  })

  it('writes JSON jsonb accepts: strings and keys made storable, "__proto__" kept as a key', () => {
    const value = JSON.parse('{"__proto__": "p", "k\\u0000": ["a\\ud800", {"m": "x\\u0000"}], "n": 1, "ok": "\\u0001"}') as unknown
    const json = storableJson(value)
    expect(json).not.toMatch(/\\u0000|\\ud[89a-f]/i)
    expect(JSON.parse(json)).toEqual(JSON.parse('{"__proto__": "p", "k\uFFFD": ["a\uFFFD", {"m": "x\uFFFD"}], "n": 1, "ok": "\\u0001"}'))
    expect(Object.keys(JSON.parse(json) as object)).toContain('__proto__')
    expect(storableJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}')
  })
})
