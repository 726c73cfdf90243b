import { describe, expect, it } from 'vitest'
import { evalCel, evalError } from './helpers.js'

describe('ip()', () => {
  it('parses IPv4 and IPv6 addresses', () => {
    expect(evalCel("string(ip('127.0.0.1'))")).toBe('127.0.0.1')
    expect(evalCel("string(ip('::1'))")).toBe('::1')
    expect(evalCel("string(ip('2001:DB8:0:0:0:0:0:ABCD'))")).toBe('2001:db8::abcd')
    expect(evalCel("string(ip('1:0:0:2:0:0:0:3'))")).toBe('1:0:0:2::3')
    expect(evalCel("string(ip('1:0:0:2:0:0:3:4'))")).toBe('1::2:0:0:3:4')
    expect(evalCel("string(ip('::ffff:0:1.2.3.4'))")).toBe('::ffff:0:102:304')
  })

  it('isIP and its rejections', () => {
    expect(evalCel("isIP('127.0.0.1')")).toBe(true)
    expect(evalCel("isIP('::1')")).toBe(true)
    expect(evalCel("isIP('127.0.0.256')")).toBe(false)
    expect(evalCel("isIP(':::1')")).toBe(false)
    expect(evalCel("isIP('127.0.0.01')")).toBe(false)
    expect(evalCel("isIP('fe80::1%eth0')")).toBe(false)
    expect(evalCel("isIP('::ffff:1.2.3.4')")).toBe(false)
    expect(evalCel("isIP('1.2.3')")).toBe(false)
    expect(evalCel("isIP('1::2::3')")).toBe(false)
    expect(evalCel("isIP('')")).toBe(false)
  })

  it('explains why an address is invalid', () => {
    expect(evalError("ip('127.0.0.256')").message).toBe(
      'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255 (at 1:1)',
    )
    expect(evalError("ip('fe80::1%eth0')").message).toBe('IP address "fe80::1%eth0" with zone value is not allowed (at 1:1)')
    expect(evalError("ip('::ffff:1.2.3.4')").message).toBe('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed (at 1:1)')
  })

  it('ip.isCanonical', () => {
    expect(evalCel("ip.isCanonical('127.0.0.1')")).toBe(true)
    expect(evalCel("ip.isCanonical('2001:db8::abcd')")).toBe(true)
    expect(evalCel("ip.isCanonical('2001:DB8::ABCD')")).toBe(false)
    expect(evalCel("ip.isCanonical('2001:db8::0:0:0:abcd')")).toBe(false)
  })

  it('family', () => {
    expect(evalCel("ip('127.0.0.1').family()")).toBe(4n)
    expect(evalCel("ip('::1').family()")).toBe(6n)
  })

  it.each([
    ["ip('0.0.0.0').isUnspecified()", true],
    ["ip('127.0.0.1').isUnspecified()", false],
    ["ip('::').isUnspecified()", true],
    ["ip('::1').isUnspecified()", false],
    ["ip('127.0.0.1').isLoopback()", true],
    ["ip('127.255.0.9').isLoopback()", true],
    ["ip('192.168.0.1').isLoopback()", false],
    ["ip('::1').isLoopback()", true],
    ["ip('2001:db8::abcd').isLoopback()", false],
    ["ip('224.0.0.1').isLinkLocalMulticast()", true],
    ["ip('224.0.1.1').isLinkLocalMulticast()", false],
    ["ip('ff02::1').isLinkLocalMulticast()", true],
    ["ip('fd00::1').isLinkLocalMulticast()", false],
    ["ip('169.254.169.254').isLinkLocalUnicast()", true],
    ["ip('192.168.0.1').isLinkLocalUnicast()", false],
    ["ip('fe80::1').isLinkLocalUnicast()", true],
    ["ip('fd80::1').isLinkLocalUnicast()", false],
    ["ip('192.168.0.1').isGlobalUnicast()", true],
    ["ip('255.255.255.255').isGlobalUnicast()", false],
    ["ip('2001:db8::abcd').isGlobalUnicast()", true],
    ["ip('ff00::1').isGlobalUnicast()", false],
    ["ip('10.0.0.1') == ip('10.0.0.1')", true],
    ["ip('::1') == ip('0:0::1')", true],
    ["ip('10.0.0.1') == ip('10.0.0.2')", false],
  ])('%s', (expression, expected) => {
    expect(evalCel(expression)).toBe(expected)
  })
})
