import type { Scalar } from './requirement.js'

/**
 * Values as authors write them after a predicate: lists ("frontend, backend or data", "runc /
 * gvisor"), quoted strings, numbers with units ("2 cores", "4Gi", "15 minutes", "7 days"),
 * booleans ("true", "on", "enabled").
 */

/** Words that join or frame list items; never values themselves. */
const FILLER = new Set(['and', 'or', 'nor', 'either', 'neither', 'both', 'the', 'a', 'an', 'to', 'be', 'of', 'one', 'set', 'values', 'value', 'only', 'just', 'any', 'these', 'following', 'is', 'are', 'must', 'plus', 'also', 'exactly', 'like', 'eg', 'e.g.', 'e.g', 'i.e.', 'ie'])

/** Words after which a list of values stops: a new clause or a qualifier. */
const STOP = /^(if|when|unless|except|for|in|on|at|with|without|so|because|since|but|and\s+(?:must|should|can|may|are|is)|which|that|where|while|otherwise|then|any|other|anything|everything|everywhere|else|are|is|must|should|can't|cannot|isn't|aren't|doesn't|don't|not|gets?|will|would|per|across|every|each|all|there|here|it|its|they|them|this|those|we|you|our|their|by|from|into|as|than|(in)?stead|no)$/i

export interface ValueList {
  values: Scalar[]
  /** Where the list ended in the text it was read from. */
  end: number
}

/** The values listed at the start of `text` (a predicate's complement). */
export function readValueList(text: string): ValueList {
  const values: Scalar[] = []
  const pattern = /`([^`]*)`|"([^"]*)"|'([^']*)'|([^\s,;|]+)/g
  let end = 0
  let sawSeparator = true
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const between = text.slice(end, match.index)
    if (/[.;:!?]\s*$/.test(between) && values.length > 0) break
    const separated = /[,|]|\bor\b|\band\b/.test(between) || values.length === 0
    // "`\"false\"`": a quoted string written as code is the string, without its quotes.
    const quotedValue = match[1] !== undefined ? match[1].replace(/^"([^"]*)"$|^'([^']*)'$/, '$1$2') : (match[2] ?? match[3])
    const word = match[4]
    if (quotedValue !== undefined) {
      if (!separated && !sawSeparator && values.length > 0) break
      values.push(quotedValue)
      end = match.index + match[0].length
      sawSeparator = false
      continue
    }
    const bare = (word ?? '').replace(/^[([]+|[)\].,:!?]+$/g, '')
    if (bare === '' || bare === '/') {
      sawSeparator = bare === '/' || sawSeparator
      end = match.index + match[0].length
      continue
    }
    if (FILLER.has(bare.toLowerCase())) {
      end = match.index + match[0].length
      sawSeparator = true
      continue
    }
    // GET, PUT, ON: a word in capitals is a value even when it spells a stop word.
    const stops = STOP.test(bare) && !(bare.length > 1 && bare === bare.toUpperCase())
    if (stops || (values.length > 0 && !separated && !sawSeparator)) break
    // "the wildcard verb `*`", "the group "system:masters"": words that describe the quoted value after them.
    const described = /^\s+(?:(?!(?:or|and|nor)\s)[a-z][\w-]*\s+){0,2}(?:`([^`]+)`|"([^"]+)")/.exec(text.slice(match.index + match[0].length))
    const quoted = described?.[1] ?? described?.[2]
    if (described && quoted !== undefined) {
      values.push(quoted)
      end = match.index + match[0].length + described[0].length
      pattern.lastIndex = end
      sawSeparator = false
      continue
    }
    values.push(scalarOf(bare))
    end = match.index + match[0].length
    sawSeparator = false
    if (/[.!?;:]$/.test(word ?? '') && !/\.\d/.test(word ?? '')) break
  }
  return { values, end }
}

/** A bare word as a value: numbers and booleans typed, everything else a string. */
export function scalarOf(written: string): Scalar {
  // "`storage-tier: bulk`": a quote around the pair is not part of its value.
  const word = /^[`"']?[^`"']+[`"']$|^[`"'][^`"']+$/.test(written) ? written.replace(/^[`"']|[`"']$/g, '') : written
  if (/^-?\d+(\.\d+)?$/.test(word)) return Number(word)
  if (/^(true|false)$/i.test(word)) return word.toLowerCase() === 'true'
  return word
}

/** Booleans as authors say them. Capitalized Enabled/Disabled stay strings (an enum value such as versioning's status). */
export function booleanWord(word: string): boolean | undefined {
  if (/^(true|on|yes|enabled?|turned on|switched on)$/.test(word)) return true
  if (/^(false|off|no|disabled?|turned off|switched off)$/.test(word)) return false
  return undefined
}

export type UnitKind = 'duration' | 'memory' | 'cpu' | 'percent'

