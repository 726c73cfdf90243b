import { hostname } from 'node:os'
import { join } from 'node:path'
import { parseLabelSelector } from './k8s/label-selector.js'

/**
 * Every setting of `verdict serve`, read once at start. Each comes from the environment
 * (`VERDICT_API_PORT`) or from the flag of the same name (`--api-port 8080`, `--api-port=8080`);
 * a flag wins over the environment, so a one-off run can override what a deployment exports.
 * An empty environment variable counts as unset, because Helm charts and compose files often
 * render optional values as empty strings.
 */

export type ControllerMode = 'auto' | 'on' | 'off'
/** Where background scans write their reports: see src/scan/background/report-api-choice.ts. */
export type ReportsApiMode = 'auto' | 'openreports' | 'wgpolicyk8s' | 'both' | 'off'
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export interface Config {
  readonly apiPort: number
  readonly webhookPort: number
  readonly opsPort: number
  /** A directory, or `memory://` for a throwaway store. */
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly adminTokenFile: string
  readonly bootstrapToken: string | undefined
  readonly tlsCertFile: string | undefined
  readonly tlsKeyFile: string | undefined
  readonly apiTlsCertFile: string | undefined
  readonly apiTlsKeyFile: string | undefined
  /** Requests per second per token (token bucket refill rate). */
  readonly rateLimit: number
  /** Token bucket capacity: requests a token may send at once. */
  readonly rateBurst: number
  /** Cost units one CEL evaluation may spend before it ends as an error. */
  readonly celMaxCost: number
  /** Milliseconds one CEL evaluation may run before it ends as an error. */
  readonly celMaxMillis: number
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number
  /** Days audit records are kept; 0 keeps them forever. */
  readonly auditRetentionDays: number
  /** Most bytes of audits spooled to local disk while the store is unreachable. */
  readonly auditSpoolMaxBytes: number
  readonly controller: ControllerMode
  /** The namespace Verdict runs in: its Lease lives there and the webhook leaves it alone. */
  readonly podNamespace: string
  /** This replica's identity in leader election. */
  readonly podName: string
  /** The ValidatingWebhookConfiguration whose rules the leader keeps in step with the admission policies. */
  readonly webhookConfiguration: string
  /** Label selector of the ConfigMaps cached for Kyverno `configMap` context entries (every namespace). */
  readonly contextConfigMapSelector: string
  /** Largest ConfigMap cached for context entries, in bytes of JSON; larger ones are left out. */
  readonly contextConfigMapMaxBytes: number
  /** Most bytes of ConfigMaps cached for context entries together; 0: none is watched. */
  readonly contextConfigMapCacheBytes: number
  /** Seconds between background scans of what already runs (leader only); 0: no scans at all. */
  readonly scanIntervalSeconds: number
  /** Objects per LIST page a background scan reads (and holds) at a time. */
  readonly scanPageSize: number
  /** Namespaces background scans leave out, besides VERDICT_POD_NAMESPACE, as the webhook does. */
  readonly scanExcludedNamespaces: readonly string[]
  /** Results a report keeps; its summary counts everything. */
  readonly reportMaxResults: number
  /** The API group(s) background scans write reports to. */
  readonly reportsApi: ReportsApiMode
  /** Whether denials and background-scan violations are recorded as Kubernetes Events (when the controller runs). */
  readonly events: boolean
  /** Whether the controller keeps policies with generateValidatingAdmissionPolicy as ValidatingAdmissionPolicies (and the webhook leaves them to the API server). */
  readonly generatedVaps: boolean
  /** Whether the REST API refuses a PolicyException without expiresAt. */
  readonly exceptionRequireExpiry: boolean
  /** Days an exception may let nothing through (nor be created or changed) before `unused-exception` names it. */
  readonly unusedExceptionDays: number
  readonly llmUrl: string | undefined
  readonly llmModel: string | undefined
  readonly llmApiKey: string | undefined
  readonly logLevel: LogLevel
  /** Log lines as JSON or human-readable; undefined: human-readable when standard output is a terminal. */
  readonly logFormat: LogFormat | undefined
}

