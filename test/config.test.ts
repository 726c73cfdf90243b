import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { ConfigError, formatSettingsHelp, formatSettingsMarkdown, loadConfig, SETTINGS, type Config } from '../src/config.js'

const DEFAULTS: Config = {
  apiPort: 8080,
  webhookPort: 9443,
  opsPort: 9090,
  dataDir: './.verdict',
  databaseUrl: undefined,
  adminTokenFile: '.verdict/admin-token',
  bootstrapToken: undefined,
  tlsCertFile: undefined,
  tlsKeyFile: undefined,
  apiTlsCertFile: undefined,
  apiTlsKeyFile: undefined,
  rateLimit: 50,
  rateBurst: 100,
  celMaxCost: 100_000,
  celMaxMillis: 50,
  bodyLimit: 1_048_576,
  auditRetentionDays: 30,
  auditSpoolMaxBytes: 1024 ** 3,
  controller: 'auto',
  podNamespace: 'verdict',
  podName: hostname(),
  webhookConfiguration: 'verdict',
  contextConfigMapSelector: 'verdict.dev/context=true',
  contextConfigMapMaxBytes: 256 * 1024,
  contextConfigMapCacheBytes: 32 * 1024 ** 2,
  scanIntervalSeconds: 3600,
  scanPageSize: 100,
  scanExcludedNamespaces: ['kube-system'],
  reportMaxResults: 1000,
  reportsApi: 'auto',
  events: true,
  generatedVaps: true,
  exceptionRequireExpiry: false,
  unusedExceptionDays: 30,
  llmUrl: undefined,
  llmModel: undefined,
  llmApiKey: undefined,
  logLevel: 'info',
  logFormat: undefined,
}

