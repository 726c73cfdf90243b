import { goQuote } from './go-duration.js'

/**
 * Go's time.Time as Kyverno's time_* functions use it: parsed with time.Parse and a Go layout
 * ("2006-01-02T15:04:05Z07:00", "Mon Jan 02 2006 15:04:05 -0700", ...), printed in RFC 3339,
 * with the UTC offset it was parsed with. A zone abbreviation other than UTC parses at offset 0
 * (GMT+N at N hours), as Go does when the process's local zone is UTC, which is how Kyverno runs.
 */

export interface GoTime {
  /** Seconds since 1970-01-01T00:00:00Z. */
  readonly seconds: bigint
  readonly nanos: number
  /** Seconds east of UTC of the zone the time is shown in. */
  readonly offset: number
}

export const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00'
const SECONDS_PER_DAY = 86_400n

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const monthIndex = (month + 9) % 12
  const dayOfYear = Math.floor((153 * monthIndex + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

export interface CivilTime {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  /** 0 is Sunday. */
  readonly weekday: number
}

/** The wall-clock fields of `time` in its own offset. */
export function civilTime(time: GoTime): CivilTime {
  const local = time.seconds + BigInt(time.offset)
  const days = floorDiv(local, SECONDS_PER_DAY)
  const secondOfDay = Number(local - days * SECONDS_PER_DAY)
  const date = civilFromDays(Number(days))
  return {
    ...date,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    second: secondOfDay % 60,
    weekday: (((Number(days) + 4) % 7) + 7) % 7,
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

/** t.Format(time.RFC3339): whole seconds, `Z` for a zero offset. */
export function formatRfc3339(time: GoTime): string {
  const c = civilTime(time)
  const year = c.year < 0 ? `-${String(-c.year).padStart(4, '0')}` : String(c.year).padStart(4, '0')
  const two = (n: number): string => String(n).padStart(2, '0')
  let zone = 'Z'
  if (time.offset !== 0) {
    const minutes = Math.trunc(Math.abs(time.offset) / 60)
    zone = `${time.offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`
  }
  return `${year}-${two(c.month)}-${two(c.day)}T${two(c.hour)}:${two(c.minute)}:${two(c.second)}${zone}`
}

export function fromDate(date: Date, offset = 0): GoTime {
  const millis = date.getTime()
  const seconds = Math.floor(millis / 1000)
  return { seconds: BigInt(seconds), nanos: (millis - seconds * 1000) * 1_000_000, offset }
}

/** t2.Sub(t1) in nanoseconds, saturated to int64 as Go does. */
export function subtractTimes(later: GoTime, earlier: GoTime): bigint {
  const nanos = (later.seconds - earlier.seconds) * 1_000_000_000n + BigInt(later.nanos - earlier.nanos)
  const max = 2n ** 63n - 1n
  return nanos > max ? max : nanos < -max - 1n ? -max - 1n : nanos
}

export function addDuration(time: GoTime, nanos: bigint): GoTime {
  const total = BigInt(time.nanos) + (nanos % 1_000_000_000n)
  let seconds = time.seconds + nanos / 1_000_000_000n
  let rest = total
  if (rest >= 1_000_000_000n) {
    rest -= 1_000_000_000n
    seconds += 1n
  } else if (rest < 0n) {
    rest += 1_000_000_000n
    seconds -= 1n
  }
  return { seconds, nanos: Number(rest), offset: time.offset }
}

export function compareTimes(a: GoTime, b: GoTime): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1
}

/** Seconds from Go's zero time (year 1) to the Unix epoch. */
const ZERO_TO_UNIX = 62_135_596_800n

/** t.Truncate(d): rounds down to a multiple of d counted from year 1; d <= 0 leaves t as is. */
export function truncateTime(time: GoTime, nanos: bigint): GoTime {
  if (nanos <= 0n) return time
  const absolute = (time.seconds + ZERO_TO_UNIX) * 1_000_000_000n + BigInt(time.nanos)
  let remainder = absolute % nanos
  if (remainder < 0n) remainder += nanos
  return addDuration(time, -remainder)
}

export class GoTimeParseError extends Error {
  override name = 'GoTimeParseError'
}

function parseError(layout: string, value: string, layoutElem: string, valueElem: string, message = ''): GoTimeParseError {
  if (message !== '') return new GoTimeParseError(`parsing time ${goQuote(value)}${message}`)
  return new GoTimeParseError(
    `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`,
  )
}

type Std =
  | 'LongMonth' | 'Month' | 'NumMonth' | 'ZeroMonth'
  | 'LongWeekDay' | 'WeekDay'
  | 'Day' | 'UnderDay' | 'ZeroDay' | 'UnderYearDay' | 'ZeroYearDay'
  | 'Hour' | 'Hour12' | 'ZeroHour12' | 'Minute' | 'ZeroMinute' | 'Second' | 'ZeroSecond'
  | 'LongYear' | 'Year' | 'PM' | 'pm' | 'TZ'
  | 'ISO8601TZ' | 'ISO8601SecondsTZ' | 'ISO8601ShortTZ' | 'ISO8601ColonTZ' | 'ISO8601ColonSecondsTZ'
  | 'NumTZ' | 'NumSecondsTz' | 'NumShortTZ' | 'NumColonTZ' | 'NumColonSecondsTZ'
  | 'FracSecond0' | 'FracSecond9'

interface Chunk {
  readonly prefix: string
  readonly std: Std | undefined
  /** Digits of a fractional-second element. */
  readonly digits: number
  readonly suffix: string
}

const ZERO_X: readonly Std[] = ['ZeroMonth', 'ZeroDay', 'ZeroHour12', 'ZeroMinute', 'ZeroSecond', 'Year']
const ZONE_ELEMENTS: ReadonlyArray<readonly [string, Std]> = [
  ['-070000', 'NumSecondsTz'],
  ['-07:00:00', 'NumColonSecondsTZ'],
  ['-0700', 'NumTZ'],
  ['-07:00', 'NumColonTZ'],
  ['-07', 'NumShortTZ'],
  ['Z070000', 'ISO8601SecondsTZ'],
  ['Z07:00:00', 'ISO8601ColonSecondsTZ'],
  ['Z0700', 'ISO8601TZ'],
  ['Z07:00', 'ISO8601ColonTZ'],
  ['Z07', 'ISO8601ShortTZ'],
]

const isDigitAt = (s: string, i: number): boolean => i < s.length && s[i] !== undefined && (s[i] as string) >= '0' && (s[i] as string) <= '9'
const startsWithLower = (s: string): boolean => s.length > 0 && (s[0] as string) >= 'a' && (s[0] as string) <= 'z'

/** Go's nextStdChunk: the text before the first layout element, the element, and the rest. */
function nextChunk(layout: string): Chunk {
  const at = (i: number, std: Std, length: number, digits = 0): Chunk => ({
    prefix: layout.slice(0, i),
    std,
    digits,
    suffix: layout.slice(i + length),
  })
  for (let i = 0; i < layout.length; i++) {
    const rest = layout.slice(i)
    switch (layout[i]) {
      case 'J':
        if (rest.startsWith('January')) return at(i, 'LongMonth', 7)
        if (rest.startsWith('Jan') && !startsWithLower(rest.slice(3))) return at(i, 'Month', 3)
        break
      case 'M':
        if (rest.startsWith('Monday')) return at(i, 'LongWeekDay', 6)
        if (rest.startsWith('Mon') && !startsWithLower(rest.slice(3))) return at(i, 'WeekDay', 3)
        if (rest.startsWith('MST')) return at(i, 'TZ', 3)
        break
      case '0':
        if (rest.length >= 2 && (rest[1] as string) >= '1' && (rest[1] as string) <= '6') return at(i, ZERO_X[Number(rest[1]) - 1] as Std, 2)
        if (rest.startsWith('002')) return at(i, 'ZeroYearDay', 3)
        break
      case '1':
        return rest[1] === '5' ? at(i, 'Hour', 2) : at(i, 'NumMonth', 1)
      case '2':
        return rest.startsWith('2006') ? at(i, 'LongYear', 4) : at(i, 'Day', 1)
      case '_':
        if (rest[1] === '2') {
          // "_2006" is a literal underscore followed by the year.
          if (rest.startsWith('_2006')) return { prefix: layout.slice(0, i + 1), std: 'LongYear', digits: 0, suffix: layout.slice(i + 5) }
          return at(i, 'UnderDay', 2)
        }
        if (rest.startsWith('__2')) return at(i, 'UnderYearDay', 3)
        break
      case '3':
        return at(i, 'Hour12', 1)
      case '4':
        return at(i, 'Minute', 1)
      case '5':
        return at(i, 'Second', 1)
      case 'P':
        if (rest[1] === 'M') return at(i, 'PM', 2)
        break
      case 'p':
        if (rest[1] === 'm') return at(i, 'pm', 2)
        break
      case '-':
      case 'Z':
        for (const [element, std] of ZONE_ELEMENTS) if (rest.startsWith(element)) return at(i, std, element.length)
        break
      case '.':
      case ',': {
        const digit = rest[1]
        if (digit === '0' || digit === '9') {
          let j = 1
          while (rest[j] === digit) j++
          if (!isDigitAt(rest, j)) return at(i, digit === '0' ? 'FracSecond0' : 'FracSecond9', j, j - 1)
        }
        break
      }
    }
  }
  return { prefix: layout, std: undefined, digits: 0, suffix: '' }
}

const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3))
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3))