/** A bad setting; the message names every bad setting and its value (secrets excepted). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '))
    this.name = 'ConfigError'
  }
}

/** One row of the settings table, as docs/configuration.md and `verdict serve --help` print it. */
export interface SettingDescription {
  readonly name: string
  /** The Config field it sets, and the chart's `config.<key>` value. */
  readonly key: keyof Config
  readonly flag: string
  /** The default as a user reads it; undefined when the setting is optional and unset by default. */
  readonly default: string | undefined
  readonly description: string
  /** Never echoed in error messages and to be redacted in logs. */
  readonly secret: boolean
}

export const DEFAULT_DATA_DIR = './.verdict'
const MEMORY_DATA_DIR = 'memory://'
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
export type LogFormat = 'json' | 'pretty'
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty']
const CONTROLLER_MODES: readonly ControllerMode[] = ['auto', 'on', 'off']
const REPORTS_API_MODES: readonly ReportsApiMode[] = ['auto', 'openreports', 'wgpolicyk8s', 'both', 'off']
const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 }
const MAX_BODY_LIMIT = 1024 ** 3

/** Thrown by a value parser with what the value must be; the loader adds the setting's name and the value. */
class Invalid extends Error {}

interface SettingDefinition<K extends keyof Config> extends SettingDescription {
  readonly key: K
  readonly parse: (raw: string) => Config[K]
  readonly fallback: Config[K]
}

function setting<K extends keyof Config>(definition: Omit<SettingDefinition<K>, 'flag' | 'secret'> & { secret?: boolean }): SettingDefinition<K> {
  const flag = `--${definition.name.replace(/^VERDICT_/, '').toLowerCase().replaceAll('_', '-')}`
  return { ...definition, flag, secret: definition.secret ?? false }
}

function port(raw: string): number {
  const value = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN
  if (!(value >= 0 && value <= 65535)) throw new Invalid('must be an integer 0-65535')
  return value
}

function integer(min: number, what: string): (raw: string) => number {
  return (raw) => {
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN
    if (!(Number.isSafeInteger(value) && value >= min)) throw new Invalid(`must be ${what}`)
    return value
  }
}

function positiveNumber(raw: string): number {
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN
  if (!(Number.isFinite(value) && value > 0)) throw new Invalid('must be a number greater than 0')
  return value
}

function byteSize(raw: string): number {
  return byteSizeUpTo(raw, MAX_BODY_LIMIT, 'must be a size from 1 byte to 1gb such as 1048576, 512kb or 1mb')
}

function spoolSize(raw: string): number {
  return byteSizeUpTo(raw, 1024 ** 4, 'must be a size from 1 byte to 1024gb such as 512mb or 2gb')
}

function byteSizeUpTo(raw: string, max: number, problem: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw)
  const unit = BYTE_UNITS[(match?.[2] || 'b').toLowerCase()]
  const value = match && unit ? Math.floor(Number(match[1]) * unit) : NaN
  if (!(value >= 1 && value <= max)) throw new Invalid(problem)
  return value
}

/** A size that may be 0 (the feature off). */
function cacheSize(raw: string): number {
  if (/^0+(\.0+)?\s*[a-z]*$/i.test(raw)) return 0
  return byteSizeUpTo(raw, 1024 ** 4, 'must be 0 or a size up to 1024gb such as 32mb')
}

/**
 * A label selector the ConfigMaps must carry: it bounds what every replica watches and keeps, so
 * one that only excludes (`!key`, `key!=value`, which also match every ConfigMap without the
 * label) is refused along with one that does not parse.
 */
function configMapSelector(raw: string): string {
  const parsed = parseLabelSelector(raw)
  if ('problem' in parsed) throw new Invalid(`must be a label selector such as verdict.dev/context=true (${parsed.problem})`)
  if (!parsed.positive) throw new Invalid('must require a label the ConfigMaps carry (key, key=value or key in (a,b)), not only labels they lack')
  return raw.trim()
}

function oneOf<T extends string>(values: readonly T[]): (raw: string) => T {
  return (raw) => {
    const value = raw.toLowerCase() as T
    if (!values.includes(value)) throw new Invalid(`must be one of ${values.join(', ')}`)
    return value
  }
}

