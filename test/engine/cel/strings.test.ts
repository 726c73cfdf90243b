import { describe, expect, it } from 'vitest'
import { evalCel, evalError } from './helpers.js'

describe('cel-go ext strings', () => {
  it('charAt', () => {
    expect(evalCel("'hello'.charAt(4)")).toBe('o')
    expect(evalCel("'hello'.charAt(5)")).toBe('')
    expect(evalCel("'h😀llo'.charAt(1)")).toBe('😀')
    expect(evalError("'hello'.charAt(-1)").message).toBe('index out of range: -1 (at 1:1)')
    expect(evalError("'hello'.charAt(6)").message).toBe('index out of range: 6 (at 1:1)')
  })

  it('indexOf with and without an offset, in code points', () => {
    expect(evalCel("'hello mellow'.indexOf('')")).toBe(0n)
    expect(evalCel("'hello mellow'.indexOf('ello')")).toBe(1n)
    expect(evalCel("'hello mellow'.indexOf('jello')")).toBe(-1n)
    expect(evalCel("'hello mellow'.indexOf('', 2)")).toBe(2n)
    expect(evalCel("'hello mellow'.indexOf('ello', 2)")).toBe(7n)
    expect(evalCel("'hello mellow'.indexOf('ello', 20)")).toBe(-1n)
    expect(evalCel("'hello'.indexOf('', 20)")).toBe(5n)
    expect(evalCel("'😀a😀b'.indexOf('b')")).toBe(3n)
    expect(evalCel("'😀a😀b'.indexOf('😀', 1)")).toBe(2n)
    expect(evalError("'hello mellow'.indexOf('ello', -1)").message).toBe('index out of range: -1 (at 1:1)')
  })

  it('lastIndexOf with and without an offset', () => {
    expect(evalCel("'hello mellow'.lastIndexOf('')")).toBe(12n)
    expect(evalCel("'hello mellow'.lastIndexOf('ello')")).toBe(7n)
    expect(evalCel("'hello mellow'.lastIndexOf('jello')")).toBe(-1n)
    expect(evalCel("'hello mellow'.lastIndexOf('ello', 6)")).toBe(1n)
    expect(evalCel("'hello mellow'.lastIndexOf('ello', 20)")).toBe(-1n)
    expect(evalCel("''.lastIndexOf('a')")).toBe(-1n)
    expect(evalCel("'😀a😀b'.lastIndexOf('😀')")).toBe(2n)
    expect(evalError("'hello mellow'.lastIndexOf('ello', -1)").message).toBe('index out of range: -1 (at 1:1)')
  })

  it('lowerAscii, upperAscii and trim', () => {
    expect(evalCel("'TacoCat'.lowerAscii()")).toBe('tacocat')
    expect(evalCel("'TacoCat'.upperAscii()")).toBe('TACOCAT')
    expect(evalCel("'  \\ttrim\\n    '.trim()")).toBe('trim')
  })

  it('replace', () => {
    expect(evalCel("'hello hello'.replace('he', 'we')")).toBe('wello wello')
    expect(evalCel("'hello hello'.replace('he', 'we', -1)")).toBe('wello wello')
    expect(evalCel("'hello hello'.replace('he', 'we', 1)")).toBe('wello hello')
    expect(evalCel("'hello hello'.replace('he', 'we', 0)")).toBe('hello hello')
    expect(evalCel("'hello hello'.replace('', '_')")).toBe('_h_e_l_l_o_ _h_e_l_l_o_')
    expect(evalCel("'h😀'.replace('', '_', 2)")).toBe('_h_😀')
    expect(evalCel("'hello hello'.replace('h', '')")).toBe('ello ello')
  })

  it('split', () => {
    expect(evalCel("'hello hello hello'.split(' ')")).toEqual(['hello', 'hello', 'hello'])
    expect(evalCel("'hello hello hello'.split(' ', 0)")).toEqual([])
    expect(evalCel("'hello hello hello'.split(' ', 1)")).toEqual(['hello hello hello'])
    expect(evalCel("'hello hello hello'.split(' ', 2)")).toEqual(['hello', 'hello hello'])
    expect(evalCel("'hello hello hello'.split(' ', -1)")).toEqual(['hello', 'hello', 'hello'])
  })

  it('substring', () => {
    expect(evalCel("'tacocat'.substring(4)")).toBe('cat')
    expect(evalCel("'tacocat'.substring(0, 4)")).toBe('taco')
    expect(evalCel("'ta😀cat'.substring(2, 3)")).toBe('😀')
    expect(evalError("'tacocat'.substring(-1)").message).toBe('index out of range: -1 (at 1:1)')
    expect(evalError("'tacocat'.substring(2, 1)").message).toBe('invalid substring range. start: 2, end: 1 (at 1:1)')
    expect(evalError("'tacocat'.substring(8)").message).toBe('index out of range: 8 (at 1:1)')
  })

  it('join', () => {
    expect(evalCel("['hello', 'mellow'].join()")).toBe('hellomellow')
    expect(evalCel("['hello', 'mellow'].join(' ')")).toBe('hello mellow')
    expect(evalCel("[].join('/')")).toBe('')
  })

  it('reverse', () => {
    expect(evalCel("'gums'.reverse()")).toBe('smug')
    expect(evalCel("'John Smith'.reverse()")).toBe('htimS nhoJ')
    expect(evalCel("'a😀b'.reverse()")).toBe('b😀a')
  })

  it('strings.quote', () => {
    expect(evalCel(`strings.quote('single-quote with "double quote"')`)).toBe('"single-quote with \\"double quote\\""')
    expect(evalCel('strings.quote("two escape sequences \\a\\n")')).toBe('"two escape sequences \\a\\n"')
    expect(evalCel('strings.quote(object.s)', { object: { s: 'bad \uD800 surrogate' } })).toBe('"bad \uFFFD surrogate"')
  })

  it('still accepts a variable named like a namespace', () => {
    expect(evalCel("['a'].all(strings, strings == 'a')")).toBe(true)
  })
})
