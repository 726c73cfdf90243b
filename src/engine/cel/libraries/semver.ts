import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { CelCustomValue } from '../custom-value.js'
import { compareStrings } from '../ordering.js'

/**
 * Kubernetes' semver library: `semver(s)`, `semver(s, normalize)`, `isSemver(s)`,
 * `isSemver(s, normalize)`, and major, minor, patch, compareTo, isGreaterThan, isLessThan.
 * Parsing and precedence are those of github.com/blang/semver/v4 (strict Semantic Versioning
 * 2.0.0); `normalize` drops a leading `v`, fills a missing minor/patch with 0 and strips leading
 * zeros, as Kubernetes does.
 */

export const SEMVER_TYPE = 'kubernetes.Semver'

const MAX_UINT64 = 2n ** 64n - 1n

type PreRelease = { readonly numeric: true; readonly value: bigint } | { readonly numeric: false; readonly value: string }

export class Semver extends CelCustomValue {
  readonly celTypeName = SEMVER_TYPE
  readonly major: bigint
  readonly minor: bigint
  readonly patch: bigint
  readonly pre: readonly PreRelease[]
  readonly build: readonly string[]

  constructor(major: bigint, minor: bigint, patch: bigint, pre: readonly PreRelease[], build: readonly string[]) {
    super()
    this.major = major
    this.minor = minor
    this.patch = patch
    this.pre = pre
    this.build = build
  }

  /** Semantic Versioning precedence; build metadata is ignored. */
  compare(other: Semver): number {
    for (const [a, b] of [
      [this.major, other.major],
      [this.minor, other.minor],
      [this.patch, other.patch],
    ] as const) {
      if (a !== b) return a < b ? -1 : 1
    }
    if (this.pre.length === 0 || other.pre.length === 0) {
      return this.pre.length === other.pre.length ? 0 : this.pre.length === 0 ? 1 : -1
    }
    for (let i = 0; i < Math.min(this.pre.length, other.pre.length); i++) {
      const order = comparePreRelease(this.pre[i] as PreRelease, other.pre[i] as PreRelease)
      if (order !== 0) return order
    }
    return this.pre.length === other.pre.length ? 0 : this.pre.length < other.pre.length ? -1 : 1
  }

  celEquals(other: CelCustomValue): boolean {
    return other instanceof Semver && this.compare(other) === 0
  }

  override toString(): string {
    const pre = this.pre.length ? `-${this.pre.map((p) => p.value.toString()).join('.')}` : ''
    const build = this.build.length ? `+${this.build.join('.')}` : ''
    return `${this.major}.${this.minor}.${this.patch}${pre}${build}`
  }
}

function comparePreRelease(a: PreRelease, b: PreRelease): number {
  if (a.numeric && b.numeric) return a.value === b.value ? 0 : a.value < b.value ? -1 : 1
  if (a.numeric) return -1
  if (b.numeric) return 1
  return compareStrings(a.value, b.value)
}

const NUMBERS = /^[0-9]*$/
const ALPHANUMERIC = /^[0-9A-Za-z-]*$/