function url(protocols: readonly string[]): (raw: string) => string {
  return (raw) => {
    let parsed: URL | undefined
    try {
      parsed = new URL(raw)
    } catch {
      parsed = undefined
    }
    if (!parsed || !protocols.includes(parsed.protocol)) {
      throw new Invalid(`must be a URL starting with ${protocols.map((protocol) => `${protocol}//`).join(' or ')}`)
    }
    return raw
  }
}

/** `90s`, `30m`, `1h`, `1h30m`, or a number of seconds; `0` is off. */
function interval(raw: string): number {
  if (/^\d+$/.test(raw)) return integer(0, 'a duration such as 30m or 1h, or 0')(raw)
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(raw)
  if (!match || raw === '') throw new Invalid('must be a duration such as 90s, 30m, 1h or 1h30m, or 0 (off)')
  const [, hours = '0', minutes = '0', seconds = '0'] = match
  const total = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds)
  if (!Number.isSafeInteger(total)) throw new Invalid('is too long')
  return total
}

/** Comma-separated namespace names; empty for none. */
function namespaceList(raw: string): readonly string[] {
  const names = raw.split(',').map((name) => name.trim()).filter((name) => name !== '')
  for (const name of names) if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name)) throw new Invalid(`holds "${name}", which is not a namespace name`)
  return names
}

function text(raw: string): string {
  if (raw.trim() === '') throw new Invalid('must not be empty')
  return raw
}

/** Whatever the operator picks must survive an `Authorization: Bearer` header and not be guessable. */
function bearerSecret(raw: string): string {
  if (!/^[A-Za-z0-9._~+/=-]{16,}$/.test(raw)) throw new Invalid('must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / = -')
  return raw
}

