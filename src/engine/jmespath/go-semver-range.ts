import { parseSemver, Semver } from '../cel/libraries/semver.js'

/**
 * blang/semver v4's ParseRange, which Kyverno's semver_compare uses: comparators `<`, `<=`, `>`,
 * `>=`, `=`/`==`/none, `!`/`!=` before a strict version; space-separated parts are ANDed, `||`
 * separates ORed groups (AND binds tighter, no parentheses); `1.2.x` and `1.x` wildcards expand to
 * bounds (`>1.2.x` is `>=1.3.0`, `1.x` is `>=1.0.0 <2.0.0`). Its quirks are kept: splitting on
 * spaces drops one-character parts, a space right after an operator is ignored, and a version
 * that does not parse is compared as 0.0.0.
 */

export type SemverRange = (version: Semver) => boolean

export const ZERO_VERSION = new Semver(0n, 0n, 0n, [], [])

/** semver.Parse with blang's error swallowed, as Kyverno does: an invalid version is 0.0.0. */
export function parseVersionLeniently(text: string): Semver {
  try {
    return parseSemver(text)
  } catch {
    return ZERO_VERSION
  }
}

export function parseSemverRange(text: string): SemverRange {
  const groups = expandWildcards(splitOrParts(splitAndTrim(text)))
  const alternatives = groups.map((parts) => {
    const checks = parts.map((part) => {
      const [operator, version] = splitComparatorVersion(part)
      return buildComparison(operator, version, part)
    })
    return (v: Semver): boolean => checks.every((check) => check(v))
  })
  return (v: Semver): boolean => alternatives.some((alternative) => alternative(v))
}

function splitAndTrim(text: string): string[] {
  const result: string[] = []
  let last = 0
  let lastChar = ''
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ' ' && !['>', '<', '='].includes(lastChar)) {
      if (last < i - 1) result.push(text.slice(last, i))
      last = i + 1
    } else if (text[i] !== ' ') {
      lastChar = text[i] as string
    }
  }
  if (last < text.length - 1) result.push(text.slice(last))
  return result.map((part) => part.replaceAll(' ', ''))
}

function splitOrParts(parts: readonly string[]): string[][] {
  const groups: string[][] = []
  let last = 0
  parts.forEach((part, i) => {
    if (part !== '||') return
    if (i === 0) throw new Error("First element in range is '||'")
    groups.push(parts.slice(last, i))
    last = i + 1
  })
  if (last === parts.length) throw new Error("Last element in range is '||'")
  groups.push(parts.slice(last))
  return groups
}

function splitComparatorVersion(part: string): [string, string] {
  const i = part.search(/\p{Nd}/u)
  if (i < 0) throw new Error(`Could not get version from string: ${JSON.stringify(part)}`)
  return [part.slice(0, i).trim(), part.slice(i)]
}

function incrementPart(version: string, index: number): string {
  const parts = version.split('.')
  const current = parts[index] ?? ''
  if (!/^[+-]?[0-9]+$/.test(current)) return ''
  parts[index] = String(Number(current) + 1)
  return parts.join('.')
}

function expandWildcards(groups: readonly string[][]): string[][] {
  return groups.map((parts) => {
    const expanded: string[] = []
    for (const part of parts) {
      const [operator, version] = splitComparatorVersion(part)
      if (!part.includes('.x')) {
        expanded.push(part)
        continue
      }
      const pieces = version.split('.')
      const wildcard = pieces[pieces.length - 1] === 'x' ? pieces.length : 0
      let flat = version.replace('.x.x', '.x').replace('.x', '.0')
      if (flat.split('.').length === 2) flat += '.0'
      let resultOperator = ''
      let increment = false
      switch (operator) {
        case '>':
          resultOperator = '>='
          increment = true
          break
        case '>=':
          resultOperator = '>='
          break
        case '<':
          resultOperator = '<'
          break
        case '<=':
          resultOperator = '<'
          increment = true
          break
        case '':
        case '=':
        case '==':
          expanded.push(`>=${flat}`)
          resultOperator = '<'
          increment = true
          break
        case '!=':
        case '!':
          expanded.push(`<${flat}`)
          resultOperator = '>='
          increment = true
          break
      }
      let resultVersion = flat
      if (increment) resultVersion = wildcard === 3 ? incrementPart(flat, 1) : wildcard === 2 ? incrementPart(flat, 0) : ''
      expanded.push(resultOperator + resultVersion)
    }
    return expanded
  })
}

function buildComparison(operator: string, versionText: string, part: string): SemverRange {
  const compare = Object.hasOwn(COMPARATORS, operator) ? COMPARATORS[operator] : undefined
  if (compare === undefined) {
    throw new Error(`Could not parse Range ${JSON.stringify(part)}: Could not parse comparator ${JSON.stringify(operator)} in ${JSON.stringify(operator + versionText)}`)
  }
  let version: Semver
  try {
    version = parseSemver(versionText)
  } catch (error) {
    throw new Error(
      `Could not parse Range ${JSON.stringify(part)}: Could not parse version ${JSON.stringify(versionText)} in ${JSON.stringify(operator + versionText)}: ${(error as Error).message}`,
      { cause: error },
    )
  }
  return (v) => compare(v.compare(version))
}

const COMPARATORS: Readonly<Record<string, (order: number) => boolean>> = {
  '': (order) => order === 0,
  '=': (order) => order === 0,
  '==': (order) => order === 0,
  '!': (order) => order !== 0,
  '!=': (order) => order !== 0,
  '>': (order) => order > 0,
  '>=': (order) => order >= 0,
  '<': (order) => order < 0,
  '<=': (order) => order <= 0,
}
