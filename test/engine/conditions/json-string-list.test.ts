import { describe, expect, it } from 'vitest'
import { decodeJsonStringList } from '../../../src/engine/conditions/json-string-list.js'

describe('decodeJsonStringList', () => {
  it('decodes like json.Unmarshal into []string', () => {
    expect(decodeJsonStringList(' ["a", null] ')).toEqual({ ok: true, items: ['a', ''] })
    expect(decodeJsonStringList('null')).toEqual({ ok: true, items: [] })
    expect(decodeJsonStringList('[1]')).toEqual({ ok: false, json: true })
    expect(decodeJsonStringList('"a"')).toEqual({ ok: false, json: true })
    expect(decodeJsonStringList('a')).toEqual({ ok: false, json: false })
    expect(decodeJsonStringList('')).toEqual({ ok: false, json: false })
  })
})