const DEFINITIONS = [
  setting({ name: 'VERDICT_API_PORT', key: 'apiPort', parse: port, fallback: 8080, default: '8080', description: 'REST API port (0: an ephemeral port, logged at start)' }),
  setting({ name: 'VERDICT_WEBHOOK_PORT', key: 'webhookPort', parse: port, fallback: 9443, default: '9443', description: 'admission webhook HTTPS port' }),
  setting({ name: 'VERDICT_OPS_PORT', key: 'opsPort', parse: port, fallback: 9090, default: '9090', description: 'metrics and health port (/metrics, /healthz, /readyz)' }),
  setting({
    name: 'VERDICT_DATA_DIR',
    key: 'dataDir',
    parse: text,
    fallback: DEFAULT_DATA_DIR,
    default: DEFAULT_DATA_DIR,
    description: `embedded database, admin token and generated certificates; ${MEMORY_DATA_DIR} for a throwaway store`,
  }),
  setting({
    name: 'VERDICT_DATABASE_URL',
    key: 'databaseUrl',
    parse: url(['postgres:', 'postgresql:']),
    fallback: undefined,
    default: undefined,
    description: 'PostgreSQL connection URL; unset: the embedded database under the data directory',
    secret: true,
  }),
  setting({
    name: 'VERDICT_ADMIN_TOKEN_FILE',
    key: 'adminTokenFile',
    parse: text,
    fallback: '',
    default: '<VERDICT_DATA_DIR>/admin-token',
    description: 'where the first admin token is written (mode 0600) when the store has no tokens',
  }),
  setting({
    name: 'VERDICT_BOOTSTRAP_TOKEN',
    key: 'bootstrapToken',
    parse: bearerSecret,
    fallback: undefined,
    default: undefined,
    description: 'secret of the first admin token, instead of a generated one (prefer the environment to the flag)',
    secret: true,
  }),
  setting({ name: 'VERDICT_TLS_CERT_FILE', key: 'tlsCertFile', parse: text, fallback: undefined, default: undefined, description: 'webhook certificate (PEM); unset: a self-signed pair under the data directory' }),
  setting({ name: 'VERDICT_TLS_KEY_FILE', key: 'tlsKeyFile', parse: text, fallback: undefined, default: undefined, description: 'webhook private key (PEM), with VERDICT_TLS_CERT_FILE' }),
  setting({ name: 'VERDICT_API_TLS_CERT_FILE', key: 'apiTlsCertFile', parse: text, fallback: undefined, default: undefined, description: 'REST API certificate (PEM); unset: plain HTTP' }),
  setting({ name: 'VERDICT_API_TLS_KEY_FILE', key: 'apiTlsKeyFile', parse: text, fallback: undefined, default: undefined, description: 'REST API private key (PEM), with VERDICT_API_TLS_CERT_FILE' }),
  setting({ name: 'VERDICT_RATE_LIMIT', key: 'rateLimit', parse: positiveNumber, fallback: 50, default: '50', description: 'sustained requests per second per API token' }),
  setting({ name: 'VERDICT_RATE_BURST', key: 'rateBurst', parse: integer(1, 'an integer >= 1'), fallback: 100, default: '100', description: 'requests an API token may send at once before the rate applies' }),
  setting({
    name: 'VERDICT_CEL_MAX_COST',
    key: 'celMaxCost',
    parse: integer(1, 'an integer >= 1'),
    fallback: 100_000,
    default: '100000',
    description: 'cost units one CEL evaluation may spend (a unit per operation, plus one per 16 characters or 4 list elements built or read); past it the rule ends as an error',
  }),
  setting({
    name: 'VERDICT_CEL_MAX_MILLIS',
    key: 'celMaxMillis',
    parse: positiveNumber,
    fallback: 50,
    default: '50',
    description: 'milliseconds one CEL evaluation may run; past it the rule ends as an error (it shares the event loop with the webhook)',
  }),
  setting({ name: 'VERDICT_BODY_LIMIT', key: 'bodyLimit', parse: byteSize, fallback: 1024 ** 2, default: '1mb', description: 'largest request body (bytes, or with a unit: 512kb, 1mb)' }),
  setting({
    name: 'VERDICT_AUDIT_RETENTION_DAYS',
    key: 'auditRetentionDays',
    parse: integer(0, 'an integer >= 0'),
    fallback: 30,
    default: '30',
    description: 'days audit records are kept (0: forever)',
  }),
  setting({
    name: 'VERDICT_AUDIT_SPOOL_MAX_BYTES',
    key: 'auditSpoolMaxBytes',
    parse: spoolSize,
    fallback: 1024 ** 3,
    default: '1gb',
    description: 'room for audits spooled under VERDICT_DATA_DIR/spool while PostgreSQL is unreachable or behind the admission rate; when full, evaluations answer 503',
  }),
  setting({
    name: 'VERDICT_CONTROLLER',
    key: 'controller',
    parse: oneOf(CONTROLLER_MODES),
    fallback: 'auto',
    default: 'auto',
    description: 'CRD controller: auto (on when a cluster is reachable), on (required), off',
  }),
  setting({ name: 'VERDICT_POD_NAMESPACE', key: 'podNamespace', parse: text, fallback: 'verdict', default: 'verdict', description: 'namespace Verdict runs in (the chart sets it from the downward API): its leader Lease lives there' }),
  setting({ name: 'VERDICT_POD_NAME', key: 'podName', parse: text, fallback: hostname(), default: 'the host name', description: "this replica's identity for leader election" }),
  setting({ name: 'VERDICT_WEBHOOK_CONFIGURATION', key: 'webhookConfiguration', parse: text, fallback: 'verdict', default: 'verdict', description: 'ValidatingWebhookConfiguration whose rules the leader keeps in step with the admission policies' }),
  setting({
    name: 'VERDICT_CONTEXT_CONFIGMAP_SELECTOR',
    key: 'contextConfigMapSelector',
    parse: configMapSelector,
    fallback: 'verdict.dev/context=true',
    default: 'verdict.dev/context=true',
    description: 'label selector of the ConfigMaps (every namespace) cached for Kyverno configMap context entries; only these are found',
  }),
  setting({
    name: 'VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES',
    key: 'contextConfigMapMaxBytes',
    parse: byteSize,
    fallback: 256 * 1024,
    default: '256kb',
    description: 'largest ConfigMap cached for context entries (JSON of metadata and data); a larger one is left out and logged',
  }),
  setting({
    name: 'VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES',
    key: 'contextConfigMapCacheBytes',
    parse: cacheSize,
    fallback: 32 * 1024 ** 2,
    default: '32mb',
    description: 'room for all ConfigMaps cached for context entries; one that does not fit waits, logged, until room frees up (0: none is watched)',
  }),
  setting({
    name: 'VERDICT_SCAN_INTERVAL',
    key: 'scanIntervalSeconds',
    parse: interval,
    fallback: 3600,
    default: '1h',
    description: 'how often the leader scans what already runs against the background policies (and at once when a policy changes); 0: never',
  }),
  setting({ name: 'VERDICT_SCAN_PAGE_SIZE', key: 'scanPageSize', parse: integer(1, 'an integer of at least 1'), fallback: 100, default: '100', description: 'objects per LIST page a background scan reads and holds at a time' }),
  setting({
    name: 'VERDICT_SCAN_EXCLUDED_NAMESPACES',
    key: 'scanExcludedNamespaces',
    parse: namespaceList,
    fallback: ['kube-system'],
    default: 'kube-system',
    description: "comma-separated namespaces background scans leave out, besides Verdict's own (the chart passes the webhook's)",
  }),
  setting({ name: 'VERDICT_REPORT_MAX_RESULTS', key: 'reportMaxResults', parse: integer(1, 'an integer of at least 1'), fallback: 1000, default: '1000', description: 'results kept per report (failing objects); the summary stays exact' }),
  setting({
    name: 'VERDICT_REPORTS_API',
    key: 'reportsApi',
    parse: oneOf(REPORTS_API_MODES),
    fallback: 'auto',
    default: 'auto',
    description:
      "where background scans write reports: auto (openreports.io/v1alpha1 Report and ClusterReport when the cluster serves them, else wgpolicyk8s.io/v1alpha2 PolicyReport and ClusterPolicyReport), openreports, wgpolicyk8s, both, or off; Verdict's reports in a group not chosen are deleted",
  }),
  setting({
    name: 'VERDICT_EVENTS',
    key: 'events',
    parse: (raw) => oneOf(['on', 'off'] as const)(raw) === 'on',
    fallback: true,
    default: 'on',
    description: 'on: admission denials and background-scan violations are recorded as Kubernetes Events (PolicyViolation) wherever the controller runs, rate-limited and aggregated; off: none',
  }),
  setting({
    name: 'VERDICT_GENERATED_VAPS',
    key: 'generatedVaps',
    parse: (raw) => oneOf(['on', 'off'] as const)(raw) === 'on',
    fallback: true,
    default: 'on',
    description:
      'on: the controller keeps each policy with generateValidatingAdmissionPolicy: true in the cluster as ValidatingAdmissionPolicies, and the webhook leaves the rules they judge to the API server; off: none is written, those policies are judged by the webhook and say so in their status',
  }),
  setting({
    name: 'VERDICT_EXCEPTION_REQUIRE_EXPIRY',
    key: 'exceptionRequireExpiry',
    parse: (raw) => oneOf(['true', 'false'] as const)(raw) === 'true',
    fallback: false,
    default: 'false',
    description: 'true: the REST API refuses a PolicyException without expiresAt (400 naming body.expiresAt), so every exception ends',
  }),
  setting({
    name: 'VERDICT_UNUSED_EXCEPTION_DAYS',
    key: 'unusedExceptionDays',
    parse: integer(1, 'an integer of at least 1'),
    fallback: 30,
    default: '30',
    description: 'days a PolicyException may let nothing through (nor be created or changed) before the unused-exception recommendation names it',
  }),
  setting({ name: 'VERDICT_LLM_URL', key: 'llmUrl', parse: url(['http:', 'https:']), fallback: undefined, default: undefined, description: 'OpenAI-compatible endpoint for instructions the catalog cannot handle' }),
  setting({ name: 'VERDICT_LLM_MODEL', key: 'llmModel', parse: text, fallback: undefined, default: undefined, description: 'model name sent to VERDICT_LLM_URL' }),
  setting({ name: 'VERDICT_LLM_API_KEY', key: 'llmApiKey', parse: text, fallback: undefined, default: undefined, description: 'API key for VERDICT_LLM_URL (prefer the environment to the flag)', secret: true }),
  setting({ name: 'VERDICT_LOG_LEVEL', key: 'logLevel', parse: oneOf(LOG_LEVELS), fallback: 'info', default: 'info', description: `log level: ${LOG_LEVELS.join(', ')}` }),
  setting({
    name: 'VERDICT_LOG_FORMAT',
    key: 'logFormat',
    parse: oneOf(LOG_FORMATS),
    fallback: undefined,
    default: undefined,
    description: 'json, or pretty (human-readable, pino-pretty); unset: pretty when standard output is a terminal, else json',
  }),
] as const