class Bad extends Error {}
const BAD = new Bad()

/** Case-insensitive (ASCII) prefix match against a table, as Go's lookup. */
function lookup(table: readonly string[], value: string): [number, string] {
  for (let i = 0; i < table.length; i++) {
    const name = table[i] as string
    if (value.length >= name.length && value.slice(0, name.length).toLowerCase() === name.toLowerCase()) return [i, value.slice(name.length)]
  }
  throw BAD
}

/** One or two digits (exactly two when fixed). */
function getNumber(value: string, fixed: boolean): [number, string] {
  if (!isDigitAt(value, 0)) throw BAD
  if (!isDigitAt(value, 1)) {
    if (fixed) throw BAD
    return [Number(value[0]), value.slice(1)]
  }
  return [Number(value.slice(0, 2)), value.slice(2)]
}

/** One to three digits (exactly three when fixed). */
function getNumber3(value: string, fixed: boolean): [number, string] {
  let n = 0
  let i = 0
  while (i < 3 && isDigitAt(value, i)) {
    n = n * 10 + Number(value[i])
    i++
  }
  if (i === 0 || (fixed && i !== 3)) throw BAD
  return [n, value.slice(i)]
}

function leadingDigits(value: string): [number, string] | undefined {
  let i = 0
  while (isDigitAt(value, i)) i++
  if (i === 0 || i > 18) return undefined
  return [Number(value.slice(0, i)), value.slice(i)]
}

