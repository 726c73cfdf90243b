import { describe, expect, it } from 'vitest'
import { evalCel, evalError } from './helpers.js'

describe('semver()', () => {
  it('parses strict semantic versions', () => {
    expect(evalCel("semver('1.0.0').major()")).toBe(1n)
    expect(evalCel("semver('0.1.0-alpha.1').minor()")).toBe(1n)
    expect(evalCel("semver('1.2.3+build.5').patch()")).toBe(3n)
    expect(evalCel("isSemver('1.0.0')")).toBe(true)
    expect(evalCel("isSemver('1.0.0-rc.1+sha.abc')")).toBe(true)
    expect(evalCel("isSemver('hello')")).toBe(false)
    expect(evalCel("isSemver('v1.0')")).toBe(false)
    expect(evalCel("isSemver('1.0')")).toBe(false)
    expect(evalCel("isSemver('01.0.0')")).toBe(false)
    expect(evalCel("isSemver('1.0.0-01')")).toBe(false)
    expect(evalCel("isSemver('1.0.0-')")).toBe(false)
    expect(evalCel("isSemver('1.0.0+')")).toBe(false)
  })

  it('explains an invalid version', () => {
    expect(evalError("semver('200K')").message).toBe('No Major.Minor.Patch elements found (at 1:1)')
    expect(evalError("semver('01.1.1')").message).toBe('Major number must not contain leading zeroes "01" (at 1:1)')
  })

  it('normalizes when asked', () => {
    expect(evalCel("isSemver('v1.0', true)")).toBe(true)
    expect(evalCel("semver('v1.0.0', true) == semver('1.0.0')")).toBe(true)
    expect(evalCel("semver('1.0', true) == semver('1.0.0')")).toBe(true)
    expect(evalCel("semver('01.01.01', true) == semver('1.1.1')")).toBe(true)
    expect(evalCel("semver('3', true).major()")).toBe(3n)
    expect(evalCel("isSemver('1.0-alpha', true)")).toBe(false)
  })

  it.each([
    ["semver('1.2.3').compareTo(semver('1.2.3'))", 0n],
    ["semver('1.2.3').compareTo(semver('2.0.0'))", -1n],
    ["semver('1.2.3').compareTo(semver('0.1.2'))", 1n],
    ["semver('1.10.0').isGreaterThan(semver('1.9.0'))", true],
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", true],
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))", true],
    ["semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", true],
    ["semver('1.0.0-beta.2').isLessThan(semver('1.0.0-beta.11'))", true],
    ["semver('1.0.0-rc.1').isLessThan(semver('1.0.0'))", true],
    ["semver('1.0.0+a') == semver('1.0.0+b')", true],
    ["semver('1.0.0').isGreaterThan(semver('1.0.0'))", false],
  ])('%s', (expression, expected) => {
    expect(evalCel(expression)).toBe(expected)
  })
})
