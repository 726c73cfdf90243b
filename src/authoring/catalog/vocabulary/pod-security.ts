import type { Severity } from '../../../engine/index.js'
import {
  BASELINE_CAPABILITIES,
  HOST_NAMESPACE_FIELDS,
  HOST_NAMESPACES,
  LATEST_POD_SECURITY_VERSION,
  RESTRICTED_VOLUME_TYPES,
  appArmorCheck,
  capabilitiesCheck,
  capabilitiesRestrictedCheck,
  hostNamespacesCheck,
  hostPathCheck,
  hostPortsCheck,
  hostProcessCheck,
  joinWords,
  portStrings,
  privilegeEscalationCheck,
  privilegedCheck,
  procMountCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  safeSysctls,
  seccompBaselineCheck,
  seccompRestrictedCheck,
  seLinuxCheck,
  seLinuxTypes,
  sysctlsCheck,
  volumeTypesCheck,
  type HostNamespace,
  type PodSecurityCheck,
  type PortRange,
} from '../../../engine/pod-security/index.js'
import { firstContainerOf, mapIn } from '../../samples/document-parts.js'
import { mentions, type Clause } from '../../text/clause.js'
import { portRanges } from '../../text/extract.js'
import type { JsonValue, Words } from '../named-requirement.js'
import { ALL_CONTAINERS, APP_AND_INIT_CONTAINERS, podRule } from '../pod-rule.js'
import type { Parameters } from '../rule-template.js'
import type { Options, Values, Vocabulary } from '../vocabulary.js'
import { optionText as text, stringsOf } from '../vocabulary.js'
import { podMetadataOf } from './places.js'

const SELINUX_TYPES = seLinuxTypes(LATEST_POD_SECURITY_VERSION)


// ---------------------------------------------------------------------------------------------
// Options and parameters as the pieces read them


function optionalText(options: Options, name: string): string | undefined {
  return options[name] === undefined ? undefined : text(options, name)
}

function listIn(options: Options, name: string): readonly JsonValue[] {
  const value = options[name]
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new Error(`a catalog entry's piece needs "${name}" to be a list`)
  return value as readonly JsonValue[]
}


/** A parameter's strings, else these. */
function listedOr(value: unknown, otherwise: readonly string[]): string[] {
  const given = stringsOf(value)
  return given.length > 0 ? given : [...otherwise]
}

/** Port ranges from parameter strings ("80", "30000-32767"). */
function portRangesOf(value: unknown): Array<[number, number]> {
  if (!Array.isArray(value)) return []
  return (value as unknown[]).flatMap((entry) => portRanges(String(entry)))
}

function hostNamespacesOf(parameters: Parameters): HostNamespace[] {
  const given = parameters.namespaces
  const chosen = Array.isArray(given) ? HOST_NAMESPACES.filter((namespace) => (given as unknown[]).includes(namespace)) : []
  return chosen.length > 0 ? chosen : [...HOST_NAMESPACES]
}

// ---------------------------------------------------------------------------------------------
// The controls: the check each makes of its parameters, and the texts its rule's words take

/**
 * A control as entries name it (`check`). The CEL checks come from engine/pod-security, which the
 * Kyverno importer shares; the catalog takes them as run (see reading.ts there), at the latest
 * version of the standard.
 */
interface Control {
  check(parameters: Parameters): PodSecurityCheck
  /** Texts of the parameters the entry's rule names (`pod-security-texts`; '' when the parameters give nothing). */
  texts?(parameters: Parameters): Record<string, string>
}

