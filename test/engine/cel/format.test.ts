import { describe, expect, it } from 'vitest'
import { evalCel, evalError } from './helpers.js'

describe('string.format', () => {
  it('substitutes %s and %d', () => {
    expect(evalCel(`"this is a string: %s\\nand an integer: %d".format(["str", 42])`)).toBe('this is a string: str\nand an integer: 42')
    expect(evalCel('"%s %d".format([object.name, object.n])', { object: { name: 'web', n: 3 } })).toBe('web 3')
    expect(evalCel('"%v".format([1])')).toBe('1')
  })

  it('prints every kind of value with %s', () => {
    expect(evalCel('"a double substituted with %%s: %s".format([64.2])')).toBe('a double substituted with %s: 64.2')
    expect(evalCel('"type: %s, type of a type: %s".format([string, type(string)])')).toBe('type: string, type of a type: type')
    expect(evalCel('"timestamp: %s".format([timestamp("2023-02-03T23:31:20+00:00")])')).toBe('timestamp: 2023-02-03T23:31:20Z')
    expect(evalCel('"duration: %s".format([duration("1h45m47s")])')).toBe('duration: 6347s')
    expect(evalCel(`"%s".format([["abc", 3.14, null, [9, 8, 7, 6]]])`)).toBe('[abc, 3.14, null, [9, 8, 7, 6]]')
    expect(evalCel(`"%s".format([{"key2": 2, "key1": "xyz", "key3": true}])`)).toBe('{key1: xyz, key2: 2, key3: true}')
    expect(evalCel('"true bool: %s - false bool: %s\\nbinary bool: %b".format([true, false, true])')).toBe('true bool: true - false bool: false\nbinary bool: 1')
    expect(evalCel('"list: %s".format([[[1, 2, [3.0, 4]]]])')).toBe('list: [[1, 2, [3, 4]]]')
    expect(evalCel('"%s".format([b"bytes"])')).toBe('bytes')
  })

  it('formats numbers with %f, %e, %b, %x, %X, %o', () => {
    expect(evalCel('"%f".format([3.14])')).toBe('3.140000')
    expect(evalCel('"%.2f".format([3.14159])')).toBe('3.14')
    expect(evalCel('"%.0f".format([2])')).toBe('2')
    expect(evalCel('"%f %f %f".format([double("NaN"), double("Infinity"), double("-Infinity")])')).toBe('NaN Infinity -Infinity')
    expect(evalCel('"%e".format([2.71828])')).toBe('2.718280e+00')
    expect(evalCel('"%.3e".format([123456.0])')).toBe('1.235e+05')
    expect(evalCel('"5 in binary: %b".format([5])')).toBe('5 in binary: 101')
    expect(evalCel('"26 in hex: %x".format([26])')).toBe('26 in hex: 1a')
    expect(evalCel('"26 in hex (uppercase): %X".format([26])')).toBe('26 in hex (uppercase): 1A')
    expect(evalCel('"-30 in hex: %x".format([-30])')).toBe('-30 in hex: -1e')
    expect(evalCel('"%x".format(["Hello world!"])')).toBe('48656c6c6f20776f726c6421')
    expect(evalCel('"%X".format([b"byte string"])')).toBe('6279746520737472696E67')
    expect(evalCel('"30 in octal: %o".format([30])')).toBe('30 in octal: 36')
    expect(evalCel('"%d".format([2.5])')).toBe('2.5')
    expect(evalCel('"%f".format([1e21])')).toBe('1000000000000000000000.000000')
  })

  it('rejects bad clauses and arguments', () => {
    expect(evalError('"%d %d".format([1])').message).toBe('format: index 1 out of range (at 1:1)')
    expect(evalError('"%d".format(["a"])').message).toBe(
      'format: error during formatting: decimal clause can only be used on ints, uints, and doubles, was given string (at 1:1)',
    )
    expect(evalError('"%b".format([1.5])').message).toBe(
      'format: error during formatting: binary clause can only be used on ints, uints, and bools, was given double (at 1:1)',
    )
    expect(evalError('"%q".format([1])').message).toBe('format: could not parse formatting clause: unrecognized formatting clause "q" (at 1:1)')
    expect(evalError('"100%".format([1])').message).toBe('format: unexpected end of string (at 1:1)')
    expect(evalError('"%.3".format([1])').message).toBe('format: could not parse formatting clause: could not find end of precision specifier (at 1:1)')
  })
})