function versionNumber(text: string, what: string): bigint {
  if (!NUMBERS.test(text)) throw new Error(`Invalid character(s) found in ${what} number ${JSON.stringify(text)}`)
  if (text.length > 1 && text[0] === '0') throw new Error(`${what[0]?.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${JSON.stringify(text)}`)
  if (text === '') throw new Error(`strconv.ParseUint: parsing "": invalid syntax`)
  const value = BigInt(text)
  if (value > MAX_UINT64) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`)
  return value
}

/** blang/semver's Parse. Throws an Error with its message. */
export function parseSemver(text: string): Semver {
  if (text === '') throw new Error('Version string empty')
  const parts = splitN(text, '.', 3)
  if (parts.length !== 3) throw new Error('No Major.Minor.Patch elements found')
  const major = versionNumber(parts[0] as string, 'major')
  const minor = versionNumber(parts[1] as string, 'minor')
  let patchText = parts[2] as string
  let build: string[] = []
  let preTexts: string[] = []
  const plus = patchText.indexOf('+')
  if (plus >= 0) {
    build = patchText.slice(plus + 1).split('.')
    patchText = patchText.slice(0, plus)
  }
  const dash = patchText.indexOf('-')
  if (dash >= 0) {
    preTexts = patchText.slice(dash + 1).split('.')
    patchText = patchText.slice(0, dash)
  }
  const patch = versionNumber(patchText, 'patch')
  const pre = preTexts.map((p): PreRelease => {
    if (p === '') throw new Error('Prerelease is empty')
    if (NUMBERS.test(p)) {
      if (p.length > 1 && p[0] === '0') throw new Error(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(p)}`)
      return { numeric: true, value: BigInt(p) }
    }
    if (!ALPHANUMERIC.test(p)) throw new Error(`Invalid character(s) found in prerelease ${JSON.stringify(p)}`)
    return { numeric: false, value: p }
  })
  for (const b of build) {
    if (b === '') throw new Error('Build meta data is empty')
    if (!ALPHANUMERIC.test(b)) throw new Error(`Invalid character(s) found in build meta data ${JSON.stringify(b)}`)
  }
  return new Semver(major, minor, patch, pre, build)
}

/** Kubernetes' normalizeAndParse: tolerant of `v1`, `1.2`, `01.02.03`. */
export function parseSemverNormalized(text: string): Semver {
  const parts = splitN(text.startsWith('v') ? text.slice(1) : text, '.', 3).map((part) => {
    if (part.length <= 1) return part
    const trimmed = part.replace(/^0+/, '')
    return trimmed === '' || !/^[0-9]/.test(trimmed) ? `0${trimmed}` : trimmed
  })
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] as string)) throw new Error('short version cannot contain PreRelease/Build meta data')
    while (parts.length < 3) parts.push('0')
  }
  return parseSemver(parts.join('.'))
}

/** Go's strings.SplitN. */
function splitN(text: string, separator: string, n: number): string[] {
  const all = text.split(separator)
  return all.length <= n ? all : [...all.slice(0, n - 1), all.slice(n - 1).join(separator)]
}

function toSemver(text: string, normalize: boolean): Semver {
  try {
    return normalize ? parseSemverNormalized(text) : parseSemver(text)
  } catch (error) {
    throw new EvaluationError((error as Error).message, undefined, error)
  }
}

function isSemver(text: string, normalize: boolean): boolean {
  try {
    toSemver(text, normalize)
    return true
  } catch {
    return false
  }
}

/** blang keeps uint64 parts; Kubernetes returns them as int64, wrapping like Go's conversion. */
function asInt(value: bigint): bigint {
  return BigInt.asIntN(64, value)
}

export function registerSemverLibrary(env: Environment): void {
  const sync = { async: false }
  const S = SEMVER_TYPE
  env.registerType(S, { ctor: Semver, fields: {} })
  env.registerOperator(`${S} == ${S}`, (a: Semver, b: Semver) => a.compare(b) === 0)
  env.registerFunction(`semver(string): ${S}`, (text: string) => toSemver(text, false), sync)
  env.registerFunction(`semver(string, bool): ${S}`, toSemver, sync)
  env.registerFunction('isSemver(string): bool', (text: string) => isSemver(text, false), sync)
  env.registerFunction('isSemver(string, bool): bool', isSemver, sync)
  env.registerFunction(`${S}.major(): int`, (v: Semver) => asInt(v.major), sync)
  env.registerFunction(`${S}.minor(): int`, (v: Semver) => asInt(v.minor), sync)
  env.registerFunction(`${S}.patch(): int`, (v: Semver) => asInt(v.patch), sync)
  env.registerFunction(`${S}.compareTo(${S}): int`, (a: Semver, b: Semver) => BigInt(a.compare(b)), sync)
  env.registerFunction(`${S}.isGreaterThan(${S}): bool`, (a: Semver, b: Semver) => a.compare(b) > 0, sync)
  env.registerFunction(`${S}.isLessThan(${S}): bool`, (a: Semver, b: Semver) => a.compare(b) < 0, sync)
}
