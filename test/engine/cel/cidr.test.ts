import { describe, expect, it } from 'vitest'
import { evalCel, evalError } from './helpers.js'

describe('cidr()', () => {
  it('parses and prints prefixes', () => {
    expect(evalCel("string(cidr('192.168.0.0/16'))")).toBe('192.168.0.0/16')
    expect(evalCel("string(cidr('::1/128'))")).toBe('::1/128')
    expect(evalCel("string(cidr('2001:DB8::/32'))")).toBe('2001:db8::/32')
  })

  it('isCIDR', () => {
    expect(evalCel("isCIDR('192.168.0.0/16')")).toBe(true)
    expect(evalCel("isCIDR('::1/128')")).toBe(true)
    expect(evalCel("isCIDR('192.168.0.0/33')")).toBe(false)
    expect(evalCel("isCIDR('::1/129')")).toBe(false)
    expect(evalCel("isCIDR('192.168.0.0')")).toBe(false)
    expect(evalCel("isCIDR('192.168.0.0/016')")).toBe(false)
    expect(evalCel("isCIDR('::ffff:1.2.3.4/120')")).toBe(false)
    expect(evalCel("isCIDR('fe80::%eth0/64')")).toBe(false)
  })

  it('explains an invalid prefix', () => {
    expect(evalError("cidr('192.168.0.0/33')").message).toBe(
      'network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/33"): prefix length out of range (at 1:1)',
    )
  })

  it.each([
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true],
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", false],
    ["cidr('192.168.0.0/24').containsIP('192.168.0.1')", true],
    ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
    ["cidr('0.0.0.0/0').containsIP('::1')", false],
    ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true],
    ["cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24'))", false],
    ["cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')", true],
    ["cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')", false],
    ["cidr('192.168.10.0/24').containsCIDR('192.168.0.0/16')", false],
    ["cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", true],
    ["cidr('192.168.0.1/24').ip().family()", 4n],
    ["cidr('::1/128').ip() == ip('::1')", true],
    ["cidr('::1/128').ip().family()", 6n],
    ["cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", true],
    ["cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()", false],
    ["string(cidr('2001:db8::1/32').masked())", '2001:db8::/32'],
    ["cidr('192.168.0.0/16').prefixLength()", 16n],
    ["cidr('::1/128').prefixLength()", 128n],
  ])('%s', (expression, expected) => {
    expect(evalCel(expression)).toBe(expected)
  })
})