/** The settings table: the table of docs/configuration.md and `verdict serve --help` are printed from it. */
export const SETTINGS: readonly SettingDescription[] = DEFINITIONS.map(({ name, key, flag, default: shown, description, secret }) => ({
  name,
  key,
  flag,
  default: shown,
  description,
  secret,
}))

/** Certificate and key are used as a pair; one without the other is a mistake worth stopping for. */
const PAIRS: ReadonlyArray<readonly [keyof Config, keyof Config]> = [
  ['tlsCertFile', 'tlsKeyFile'],
  ['apiTlsCertFile', 'apiTlsKeyFile'],
]

interface RawValue {
  raw: string
  source: string
}

export function loadConfig(env: NodeJS.ProcessEnv, argv: string[]): Config {
  const problems: string[] = []
  const flags = readFlags(argv, problems)
  const values: Record<string, unknown> = {}
  const sources: Record<string, string> = {}
  for (const definition of DEFINITIONS) {
    const fromEnv = env[definition.name]
    const given: RawValue | undefined =
      flags.get(definition.flag) ?? (fromEnv === undefined || fromEnv === '' ? undefined : { raw: fromEnv, source: definition.name })
    sources[definition.key] = given?.source ?? definition.name
    if (given === undefined) {
      values[definition.key] = definition.fallback
      continue
    }
    try {
      values[definition.key] = definition.parse(given.raw)
    } catch (error) {
      if (!(error instanceof Invalid)) throw error
      problems.push(`${given.source} ${error.message}${definition.secret ? '' : `, got ${JSON.stringify(given.raw)}`}`)
    }
  }
  for (const [first, second] of PAIRS) {
    if ((values[first] === undefined) !== (values[second] === undefined)) {
      const missing = values[first] === undefined ? first : second
      const present = missing === first ? second : first
      problems.push(`${sources[present]} needs ${nameOf(missing)} as well`)
    }
  }
  if (problems.length > 0) throw new ConfigError(problems)
  if (values.adminTokenFile === '') {
    // A throwaway store still needs somewhere for the token a user must read.
    const dataDir = values.dataDir === MEMORY_DATA_DIR ? DEFAULT_DATA_DIR : (values.dataDir as string)
    values.adminTokenFile = join(dataDir, 'admin-token')
  }
  return values as unknown as Config
}