/** Go's time.atoi: optional sign, digits, nothing else. */
function atoi(text: string): number {
  let rest = text
  let negative = false
  if (rest[0] === '-' || rest[0] === '+') {
    negative = rest[0] === '-'
    rest = rest.slice(1)
  }
  const parsed = leadingDigits(rest)
  if (parsed === undefined || parsed[1] !== '') throw BAD
  return negative ? -parsed[0] : parsed[0]
}

/** Go's skip: matches literal layout text, where a space matches any run of spaces. */
function skip(value: string, prefix: string): string {
  let v = value
  let p = prefix
  while (p.length > 0) {
    if (p[0] === ' ') {
      if (v.length > 0 && v[0] !== ' ') throw BAD
      p = p.replace(/^ +/, '')
      v = v.replace(/^ +/, '')
      continue
    }
    if (v.length === 0 || v[0] !== p[0]) throw BAD
    p = p.slice(1)
    v = v.slice(1)
  }
  return v
}

function parseNanoseconds(value: string, length: number): [number, string] {
  if (value[0] !== '.' && value[0] !== ',') throw BAD
  const digits = value.slice(1, Math.min(length, 10))
  const n = atoi(digits)
  if (n < 0) return [0, 'fractional second']
  return [n * 10 ** (10 - Math.min(length, 10)), '']
}