const CONTROLS: Readonly<Record<string, Control>> = {
  privileged: { check: () => privilegedCheck },
  'host-namespaces': {
    check: (parameters) => hostNamespacesCheck(hostNamespacesOf(parameters)),
    texts: (parameters) => {
      const namespaces = hostNamespacesOf(parameters)
      const fields = namespaces.map((namespace) => `spec.${HOST_NAMESPACE_FIELDS[namespace]}`)
      return { some: namespaces.length < HOST_NAMESPACES.length ? namespaces.join('-') : '', fields: joinWords(fields, 'and'), them: fields.length === 1 ? 'it' : 'them' }
    },
  },
  'host-path': { check: () => hostPathCheck() },
  'host-ports': {
    check: (parameters) => hostPortsCheck({ allowed: portRangesOf(parameters.allowed), forbidden: portRangesOf(parameters.forbidden) }),
    texts: (parameters) => ({ 'allowed-text': portStrings(portRangesOf(parameters.allowed)).join(', '), 'forbidden-text': portStrings(portRangesOf(parameters.forbidden)).join(', ') }),
  },
  capabilities: {
    check: (parameters) => capabilitiesCheck({ allowed: stringsOf(parameters.allowed), forbidden: stringsOf(parameters.forbidden) }),
    texts: (parameters) => ({ 'allowed-text': stringsOf(parameters.allowed).join(', '), 'forbidden-text': stringsOf(parameters.forbidden).join(', ') }),
  },
  apparmor: { check: () => appArmorCheck() },
  selinux: {
    check: (parameters) => seLinuxCheck(listedOr(parameters.types, SELINUX_TYPES)),
    texts: (parameters) => ({ 'types-text': joinWords(listedOr(parameters.types, SELINUX_TYPES), 'or') }),
  },
  'proc-mount': { check: () => procMountCheck() },
  'seccomp-baseline': { check: () => seccompBaselineCheck() },
  sysctls: { check: () => sysctlsCheck(), texts: () => ({ safe: safeSysctls(LATEST_POD_SECURITY_VERSION).join(', ') }) },
  'host-process': { check: () => hostProcessCheck },
  'volume-types': {
    check: (parameters) => volumeTypesCheck(listedOr(parameters.allowed, RESTRICTED_VOLUME_TYPES)),
    texts: (parameters) => ({ 'allowed-text': listedOr(parameters.allowed, RESTRICTED_VOLUME_TYPES).join(', ') }),
  },
  'privilege-escalation': { check: () => privilegeEscalationCheck() },
  'run-as-non-root': { check: () => runAsNonRootCheck() },
  'run-as-user': { check: () => runAsUserCheck() },
  'seccomp-restricted': { check: () => seccompRestrictedCheck() },
  'capabilities-restricted': { check: () => capabilitiesRestrictedCheck() },
}

function control(name: string): Control {
  const found = CONTROLS[name]
  if (!found) throw new Error(`no Pod Security check "${name}"`)
  return found
}

const CONTAINER_SETS = { all: ALL_CONTAINERS, 'app-and-init': APP_AND_INIT_CONTAINERS }

function containerSet(options: Options): { containers: (typeof CONTAINER_SETS)[keyof typeof CONTAINER_SETS] } | Record<string, never> {
  const name = optionalText(options, 'containers')
  if (name === undefined) return {}
  if (!(name in CONTAINER_SETS)) throw new Error(`no container set "${name}"`)
  return { containers: CONTAINER_SETS[name as keyof typeof CONTAINER_SETS] }
}

// ---------------------------------------------------------------------------------------------
// Reading clauses

/**
 * Port ranges a clause gives, comparisons included: "below 1024" is 1-1023, "30000 and above"
 * is 30000-65535; other numbers are single ports or ranges ("80", "30000-32767").
 */
function portRangesIn(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = []
  const comparisons: Array<[RegExp, (port: number) => [number, number]]> = [
    [/\b(?:below|under|(?:less|lower) than)\s+(\d{1,5})\b|<\s*(\d{1,5})\b/gi, (port) => [1, port - 1]],
    [/\b(?:above|over|(?:greater|higher|more) than)\s+(\d{1,5})\b|>\s*(\d{1,5})\b/gi, (port) => [port + 1, 65535]],
    [/\b(\d{1,5})\s+(?:and|or)\s+(?:above|higher|more|up)\b/gi, (port) => [port, 65535]],
    [/\b(\d{1,5})\s+(?:and|or)\s+(?:below|lower|less|under)\b/gi, (port) => [1, port]],
  ]
  let rest = text
  for (const [pattern, range] of comparisons) {
    rest = rest.replace(pattern, (...match: unknown[]) => {
      const port = match.slice(1).find((group) => typeof group === 'string')
      const [from, to] = range(Number(port))
      if (from >= 1 && to <= 65535 && from <= to) found.push([from, to])
      return ' '
    })
  }
  return [...found, ...portRanges(rest)]
}

const LINUX_CAPABILITIES = [
  ...BASELINE_CAPABILITIES,
  'AUDIT_CONTROL', 'AUDIT_READ', 'BLOCK_SUSPEND', 'BPF', 'CHECKPOINT_RESTORE', 'DAC_READ_SEARCH', 'IPC_LOCK', 'IPC_OWNER', 'LEASE', 'LINUX_IMMUTABLE',
  'MAC_ADMIN', 'MAC_OVERRIDE', 'NET_ADMIN', 'NET_BROADCAST', 'NET_RAW', 'PERFMON', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_MODULE', 'SYS_NICE', 'SYS_PACCT',
  'SYS_PTRACE', 'SYS_RAWIO', 'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'SYSLOG', 'WAKE_ALARM',
]