function nameOf(key: keyof Config): string {
  return DEFINITIONS.find((definition) => definition.key === key)?.name ?? key
}

function readFlags(argv: string[], problems: string[]): Map<string, RawValue> {
  const known = new Set(DEFINITIONS.map((definition) => definition.flag))
  const flags = new Map<string, RawValue>()
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string
    if (!argument.startsWith('--')) {
      problems.push(`unexpected argument ${JSON.stringify(argument)}`)
      continue
    }
    const equals = argument.indexOf('=')
    const flag = equals === -1 ? argument : argument.slice(0, equals)
    if (!known.has(flag)) {
      problems.push(`unknown option ${flag}`)
      continue
    }
    let raw: string | undefined
    if (equals !== -1) {
      raw = argument.slice(equals + 1)
    } else if (argv[index + 1] !== undefined && !(argv[index + 1] as string).startsWith('--')) {
      index += 1
      raw = argv[index]
    }
    if (raw === undefined) {
      problems.push(`${flag} needs a value`)
      continue
    }
    flags.set(flag, { raw, source: flag })
  }
  return flags
}

/** The settings as `verdict serve --help` lists them. */
export function formatSettingsHelp(): string {
  const width = Math.max(...SETTINGS.map((entry) => `${entry.flag} <value>`.length))
  const lines = ['Settings (environment variable, or the flag of the same name; a flag wins over the environment):']
  for (const entry of SETTINGS) {
    const shown = entry.default === undefined ? '' : ` (default ${entry.default})`
    lines.push(`  ${`${entry.flag} <value>`.padEnd(width)}  ${entry.name}: ${entry.description}${shown}`)
  }
  return lines.join('\n')
}

/** The settings as the Markdown table of docs/configuration.md (test/readme.test.ts checks it). */
export function formatSettingsMarkdown(): string {
  const escape = (value: string): string => value.replaceAll('|', '\\|')
  const lines = ['| Variable | Flag | Default | Meaning |', '|---|---|---|---|']
  for (const entry of SETTINGS) {
    const shown = entry.default === undefined ? '' : `\`${escape(entry.default)}\``
    lines.push(`| \`${entry.name}\` | \`${entry.flag}\` | ${shown} | ${escape(entry.description)} |`)
  }
  return lines.join('\n')
}