function signedOffsetLength(value: string): number {
  if (value[0] !== '-' && value[0] !== '+') return 0
  const parsed = leadingDigits(value.slice(1))
  if (parsed === undefined || parsed[0] > 23) return 0
  return value.length - parsed[1].length
}

/** Go's parseTimeZone: the length of a zone abbreviation at the start of value, or 0. */
function timeZoneLength(value: string): number {
  if (value.length < 3) return 0
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4
  if (value.startsWith('GMT')) return value.length === 3 ? 3 : 3 + signedOffsetLength(value.slice(3))
  if (value[0] === '+' || value[0] === '-') return signedOffsetLength(value)
  let upper = 0
  while (upper < 6 && upper < value.length && (value[upper] as string) >= 'A' && (value[upper] as string) <= 'Z') upper++
  if (upper === 5 && value[4] === 'T') return 5
  if (upper === 4 && (value[3] === 'T' || value.startsWith('WITA'))) return 4
  if (upper === 3) return 3
  return 0
}

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
}

const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

function daysIn(month: number, year: number): number {
  if (month === 2 && isLeap(year)) return 29
  return (DAYS_BEFORE[month] as number) - (DAYS_BEFORE[month - 1] as number)
}

/** Go's time.Parse(layout, value), with UTC as the default location. */
export function parseGoTime(layout: string, value: string): GoTime {
  let restLayout = layout
  let rest = value
  let rangeError = ''
  let amSet = false
  let pmSet = false
  let year = 0
  let month = -1
  let day = -1
  let yday = -1
  let hour = 0
  let minute = 0
  let second = 0
  let nanos = 0
  let utc = false
  let zoneOffset: number | undefined
  let zoneName = ''
  for (;;) {
    const { prefix, std, digits, suffix } = nextChunk(restLayout)
    const stdText = restLayout.slice(prefix.length, restLayout.length - suffix.length)
    try {
      rest = skip(rest, prefix)
    } catch {
      throw parseError(layout, value, prefix, rest)
    }
    if (std === undefined) {
      if (rest.length !== 0) throw parseError(layout, value, '', rest, `: extra text: ${goQuote(rest)}`)
      break
    }
    restLayout = suffix
    const hold = rest
    try {
      switch (std) {
        case 'Year': {
          if (rest.length < 2) throw BAD
          year = atoi(rest.slice(0, 2))
          year += year >= 69 ? 1900 : 2000
          rest = rest.slice(2)
          break
        }
        case 'LongYear':
          if (rest.length < 4 || !isDigitAt(rest, 0)) throw BAD
          year = atoi(rest.slice(0, 4))
          rest = rest.slice(4)
          break
        case 'Month':
          ;[month, rest] = lookup(SHORT_MONTHS, rest)
          month++
          break
        case 'LongMonth':
          ;[month, rest] = lookup(LONG_MONTHS, rest)
          month++
          break
        case 'NumMonth':
        case 'ZeroMonth':
          ;[month, rest] = getNumber(rest, std === 'ZeroMonth')
          if (month <= 0 || month > 12) rangeError = 'month'
          break
        case 'WeekDay':
          rest = lookup(SHORT_DAYS, rest)[1]
          break
        case 'LongWeekDay':
          rest = lookup(LONG_DAYS, rest)[1]
          break
        case 'Day':
        case 'UnderDay':
        case 'ZeroDay':
          if (std === 'UnderDay' && rest[0] === ' ') rest = rest.slice(1)
          ;[day, rest] = getNumber(rest, std === 'ZeroDay')
          break
        case 'UnderYearDay':
        case 'ZeroYearDay':
          for (let i = 0; i < 2; i++) if (std === 'UnderYearDay' && rest[0] === ' ') rest = rest.slice(1)
          ;[yday, rest] = getNumber3(rest, std === 'ZeroYearDay')
          break
        case 'Hour':
          ;[hour, rest] = getNumber(rest, false)
          if (hour < 0 || hour >= 24) rangeError = 'hour'
          break
        case 'Hour12':
        case 'ZeroHour12':
          ;[hour, rest] = getNumber(rest, std === 'ZeroHour12')
          if (hour < 0 || hour > 12) rangeError = 'hour'
          break
        case 'Minute':
        case 'ZeroMinute':
          ;[minute, rest] = getNumber(rest, std === 'ZeroMinute')
          if (minute < 0 || minute >= 60) rangeError = 'minute'
          break
        case 'Second':
        case 'ZeroSecond': {
          ;[second, rest] = getNumber(rest, std === 'ZeroSecond')
          if (second < 0 || second >= 60) {
            rangeError = 'second'
            break
          }
          // A fractional second in the value that the layout does not ask for is still read.
          if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigitAt(rest, 1)) {
            const next = nextChunk(restLayout).std
            if (next === 'FracSecond0' || next === 'FracSecond9') break
            let n = 2
            while (n < rest.length && isDigitAt(rest, n)) n++
            const [ns, error] = parseNanoseconds(rest, n)
            nanos = ns
            rangeError = error
            rest = rest.slice(n)
          }
          break
        }
        case 'PM':
        case 'pm': {
          if (rest.length < 2) throw BAD
          const marker = rest.slice(0, 2)
          rest = rest.slice(2)
          const [pm, am] = std === 'PM' ? ['PM', 'AM'] : ['pm', 'am']
          if (marker === pm) pmSet = true
          else if (marker === am) amSet = true
          else throw BAD
          break
        }
        case 'ISO8601TZ':
        case 'ISO8601ShortTZ':
        case 'ISO8601ColonTZ':
        case 'ISO8601SecondsTZ':
        case 'ISO8601ColonSecondsTZ':
        case 'NumTZ':
        case 'NumShortTZ':
        case 'NumColonTZ':
        case 'NumSecondsTz':
        case 'NumColonSecondsTZ': {
          // The Z07:00 forms also take a literal Z for UTC; otherwise all read a numeric offset.
          if (std.startsWith('ISO8601') && rest[0] === 'Z') {
            rest = rest.slice(1)
            utc = true
            break
          }
          const parsed = parseOffset(std, rest)
          rest = parsed.rest
          if (parsed.hours > 24) rangeError = 'time zone offset hour'
          if (parsed.minutes > 60) rangeError = 'time zone offset minute'
          if (parsed.seconds > 60) rangeError = 'time zone offset second'
          zoneOffset = parsed.sign * ((parsed.hours * 60 + parsed.minutes) * 60 + parsed.seconds)
          break
        }
        case 'TZ': {
          if (rest.startsWith('UTC')) {
            utc = true
            rest = rest.slice(3)
            break
          }
          const length = timeZoneLength(rest)
          if (length === 0) throw BAD
          zoneName = rest.slice(0, length)
          rest = rest.slice(length)
          break
        }
        case 'FracSecond0': {
          const length = 1 + digits
          if (rest.length < length) throw BAD
          const [ns, error] = parseNanoseconds(rest, length)
          nanos = ns
          rangeError = error
          rest = rest.slice(length)
          break
        }
        case 'FracSecond9': {
          if (rest.length < 2 || (rest[0] !== '.' && rest[0] !== ',') || !isDigitAt(rest, 1)) break
          let i = 0
          while (i + 1 < rest.length && isDigitAt(rest, i + 1)) i++
          const [ns, error] = parseNanoseconds(rest, 1 + i)
          nanos = ns
          rangeError = error
          rest = rest.slice(1 + i)
          break
        }
      }
    } catch (error) {
      if (!(error instanceof Bad)) throw error
      throw parseError(layout, value, stdText, hold)
    }
    if (rangeError !== '') throw parseError(layout, value, stdText, rest, `: ${rangeError} out of range`)
  }
  if (pmSet && hour < 12) hour += 12
  else if (amSet && hour === 12) hour = 0

  if (yday >= 0) {
    let d = 0
    let m = 0
    let yearDay = yday
    if (isLeap(year)) {
      if (yearDay === 31 + 29) {
        m = 2
        d = 29
      } else if (yearDay > 31 + 29) yearDay--
    }
    if (yearDay < 1 || yearDay > 365) throw parseError(layout, value, '', rest, ': day-of-year out of range')
    if (m === 0) {
      m = Math.floor((yearDay - 1) / 31) + 1
      if ((DAYS_BEFORE[m] as number) < yearDay) m++
      d = yearDay - (DAYS_BEFORE[m - 1] as number)
    }
    if (month >= 0 && month !== m) throw parseError(layout, value, '', rest, ': day-of-year does not match month')
    month = m
    if (day >= 0 && day !== d) throw parseError(layout, value, '', rest, ': day-of-year does not match day')
    day = d
  } else {
    if (month < 0) month = 1
    if (day < 0) day = 1
  }
  if (day < 1 || day > daysIn(month, year)) throw parseError(layout, value, '', rest, ': day out of range')

  const local = BigInt(daysFromCivil(year, month, day)) * SECONDS_PER_DAY + BigInt(hour * 3600 + minute * 60 + second)
  if (utc) return { seconds: local, nanos, offset: 0 }
  if (zoneOffset !== undefined) return { seconds: local - BigInt(zoneOffset), nanos, offset: zoneOffset }
  if (zoneName !== '') {
    const offset = zoneName.length > 3 && zoneName.startsWith('GMT') ? atoi(zoneName.slice(3)) * 3600 : 0
    return { seconds: local, nanos, offset }
  }
  return { seconds: local, nanos, offset: 0 }
}