function problem(env: NodeJS.ProcessEnv, argv: string[] = []): string {
  try {
    loadConfig(env, argv)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).message
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('has a default for every required setting', () => {
    expect(loadConfig({}, [])).toEqual(DEFAULTS)
  })

  it('reads every setting from the environment', () => {
    const config = loadConfig(
      {
        VERDICT_API_PORT: '0',
        VERDICT_WEBHOOK_PORT: '8443',
        VERDICT_OPS_PORT: '65535',
        VERDICT_DATA_DIR: '/var/lib/verdict',
        VERDICT_DATABASE_URL: 'postgres://verdict:pw@db:5432/verdict',
        VERDICT_BOOTSTRAP_TOKEN: 'vdt_0123456789abcdef',
        VERDICT_TLS_CERT_FILE: '/tls/tls.crt',
        VERDICT_TLS_KEY_FILE: '/tls/tls.key',
        VERDICT_API_TLS_CERT_FILE: '/api/tls.crt',
        VERDICT_API_TLS_KEY_FILE: '/api/tls.key',
        VERDICT_RATE_LIMIT: '2.5',
        VERDICT_RATE_BURST: '5',
        VERDICT_CEL_MAX_COST: '250000',
        VERDICT_CEL_MAX_MILLIS: '12.5',
        VERDICT_BODY_LIMIT: '512kb',
        VERDICT_AUDIT_RETENTION_DAYS: '0',
        VERDICT_AUDIT_SPOOL_MAX_BYTES: '2gb',
        VERDICT_CONTROLLER: 'OFF',
        VERDICT_POD_NAMESPACE: 'policy',
        VERDICT_POD_NAME: 'verdict-7d9f-abcde',
        VERDICT_WEBHOOK_CONFIGURATION: 'verdict-policy',
        VERDICT_CONTEXT_CONFIGMAP_SELECTOR: 'cache.kyverno.io/enabled',
        VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES: '1mb',
        VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES: '0',
        VERDICT_SCAN_INTERVAL: '1h30m',
        VERDICT_SCAN_PAGE_SIZE: '250',
        VERDICT_SCAN_EXCLUDED_NAMESPACES: 'kube-system, monitoring,',
        VERDICT_REPORT_MAX_RESULTS: '50',
        VERDICT_REPORTS_API: 'WGPolicyK8s',
        VERDICT_EVENTS: 'off',
        VERDICT_GENERATED_VAPS: 'off',
        VERDICT_EXCEPTION_REQUIRE_EXPIRY: 'true',
        VERDICT_UNUSED_EXCEPTION_DAYS: '90',
        VERDICT_LLM_URL: 'https://llm.example.com/v1',
        VERDICT_LLM_MODEL: 'small',
        VERDICT_LLM_API_KEY: 'sk-123',
        VERDICT_LOG_LEVEL: 'debug',
        VERDICT_LOG_FORMAT: 'pretty',
      },
      [],
    )
    expect(config).toEqual({
      apiPort: 0,
      webhookPort: 8443,
      opsPort: 65535,
      dataDir: '/var/lib/verdict',
      databaseUrl: 'postgres://verdict:pw@db:5432/verdict',
      adminTokenFile: '/var/lib/verdict/admin-token',
      bootstrapToken: 'vdt_0123456789abcdef',
      tlsCertFile: '/tls/tls.crt',
      tlsKeyFile: '/tls/tls.key',
      apiTlsCertFile: '/api/tls.crt',
      apiTlsKeyFile: '/api/tls.key',
      rateLimit: 2.5,
      rateBurst: 5,
      celMaxCost: 250_000,
      celMaxMillis: 12.5,
      bodyLimit: 524_288,
      auditRetentionDays: 0,
      auditSpoolMaxBytes: 2 * 1024 ** 3,
      controller: 'off',
      podNamespace: 'policy',
      podName: 'verdict-7d9f-abcde',
      webhookConfiguration: 'verdict-policy',
      contextConfigMapSelector: 'cache.kyverno.io/enabled',
      contextConfigMapMaxBytes: 1_048_576,
      contextConfigMapCacheBytes: 0,
      scanIntervalSeconds: 5400,
      scanPageSize: 250,
      scanExcludedNamespaces: ['kube-system', 'monitoring'],
      reportMaxResults: 50,
      reportsApi: 'wgpolicyk8s',
      events: false,
      generatedVaps: false,
      exceptionRequireExpiry: true,
      unusedExceptionDays: 90,
      llmUrl: 'https://llm.example.com/v1',
      llmModel: 'small',
      llmApiKey: 'sk-123',
      logLevel: 'debug',
      logFormat: 'pretty',
    } satisfies Config)
  })

  it('lets flags override the environment, in both spellings', () => {
    const env = { VERDICT_API_PORT: '9000', VERDICT_LOG_LEVEL: 'warn', VERDICT_CONTROLLER: 'on' }
    const config = loadConfig(env, ['--api-port', '8081', '--log-level=error'])
    expect(config).toMatchObject({ apiPort: 8081, logLevel: 'error', controller: 'on' })
  })

  it('takes the last of a repeated flag and a negative-looking value', () => {
    expect(loadConfig({}, ['--api-port', '1', '--api-port=2']).apiPort).toBe(2)
    expect(problem({}, ['--api-port', '-1'])).toBe('--api-port must be an integer 0-65535, got "-1"')
  })

  it('treats an empty environment variable as unset', () => {
    expect(loadConfig({ VERDICT_API_PORT: '', VERDICT_DATABASE_URL: '' }, [])).toEqual(DEFAULTS)
  })

  it('puts the admin token file under the data directory unless told otherwise', () => {
    expect(loadConfig({ VERDICT_DATA_DIR: '/data' }, []).adminTokenFile).toBe('/data/admin-token')
    expect(loadConfig({ VERDICT_DATA_DIR: 'memory://' }, []).adminTokenFile).toBe('.verdict/admin-token')
    expect(loadConfig({ VERDICT_DATA_DIR: '/data', VERDICT_ADMIN_TOKEN_FILE: '/secrets/token' }, []).adminTokenFile).toBe('/secrets/token')
  })

  it.each([
    ['512', 512],
    ['2048b', 2048],
    ['512kb', 524_288],
    ['1mb', 1_048_576],
    ['1.5MB', 1_572_864],
    ['2 MiB', 2_097_152],
    ['1gb', 1_073_741_824],
  ])('reads the body limit %s as %i bytes', (raw, bytes) => {
    expect(loadConfig({ VERDICT_BODY_LIMIT: raw }, []).bodyLimit).toBe(bytes)
  })

  it.each([
    ['VERDICT_API_PORT', '80a', 'VERDICT_API_PORT must be an integer 0-65535, got "80a"'],
    ['VERDICT_API_PORT', '65536', 'VERDICT_API_PORT must be an integer 0-65535, got "65536"'],
    ['VERDICT_WEBHOOK_PORT', '-1', 'VERDICT_WEBHOOK_PORT must be an integer 0-65535, got "-1"'],
    ['VERDICT_OPS_PORT', '90.5', 'VERDICT_OPS_PORT must be an integer 0-65535, got "90.5"'],
    ['VERDICT_CONTROLLER', 'maybe', 'VERDICT_CONTROLLER must be one of auto, on, off, got "maybe"'],
    ['VERDICT_EVENTS', 'true', 'VERDICT_EVENTS must be one of on, off, got "true"'],
    ['VERDICT_LOG_LEVEL', 'verbose', 'VERDICT_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    ['VERDICT_LOG_FORMAT', 'text', 'VERDICT_LOG_FORMAT must be one of json, pretty, got "text"'],
    ['VERDICT_RATE_LIMIT', '0', 'VERDICT_RATE_LIMIT must be a number greater than 0, got "0"'],
    ['VERDICT_CEL_MAX_COST', '0', 'VERDICT_CEL_MAX_COST must be an integer >= 1, got "0"'],
    ['VERDICT_CEL_MAX_MILLIS', '-5', 'VERDICT_CEL_MAX_MILLIS must be a number greater than 0, got "-5"'],
    ['VERDICT_RATE_LIMIT', 'fast', 'VERDICT_RATE_LIMIT must be a number greater than 0, got "fast"'],
    ['VERDICT_RATE_BURST', '0', 'VERDICT_RATE_BURST must be an integer >= 1, got "0"'],
    ['VERDICT_RATE_BURST', '1.5', 'VERDICT_RATE_BURST must be an integer >= 1, got "1.5"'],
    ['VERDICT_BODY_LIMIT', '1tb', 'VERDICT_BODY_LIMIT must be a size from 1 byte to 1gb such as 1048576, 512kb or 1mb, got "1tb"'],
    ['VERDICT_BODY_LIMIT', '0', 'VERDICT_BODY_LIMIT must be a size from 1 byte to 1gb such as 1048576, 512kb or 1mb, got "0"'],
    ['VERDICT_BODY_LIMIT', '2gb', 'VERDICT_BODY_LIMIT must be a size from 1 byte to 1gb such as 1048576, 512kb or 1mb, got "2gb"'],
    ['VERDICT_AUDIT_RETENTION_DAYS', '-3', 'VERDICT_AUDIT_RETENTION_DAYS must be an integer >= 0, got "-3"'],
    ['VERDICT_AUDIT_RETENTION_DAYS', 'week', 'VERDICT_AUDIT_RETENTION_DAYS must be an integer >= 0, got "week"'],
    ['VERDICT_AUDIT_SPOOL_MAX_BYTES', '0', 'VERDICT_AUDIT_SPOOL_MAX_BYTES must be a size from 1 byte to 1024gb such as 512mb or 2gb, got "0"'],
    ['VERDICT_CONTEXT_CONFIGMAP_SELECTOR', '!verdict.dev/context', 'VERDICT_CONTEXT_CONFIGMAP_SELECTOR must require a label the ConfigMaps carry (key, key=value or key in (a,b)), not only labels they lack, got "!verdict.dev/context"'],
    ['VERDICT_CONTEXT_CONFIGMAP_SELECTOR', 'team!=a', 'VERDICT_CONTEXT_CONFIGMAP_SELECTOR must require a label the ConfigMaps carry (key, key=value or key in (a,b)), not only labels they lack, got "team!=a"'],
    [
      'VERDICT_CONTEXT_CONFIGMAP_SELECTOR',
      'verdict.dev/context=yes please',
      'VERDICT_CONTEXT_CONFIGMAP_SELECTOR must be a label selector such as verdict.dev/context=true ("verdict.dev/context=yes please": "yes please" is not a label value), got "verdict.dev/context=yes please"',
    ],
    [
      'VERDICT_CONTEXT_CONFIGMAP_SELECTOR',
      'tier in (a,b',
      'VERDICT_CONTEXT_CONFIGMAP_SELECTOR must be a label selector such as verdict.dev/context=true (the parentheses do not pair), got "tier in (a,b"',
    ],
    ['VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES', '0', 'VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES must be a size from 1 byte to 1gb such as 1048576, 512kb or 1mb, got "0"'],
    ['VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES', 'lots', 'VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES must be 0 or a size up to 1024gb such as 32mb, got "lots"'],
    ['VERDICT_SCAN_INTERVAL', '1d', 'VERDICT_SCAN_INTERVAL must be a duration such as 90s, 30m, 1h or 1h30m, or 0 (off), got "1d"'],
    ['VERDICT_SCAN_EXCLUDED_NAMESPACES', 'kube-system,Bad_Name', 'VERDICT_SCAN_EXCLUDED_NAMESPACES holds "Bad_Name", which is not a namespace name, got "kube-system,Bad_Name"'],
    ['VERDICT_REPORT_MAX_RESULTS', '0', 'VERDICT_REPORT_MAX_RESULTS must be an integer of at least 1, got "0"'],
    ['VERDICT_REPORTS_API', 'policyreports', 'VERDICT_REPORTS_API must be one of auto, openreports, wgpolicyk8s, both, off, got "policyreports"'],
    ['VERDICT_EXCEPTION_REQUIRE_EXPIRY', 'yes', 'VERDICT_EXCEPTION_REQUIRE_EXPIRY must be one of true, false, got "yes"'],
    ['VERDICT_UNUSED_EXCEPTION_DAYS', '0', 'VERDICT_UNUSED_EXCEPTION_DAYS must be an integer of at least 1, got "0"'],
    ['VERDICT_LLM_URL', 'llm.local', 'VERDICT_LLM_URL must be a URL starting with http:// or https://, got "llm.local"'],
    ['VERDICT_LLM_URL', 'ftp://llm.local', 'VERDICT_LLM_URL must be a URL starting with http:// or https://, got "ftp://llm.local"'],
  ])('refuses %s=%s, naming the setting and the value', (name, value, message) => {
    expect(problem({ [name]: value })).toBe(message)
  })

  it('never echoes the value of a secret setting', () => {
    expect(problem({ VERDICT_DATABASE_URL: 'mysql://root:hunter2@db' })).toBe(
      'VERDICT_DATABASE_URL must be a URL starting with postgres:// or postgresql://',
    )
    expect(problem({ VERDICT_BOOTSTRAP_TOKEN: 'short hunter2' })).toBe(
      'VERDICT_BOOTSTRAP_TOKEN must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / = -',
    )
  })

  it.each([
    ['verdict.dev/context=true', 'verdict.dev/context=true'],
    [' verdict.dev/context == true ', 'verdict.dev/context == true'],
    ['cache.kyverno.io/enabled', 'cache.kyverno.io/enabled'],
    ['team in (a, b),!legacy,tier!=dev', 'team in (a, b),!legacy,tier!=dev'],
  ])('takes the ConfigMap selector %j', (raw, selector) => {
    expect(loadConfig({ VERDICT_CONTEXT_CONFIGMAP_SELECTOR: raw }, []).contextConfigMapSelector).toBe(selector)
  })

  it('names the flag when the bad value came from a flag', () => {
    expect(problem({ VERDICT_API_PORT: '8080' }, ['--api-port=http'])).toBe('--api-port must be an integer 0-65535, got "http"')
  })

  it('refuses unknown options, stray arguments and flags without a value', () => {
    expect(problem({}, ['--api-prot', '1'])).toBe('unknown option --api-prot; unexpected argument "1"')
    expect(problem({}, ['serve'])).toBe('unexpected argument "serve"')
    expect(problem({}, ['--api-port'])).toBe('--api-port needs a value')
    expect(problem({}, ['--api-port', '--ops-port', '1'])).toBe('--api-port needs a value')
    expect(problem({}, ['--data-dir='])).toBe('--data-dir must not be empty, got ""')
  })

  it('wants certificate and key together', () => {
    expect(problem({ VERDICT_TLS_CERT_FILE: '/tls.crt' })).toBe('VERDICT_TLS_CERT_FILE needs VERDICT_TLS_KEY_FILE as well')
    expect(problem({}, ['--api-tls-key-file', '/k'])).toBe('--api-tls-key-file needs VERDICT_API_TLS_CERT_FILE as well')
  })

  it('reports every bad setting at once', () => {
    expect(problem({ VERDICT_API_PORT: 'x', VERDICT_CONTROLLER: 'y' })).toBe(
      'VERDICT_API_PORT must be an integer 0-65535, got "x"; VERDICT_CONTROLLER must be one of auto, on, off, got "y"',
    )
  })
})