/**
 * Capability names the clause gives, upper-case and without CAP_. Names with an underscore are
 * read in any case; one-word ones (KILL, LEASE, SYSLOG...) only in capitals, as they are also
 * English words.
 */
function capabilityNames(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/\b(?:cap_)?([a-z]+(?:_[a-z]+)*)\b/gi)) {
    const word = match[1] ?? ''
    const name = word.toUpperCase()
    if (!LINUX_CAPABILITIES.includes(name)) continue
    if (!name.includes('_') && word !== name) continue
    found.push(name)
  }
  return [...new Set(found)]
}

/** Options' words as `mentions` takes them, compiled once per entry (the options object is the entry's own). */
const compiledWords = new WeakMap<readonly Words[], Array<string | RegExp>>()

function wordsOf(words: readonly Words[]): Array<string | RegExp> {
  let compiled = compiledWords.get(words)
  if (!compiled) {
    compiled = words.map((each) => {
      if (typeof each === 'string') return each
      if ('re' in each) return new RegExp(each.re, each.flags)
      throw new Error(`named words ("${each.words}") are not read inside a piece's options`)
    })
    compiledWords.set(words, compiled)
  }
  return compiled
}

const compiledPatterns = new Map<string, RegExp>()

function globalPattern(source: string): RegExp {
  let pattern = compiledPatterns.get(source)
  if (!pattern) {
    pattern = new RegExp(source, 'g')
    compiledPatterns.set(source, pattern)
  }
  return pattern
}

// ---------------------------------------------------------------------------------------------
// Values bad samples take

function candidateKey(candidate: JsonValue): JsonValue {
  return candidate !== null && typeof candidate === 'object' && !Array.isArray(candidate) ? ((candidate as Options).value ?? null) : candidate
}

/**
 * The values a rule rejects, for its bad samples: those a `forbidden` parameter lists, as given;
 * else the candidates a `listed` parameter names; else the candidates outside the `allowed`
 * parameter (or `allowedByDefault`). With `ports`, parameters are port ranges: a forbidden range
 * gives its first port, an allowed one every port in it. At most `limit`; `fallback` when none;
 * with `atLeast`, the last repeated up to that many (one bad sample per position).
 */
function rejectedValues(parameters: Values, options: Options): { rejected: JsonValue[] } {
  const candidates = listIn(options, 'candidates')
  const ports = options.ports === true
  const parameter = (name: string): JsonValue | undefined => {
    const key = optionalText(options, name)
    return key === undefined ? undefined : parameters[key]
  }
  let values: JsonValue[]
  const forbidden = ports ? portRangesOf(parameter('forbidden')).map(([from]) => from) : stringsOf(parameter('forbidden'))
  const listed = stringsOf(parameter('listed'))
  const named = candidates.filter((candidate) => listed.includes(String(candidateKey(candidate))))
  if (forbidden.length > 0) values = forbidden
  else if (named.length > 0) values = [...named]
  else if (ports) {
    const allowed: PortRange[] = portRangesOf(parameter('allowed'))
    values = candidates.filter((port) => !allowed.some(([from, to]) => Number(port) >= from && Number(port) <= to))
  } else {
    const allowed = listedOr(parameter('allowed'), listIn(options, 'allowedByDefault').map(String))
    values = candidates.filter((candidate) => !allowed.includes(String(candidateKey(candidate))))
  }
  if (typeof options.limit === 'number') values = values.slice(0, options.limit)
  if (values.length === 0 && options.fallback !== undefined) values = [options.fallback]
  const last = values[values.length - 1]
  if (typeof options.atLeast === 'number' && last !== undefined) while (values.length < options.atLeast) values.push(last)
  return { rejected: values }
}

// ---------------------------------------------------------------------------------------------