interface ParsedOffset {
  readonly sign: number
  readonly hours: number
  readonly minutes: number
  readonly seconds: number
  readonly rest: string
}

function parseOffset(std: Std, value: string): ParsedOffset {
  let sign: string
  let hours: string
  let minutes = '00'
  let seconds = '00'
  let rest: string
  if (std === 'ISO8601ColonTZ' || std === 'NumColonTZ') {
    if (value.length < 6 || value[3] !== ':') throw BAD
    ;[sign, hours, minutes, rest] = [value.slice(0, 1), value.slice(1, 3), value.slice(4, 6), value.slice(6)]
  } else if (std === 'NumShortTZ' || std === 'ISO8601ShortTZ') {
    if (value.length < 3) throw BAD
    ;[sign, hours, rest] = [value.slice(0, 1), value.slice(1, 3), value.slice(3)]
  } else if (std === 'ISO8601ColonSecondsTZ' || std === 'NumColonSecondsTZ') {
    if (value.length < 9 || value[3] !== ':' || value[6] !== ':') throw BAD
    ;[sign, hours, minutes, seconds, rest] = [value.slice(0, 1), value.slice(1, 3), value.slice(4, 6), value.slice(7, 9), value.slice(9)]
  } else if (std === 'ISO8601SecondsTZ' || std === 'NumSecondsTz') {
    if (value.length < 7) throw BAD
    ;[sign, hours, minutes, seconds, rest] = [value.slice(0, 1), value.slice(1, 3), value.slice(3, 5), value.slice(5, 7), value.slice(7)]
  } else {
    if (value.length < 5) throw BAD
    ;[sign, hours, minutes, rest] = [value.slice(0, 1), value.slice(1, 3), value.slice(3, 5), value.slice(5)]
  }
  const h = getNumber(hours, true)[0]
  const m = getNumber(minutes, true)[0]
  const s = getNumber(seconds, true)[0]
  if (sign !== '+' && sign !== '-') throw BAD
  return { sign: sign === '-' ? -1 : 1, hours: h, minutes: m, seconds: s, rest }
}

/** time.Parse(time.RFC3339, value). */
export function parseRfc3339(value: string): GoTime {
  return parseGoTime(RFC3339_LAYOUT, value)
}