export interface NumberWithUnit {
  value: number
  /** The value in the unit's base (seconds, bytes), when it has a unit. */
  base?: number
  kind?: UnitKind
  /** A Kubernetes quantity when it is one ("4Gi", "2", "500m"). */
  quantity?: string
  index: number
  length: number
}

const DURATION_SECONDS: Array<[RegExp, number]> = [
  [/^(ms|msec|millis|milliseconds?)$/, 0.001],
  [/^(s|sec|secs|seconds?)$/, 1],
  [/^(m|min|mins|minutes?)$/, 60],
  [/^(h|hr|hrs|hours?)$/, 3600],
  [/^(d|days?)$/, 86400],
  [/^(w|weeks?)$/, 604800],
]

const MEMORY: Record<string, string> = { ki: 'Ki', kib: 'Ki', mi: 'Mi', mib: 'Mi', gi: 'Gi', gib: 'Gi', ti: 'Ti', tib: 'Ti', kb: 'k', mb: 'M', gb: 'G', tb: 'T' }

const WORD_NUMBERS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, a: 1, an: 1, twelve: 12, twenty: 20, thirty: 30, sixty: 60, hundred: 100 }

/** Numbers with their units, in order: "2 seconds", "4Gi", "2 cores", "500m", "one day", "90%". */
export function numbersWithUnits(text: string): NumberWithUnit[] {
  const found: NumberWithUnit[] = []
  const pattern = /(?<![\w.:/-])(\d+(?:\.\d+)?(?=\s*[a-z%]|\b)|(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|sixty|a|an)(?=\s+[a-z]|\b))\s*(%|percent\b|millicores?|millicpus?|cores?|vcpus?|cpus?|kib|mib|gib|tib|ki|mi|gi|ti|kb|mb|gb|tb|ms|msec|millis|milliseconds?|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|m|s|h|d|w)?(?![\w.]*[A-Za-z0-9])/gi
  for (const match of text.matchAll(pattern)) {
    const raw = match[1] ?? ''
    const unitRaw = match[2] ?? ''
    const unit = unitRaw.toLowerCase()
    const isWord = !/^\d/.test(raw)
    // "a"/"an" count only before a unit ("a day"); other number words also stand alone.
    if (isWord && (raw.toLowerCase() === 'a' || raw.toLowerCase() === 'an') && unit === '') continue
    if (isWord && unit === '' && !/^(zero|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|sixty)$/i.test(raw)) continue
    const value = isWord ? (WORD_NUMBERS[raw.toLowerCase()] ?? 0) : Number(raw)
    const entry: NumberWithUnit = { value, index: match.index ?? 0, length: match[0].length }
    if (unit === '') {
      entry.quantity = raw
    } else if (unit === '%' || unit === 'percent') {
      entry.kind = 'percent'
    } else if (/^(millicores?|millicpus?)$/.test(unit) || (unitRaw === 'm' && /^(cpu|core)/i.test(text.slice((match.index ?? 0) + match[0].length).trim()))) {
      entry.kind = 'cpu'
      entry.quantity = `${raw}m`
    } else if (/^(cores?|vcpus?|cpus?)$/.test(unit)) {
      entry.kind = 'cpu'
      entry.quantity = raw
    } else if (MEMORY[unit] !== undefined || (unitRaw.length <= 2 && /^(Ki|Mi|Gi|Ti|M|G|T|K)$/.test(unitRaw) && unitRaw !== 'm')) {
      entry.kind = 'memory'
      entry.quantity = `${raw}${MEMORY[unit] ?? unitRaw}`
    } else if (unitRaw === 'm' && !/^(min)/.test(unit)) {
      // A lowercase m after a number is millicores in Kubernetes and minutes elsewhere; the reader decides.
      entry.kind = 'cpu'
      entry.quantity = `${raw}m`
      entry.base = value * 60
    } else {
      for (const [unitPattern, seconds] of DURATION_SECONDS) {
        if (unitPattern.test(unit)) {
          entry.kind = 'duration'
          entry.base = value * seconds
        }
      }
    }
    found.push(entry)
  }
  return found
}

/** The unit a field's name says its numbers are in: timeoutMs, ttl_seconds, retention.ms, timeout_minutes. */
export function fieldDurationUnit(segments: readonly string[]): number | undefined {
  const last = segments.at(-1) ?? ''
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s._-]+/)
  const tail = words.at(-1) ?? ''
  if (/^(ms|millis|milliseconds|msec)$/.test(tail)) return 0.001
  if (/^(seconds|secs|sec|s)$/.test(tail) && words.length > 1) return 1
  if (/^(seconds|secs|sec)$/.test(tail)) return 1
  if (/^(minutes|mins)$/.test(tail)) return 60
  if (/^(hours|hrs)$/.test(tail)) return 3600
  if (/^days$/.test(tail)) return 86400
  if (tail === 'ms' || (words.length === 1 && tail === 'ms')) return 0.001
  return undefined
}