export const POD_SECURITY_VOCABULARY: Vocabulary = {
  words: {
    /** Words that say a listed value is the exception a rule allows rather than the thing it forbids. */
    'exception-words': /\b(except|excluding|other than|besides|apart from|unless|only|allow ?list(ed)?|white ?list(ed)?)\b/,
    /** "Read-only root filesystem", "root group": other controls that say "root". */
    'other-root-topics': /\broot[\s-]*(file[\s-]*systems?|fs)\b|\brootfs\b|\bread[\s-]*only\b|\breadonlyrootfilesystem\b|\broot groups?\b|\bgid\b|\bgroup id\b|\brunasgroup\b|\bfsgroup\b|\bsupplemental groups?\b/,
    'capability-words': /\bcapabilit(y|ies)\b|\bcaps\b/,
    drop: /\bdrop(s|ped|ping)?\b/,
    seccomp: /\bsec[\s-]*comp\b|\bseccompprofile\b/,
    'profile-framing': /\bpod[\s-]*security\b|\bpss\b|\bpsa\b|\bprofiles?\b|\bstandards?\b|\blevel\b|\bpolic(y|ies)\b/,
  },
  tests: {
    'names-capabilities': (clause) => capabilityNames(clause.text).length > 0,
  },
  readers: {
    /** Host port ranges ("80", "30000-32767", "below 1024"), as strings. */
    'port-ranges': (clause) => {
      const ranges = portStrings(portRangesIn(clause.text))
      return ranges.length > 0 ? ranges : undefined
    },
    'capability-names': (clause) => {
      const names = capabilityNames(clause.text)
      return names.length > 0 ? names : undefined
    },
    /** Every distinct match of `re` (its first group, if any) in the clause as written, lower-cased. */
    matches: (clause: Clause, options) => {
      const found = [...new Set([...clause.text.toLowerCase().matchAll(globalPattern(text(options, 're')))].map((match) => match[1] ?? match[0]))]
      return found.length > 0 ? found : undefined
    },
    /**
     * The `values` (value -> words) the clause names, in the table's order. With `all` (words for
     * every value), every value when the clause says those words or names none; with `within`,
     * only when every value named is one of those.
     */
    'named-values': (clause, options) => {
      const table = options.values
      if (table === null || typeof table !== 'object' || Array.isArray(table)) throw new Error('the "named-values" reader needs a table of values')
      const entries = Object.entries(table as Readonly<Record<string, readonly Words[]>>)
      const named = entries.filter(([, words]) => mentions(clause, ...wordsOf(words))).map(([value]) => value)
      const every = listIn(options, 'all') as readonly Words[]
      if (options.all !== undefined && (named.length === 0 || mentions(clause, ...wordsOf(every)))) return entries.map(([value]) => value)
      if (named.length === 0) return undefined
      const within = options.within === undefined ? undefined : listIn(options, 'within')
      return within && named.some((value) => !within.includes(value)) ? undefined : named
    },
  },
  rules: {
    /**
     * A rule on Pods: `check` names a control of the standard, whose CEL is made from the
     * parameters, or `expression` and `message` give the CEL; `containers` is the set bound for
     * it, if any.
     */
    'pod-security-check': (parameters, options) => {
      const named = optionalText(options, 'check')
      const base = named === undefined ? undefined : control(named)
      const expression = optionalText(options, 'expression')
      let check: PodSecurityCheck
      if (expression !== undefined) check = { expression, message: text(options, 'message') }
      else if (base) check = base.check(parameters)
      else throw new Error('a Pod Security rule needs a check or an expression')
      return podRule({
        name: text(options, 'name'),
        description: text(options, 'description'),
        severity: text(options, 'severity') as Severity,
        ...containerSet(options),
        ...check,
        remediation: text(options, 'remediation'),
      })
    },
    /** A whole profile in one rule: every control of `checks` (with no parameters), each with its own message; the first that fails is reported. */
    'pod-security-profile': (_parameters, options) => {
      const checks = listIn(options, 'checks').map((name) => control(String(name)).check({}))
      const rule = podRule({
        name: text(options, 'name'),
        description: text(options, 'description'),
        severity: text(options, 'severity') as Severity,
        message: text(options, 'message'),
        remediation: text(options, 'remediation'),
        containers: ALL_CONTAINERS,
        expression: checks[0]?.expression ?? 'true',
      })
      rule.validate = { cel: checks.map((check) => ({ expression: check.expression, message: check.message })) }
      return rule
    },
  },
  values: {
    'rejected-values': rejectedValues,
    /** The texts of a control's parameters (`check`) its rule names: the fields, the listed values. */
    'pod-security-texts': (values, options) => control(text(options, 'check')).texts?.(values as Parameters) ?? {},
  },
  edits: {
    /** The pod's annotation `prefix` + the first container's name (AppArmor's per-container annotations), set to `value`. */
    'first-container-annotation': (_parameters, options) => (document) =>
      void (mapIn(podMetadataOf(document), 'annotations')[`${text(options, 'prefix')}${String(firstContainerOf(document).name)}`] = text(options, 'value')),
  },
}