describe('the settings table', () => {
  it('lists every setting of the design, with its flag', () => {
    expect(SETTINGS.map((setting) => [setting.name, setting.flag])).toEqual([
      ['VERDICT_API_PORT', '--api-port'],
      ['VERDICT_WEBHOOK_PORT', '--webhook-port'],
      ['VERDICT_OPS_PORT', '--ops-port'],
      ['VERDICT_DATA_DIR', '--data-dir'],
      ['VERDICT_DATABASE_URL', '--database-url'],
      ['VERDICT_ADMIN_TOKEN_FILE', '--admin-token-file'],
      ['VERDICT_BOOTSTRAP_TOKEN', '--bootstrap-token'],
      ['VERDICT_TLS_CERT_FILE', '--tls-cert-file'],
      ['VERDICT_TLS_KEY_FILE', '--tls-key-file'],
      ['VERDICT_API_TLS_CERT_FILE', '--api-tls-cert-file'],
      ['VERDICT_API_TLS_KEY_FILE', '--api-tls-key-file'],
      ['VERDICT_RATE_LIMIT', '--rate-limit'],
      ['VERDICT_RATE_BURST', '--rate-burst'],
      ['VERDICT_CEL_MAX_COST', '--cel-max-cost'],
      ['VERDICT_CEL_MAX_MILLIS', '--cel-max-millis'],
      ['VERDICT_BODY_LIMIT', '--body-limit'],
      ['VERDICT_AUDIT_RETENTION_DAYS', '--audit-retention-days'],
      ['VERDICT_AUDIT_SPOOL_MAX_BYTES', '--audit-spool-max-bytes'],
      ['VERDICT_CONTROLLER', '--controller'],
      ['VERDICT_POD_NAMESPACE', '--pod-namespace'],
      ['VERDICT_POD_NAME', '--pod-name'],
      ['VERDICT_WEBHOOK_CONFIGURATION', '--webhook-configuration'],
      ['VERDICT_CONTEXT_CONFIGMAP_SELECTOR', '--context-configmap-selector'],
      ['VERDICT_CONTEXT_CONFIGMAP_MAX_BYTES', '--context-configmap-max-bytes'],
      ['VERDICT_CONTEXT_CONFIGMAP_CACHE_BYTES', '--context-configmap-cache-bytes'],
      ['VERDICT_SCAN_INTERVAL', '--scan-interval'],
      ['VERDICT_SCAN_PAGE_SIZE', '--scan-page-size'],
      ['VERDICT_SCAN_EXCLUDED_NAMESPACES', '--scan-excluded-namespaces'],
      ['VERDICT_REPORT_MAX_RESULTS', '--report-max-results'],
      ['VERDICT_REPORTS_API', '--reports-api'],
      ['VERDICT_EVENTS', '--events'],
      ['VERDICT_GENERATED_VAPS', '--generated-vaps'],
      ['VERDICT_EXCEPTION_REQUIRE_EXPIRY', '--exception-require-expiry'],
      ['VERDICT_UNUSED_EXCEPTION_DAYS', '--unused-exception-days'],
      ['VERDICT_LLM_URL', '--llm-url'],
      ['VERDICT_LLM_MODEL', '--llm-model'],
      ['VERDICT_LLM_API_KEY', '--llm-api-key'],
      ['VERDICT_LOG_LEVEL', '--log-level'],
      ['VERDICT_LOG_FORMAT', '--log-format'],
    ])
    expect(SETTINGS.filter((setting) => setting.secret).map((setting) => setting.name)).toEqual([
      'VERDICT_DATABASE_URL',
      'VERDICT_BOOTSTRAP_TOKEN',
      'VERDICT_LLM_API_KEY',
    ])
  })

  it('prints the help and the table of docs/configuration.md from the same rows', () => {
    const help = formatSettingsHelp().split('\n')
    expect(help).toHaveLength(SETTINGS.length + 1)
    expect(help).toContain('  --api-port <value>                       VERDICT_API_PORT: REST API port (0: an ephemeral port, logged at start) (default 8080)')
    const table = formatSettingsMarkdown().split('\n')
    expect(table.slice(0, 2)).toEqual(['| Variable | Flag | Default | Meaning |', '|---|---|---|---|'])
    expect(table).toContain('| `VERDICT_BODY_LIMIT` | `--body-limit` | `1mb` | largest request body (bytes, or with a unit: 512kb, 1mb) |')
    expect(table).toHaveLength(SETTINGS.length + 2)
  })
})
