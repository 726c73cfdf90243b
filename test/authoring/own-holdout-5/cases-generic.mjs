// Generic JSON cases for own-holdout-5: Terraform variable files, HTTP client retry policies,
// Sloth SLO specs, logging configs, a batch scheduler's maintenance window, S3 bucket policy
// documents, edge TLS listeners, Helm values, .NET appsettings, tsconfig and Docker daemon.json.
import { gen, isInt, durSeconds, logBytes, cronHours, asList } from './lib.mjs';

// ------------------------------------------------------------------ retry policies
const retry = (o = {}) => ({ max_attempts: 3, initial_backoff: '200ms', max_backoff: '10s', multiplier: 2, jitter: true, ...o });
const client = (base, r, more = {}) => ({ base_url: base, timeout: '5s', ...(r === undefined ? {} : { retry: r }), ...more });

// ------------------------------------------------------------------ sloth
const slo = (name, objective, more = {}) => ({
  name,
  objective,
  description: `${name.replace(/-/g, ' ')} for the checkout API`,
  sli: { events: { error_query: `sum(rate(http_requests_total{job="checkout",code=~"5.."}[{{.window}}]))`, total_query: 'sum(rate(http_requests_total{job="checkout"}[{{.window}}]))' } },
  alerting: { name: `Checkout${name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`, page_alert: { labels: { severity: 'page' } }, ticket_alert: { labels: { severity: 'ticket' } } },
  ...more,
});
const sloth = (labels, slos) => ({ version: 'prometheus/v1', service: 'checkout', labels, slos });

// ------------------------------------------------------------------ logging
const logging = (o = {}) => ({
  env: 'prod',
  format: 'json',
  root_level: 'INFO',
  loggers: { 'com.acme.checkout': 'INFO', 'org.hibernate.SQL': 'WARN' },
  appenders: [
    { name: 'stdout', type: 'console' },
    { name: 'file', type: 'file', path: '/var/log/checkout/app.log', max_size: '50MB', max_files: 10 },
  ],
  ...o,
});

// ------------------------------------------------------------------ S3 bucket policies
const B = 'arn:aws:s3:::acme-invoices-prod';
const tlsDeny = (resource = [B, `${B}/*`], action = 's3:*') => ({
  Sid: 'DenyInsecureTransport',
  Effect: 'Deny',
  Principal: '*',
  Action: action,
  Resource: resource,
  Condition: { Bool: { 'aws:SecureTransport': 'false' } },
});
const roleRead = { Sid: 'AppRead', Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::123456789012:role/invoice-service' }, Action: ['s3:GetObject', 's3:PutObject'], Resource: `${B}/*` };
const policy = (...statements) => ({ Version: '2012-10-17', Statement: statements });
const isStar = (p) => p === '*' || (p && typeof p === 'object' && asList(p.AWS).includes('*'));

// ------------------------------------------------------------------ TLS listeners
const STRONG = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384'];
const httpsL = (o = {}) => ({ name: 'https', port: 443, tls: { min_version: 'TLSv1.2', cipher_suites: STRONG, certificate: '/etc/edge/certs/acme.io.pem', hsts: { max_age_seconds: 31536000, include_subdomains: true } }, ...o });
const redirectL = { name: 'http', port: 80, redirect_to_https: true };

// ------------------------------------------------------------------ helm values
const values = (o = {}) => ({
  replicaCount: 2,
  image: { repository: 'ghcr.io/acme/storefront', tag: '4.2.1', pullPolicy: 'IfNotPresent' },
  service: { type: 'ClusterIP', port: 80 },
  autoscaling: { enabled: false },
  resources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { memory: '512Mi' } },
  ...o,
});

// ------------------------------------------------------------------ appsettings
const appsettings = (o = {}) => ({
  Logging: { LogLevel: { Default: 'Warning', 'Microsoft.AspNetCore': 'Warning' } },
  AllowedHosts: 'orders.acme.io;orders-internal.acme.io',
  ConnectionStrings: {
    OrdersDb: 'Server=tcp:sql-orders-prod.database.windows.net,1433;Database=orders;Authentication=Active Directory Managed Identity;Encrypt=True;',
    Redis: 'redis-orders-prod.redis.cache.windows.net:6380,ssl=True,abortConnect=False',
  },
  ...o,
});

export default [
  // ------------------------------------------------------------------ tfvars
  {
    id: 'generic-tfvars-environment-rules',
    difficulty: 'medium',
    topics: ['generic', 'terraform-variables', 'enum', 'conditional', 'integer-range', 'data-residency'],
    labels: gen('terraform-variables'),
    instruction: `terraform.tfvars.json checks for the service stacks:
- environment must be one of dev, staging, prod (exactly those strings)
- instance_count: a whole number from 1 to 10
- if environment is prod, instance_count must be at least 3 and enable_deletion_protection must be true (missing counts as false)
- region must be an EU region (eu-west-1, eu-central-1, eu-north-1 ...), because of data residency`,
    check: (o) => {
      if (!['dev', 'staging', 'prod'].includes(o.environment)) return false;
      if (!isInt(o.instance_count) || o.instance_count < 1 || o.instance_count > 10) return false;
      if (o.environment === 'prod' && (o.instance_count < 3 || o.enable_deletion_protection !== true)) return false;
      return typeof o.region === 'string' && o.region.startsWith('eu-');
    },
    inputs: [
      {
        name: 'tfvars-staging-two-instances',
        expectPassed: true,
        object: { environment: 'staging', region: 'eu-west-1', instance_count: 2, instance_type: 't3.medium', enable_deletion_protection: false, tags: { team: 'checkout' } },
      },
      {
        name: 'tfvars-prod-three-protected',
        expectPassed: true,
        object: { environment: 'prod', region: 'eu-central-1', instance_count: 3, instance_type: 'm6i.large', enable_deletion_protection: true, tags: { team: 'checkout' } },
      },
      {
        name: 'tfvars-prod-two-instances',
        expectPassed: false,
        object: { environment: 'prod', region: 'eu-west-1', instance_count: 2, instance_type: 'm6i.large', enable_deletion_protection: true },
      },
      {
        name: 'tfvars-prod-protection-missing',
        expectPassed: false,
        object: { environment: 'prod', region: 'eu-west-1', instance_count: 4, instance_type: 'm6i.large' },
      },
      {
        name: 'tfvars-us-region',
        expectPassed: false,
        object: { environment: 'dev', region: 'us-east-1', instance_count: 1, instance_type: 't3.small' },
      },
      {
        name: 'tfvars-environment-production-lookalike',
        expectPassed: false,
        object: { environment: 'production', region: 'eu-west-1', instance_count: 3, instance_type: 'm6i.large', enable_deletion_protection: true },
      },
    ],
  },

  // ------------------------------------------------------------------ retry policies
  {
    id: 'generic-http-client-retry-policy',
    difficulty: 'hard',
    topics: ['generic', 'http-client-config', 'retries', 'durations', 'field-comparison', 'every-element', 'conditional'],
    labels: gen('http-client-config'),
    instruction: `Retry policy standard for outbound HTTP clients (every entry under \`clients\` in the service config, each one's \`retry\` block):

1. every client must have a retry block
2. max_attempts between 1 and 5 inclusive (that count includes the first try)
3. initial_backoff at least 100ms and max_backoff at most 30s. Both are duration strings like "250ms", "2s", "1m"
4. max_backoff must be greater than or equal to initial_backoff
5. multiplier between 1.5 and 3.0, inclusive
6. jitter must be true for any client that actually retries (max_attempts > 1); for single-attempt clients it doesn't matter`,
    check: (o) => Object.values(o.clients ?? {}).every((c) => {
      const r = c.retry;
      if (!r) return false;
      if (!isInt(r.max_attempts) || r.max_attempts < 1 || r.max_attempts > 5) return false;
      const ib = durSeconds(r.initial_backoff);
      const mb = durSeconds(r.max_backoff);
      if (ib < 0.1 || mb > 30 || mb < ib) return false;
      if (!(r.multiplier >= 1.5 && r.multiplier <= 3)) return false;
      return r.max_attempts === 1 || r.jitter === true;
    }),
    inputs: [
      {
        name: 'clients-all-within-policy',
        expectPassed: true,
        object: {
          service: 'checkout',
          clients: {
            payments: client('https://payments.internal.acme.io', retry({ max_attempts: 5, initial_backoff: '100ms', max_backoff: '30s', multiplier: 1.5 })),
            inventory: client('https://inventory.internal.acme.io', retry({ multiplier: 3 })),
          },
        },
      },
      {
        name: 'client-single-attempt-no-jitter',
        expectPassed: true,
        object: {
          service: 'checkout',
          clients: {
            fraud: client('https://fraud.internal.acme.io', { max_attempts: 1, initial_backoff: '500ms', max_backoff: '20s', multiplier: 2 }),
            tax: client('https://tax.internal.acme.io', retry()),
          },
        },
      },
      {
        name: 'client-initial-backoff-50ms',
        expectPassed: false,
        object: {
          service: 'checkout',
          clients: {
            payments: client('https://payments.internal.acme.io', retry()),
            shipping: client('https://shipping.internal.acme.io', retry({ initial_backoff: '50ms' })),
          },
        },
      },
      {
        name: 'client-initial-above-max',
        expectPassed: false,
        object: {
          service: 'checkout',
          clients: { loyalty: client('https://loyalty.internal.acme.io', retry({ initial_backoff: '5s', max_backoff: '2s' })) },
        },
      },
      {
        name: 'client-retries-without-jitter',
        expectPassed: false,
        object: {
          service: 'checkout',
          clients: { email: client('https://mailer.internal.acme.io', retry({ max_attempts: 4, jitter: false })) },
        },
      },
      {
        name: 'client-missing-retry-block',
        expectPassed: false,
        object: {
          service: 'checkout',
          clients: {
            payments: client('https://payments.internal.acme.io', retry()),
            search: client('https://search.internal.acme.io', undefined, { timeout: '2s' }),
          },
        },
      },
    ],
  },

  // ------------------------------------------------------------------ Sloth SLO specs
  {
    id: 'generic-sloth-slo-review',
    difficulty: 'medium',
    topics: ['generic', 'slo-definitions', 'percentages', 'every-element', 'conditional'],
    labels: gen('slo-definitions'),
    instruction: `sloth SLO spec review, things we check on every file:
* top-level labels must include owner (the team name), non-empty. this one is per file, not per SLO
* for every entry in slos: objective is a percentage and must be >= 90 and <= 99.95. 99.99 isn't a target we can actually hold on one region
* every SLO needs a non-empty description
* tier-1 services (top-level labels.tier is "1") can't switch their page alerts off, so alerting.page_alert.disable: true is a fail there. lower tiers may disable paging`,
    check: (o) => {
      const labels = o.labels ?? {};
      if (typeof labels.owner !== 'string' || labels.owner.trim() === '') return false;
      return (o.slos ?? []).every((s) => typeof s.objective === 'number' && s.objective >= 90 && s.objective <= 99.95
        && typeof s.description === 'string' && s.description.trim() !== ''
        && !(labels.tier === '1' && s.alerting?.page_alert?.disable === true));
    },
    inputs: [
      {
        name: 'sloth-tier1-within-bounds',
        expectPassed: true,
        object: sloth({ owner: 'checkout-team', tier: '1' }, [slo('requests-availability', 99.95), slo('requests-latency', 99.0)]),
      },
      {
        name: 'sloth-objective-99-99',
        expectPassed: false,
        object: sloth({ owner: 'checkout-team', tier: '2' }, [slo('requests-availability', 99.99)]),
      },
      {
        name: 'sloth-owner-missing',
        expectPassed: false,
        object: sloth({ tier: '2', cost_center: 'cc-4410' }, [slo('requests-availability', 99.5)]),
      },
      {
        name: 'sloth-tier1-page-disabled',
        expectPassed: false,
        object: sloth({ owner: 'checkout-team', tier: '1' }, [slo('requests-availability', 99.9, { alerting: { name: 'CheckoutAvailability', page_alert: { disable: true }, ticket_alert: { labels: { severity: 'ticket' } } } })]),
      },
      {
        name: 'sloth-tier2-page-disabled',
        expectPassed: true,
        object: sloth({ owner: 'growth-team', tier: '2' }, [slo('requests-availability', 90, { alerting: { name: 'CheckoutAvailability', page_alert: { disable: true }, ticket_alert: { labels: { severity: 'ticket' } } } })]),
      },
      {
        name: 'sloth-second-slo-no-description',
        expectPassed: false,
        object: sloth({ owner: 'checkout-team', tier: '1' }, [slo('requests-availability', 99.9), slo('requests-latency', 99.0, { description: '' })]),
      },
    ],
  },

  // ------------------------------------------------------------------ logging config
  {
    id: 'generic-logging-config-rules',
    difficulty: 'medium',
    topics: ['generic', 'logging-config', 'size-units', 'conditional', 'case-insensitive', 'every-element'],
    labels: gen('logging-config'),
    instruction: `Logging config rules (logging.json that ships with each service):
- format must be "json" in every environment, our log shipper can't parse the plaintext layout
- when env is "prod", nothing may log at DEBUG or TRACE: that covers root_level and every entry under loggers. Case doesn't matter, "debug" counts too
- every appender of type file must rotate: max_size must be set and be no bigger than 100MB. Sizes are written like 512KB, 50MB, 1GB (1GB = 1024MB). Console appenders don't need it`,
    check: (o) => {
      if (o.format !== 'json') return false;
      if (o.env === 'prod') {
        const levels = [o.root_level, ...Object.values(o.loggers ?? {})].filter((x) => x !== undefined).map((x) => String(x).toLowerCase());
        if (levels.some((l) => l === 'debug' || l === 'trace')) return false;
      }
      return (o.appenders ?? []).filter((a) => a.type === 'file').every((a) => a.max_size !== undefined && logBytes(a.max_size) <= 100 * 1024 ** 2);
    },
    inputs: [
      {
        name: 'logging-prod-100mb-boundary',
        expectPassed: true,
        object: logging({ appenders: [{ name: 'stdout', type: 'console' }, { name: 'file', type: 'file', path: '/var/log/checkout/app.log', max_size: '100MB', max_files: 5 }] }),
      },
      {
        name: 'logging-prod-lowercase-debug-logger',
        expectPassed: false,
        object: logging({ loggers: { 'com.acme.checkout': 'INFO', 'com.acme.checkout.db': 'debug' } }),
      },
      {
        name: 'logging-dev-debug-root',
        expectPassed: true,
        object: logging({ env: 'dev', root_level: 'DEBUG', loggers: { 'com.acme.checkout': 'TRACE' } }),
      },
      {
        name: 'logging-plaintext-format',
        expectPassed: false,
        object: logging({ env: 'staging', format: 'pattern', pattern: '%d{ISO8601} %-5level [%thread] %logger - %msg%n' }),
      },
      {
        name: 'logging-file-1gb',
        expectPassed: false,
        object: logging({ appenders: [{ name: 'audit', type: 'file', path: '/var/log/checkout/audit.log', max_size: '1GB', max_files: 3 }] }),
      },
      {
        name: 'logging-file-without-max-size',
        expectPassed: false,
        object: logging({ appenders: [{ name: 'stdout', type: 'console' }, { name: 'file', type: 'file', path: '/var/log/checkout/app.log', max_files: 10 }] }),
      },
    ],
  },

  // ------------------------------------------------------------------ scheduler maintenance window
  {
    id: 'generic-scheduler-maintenance-window',
    difficulty: 'hard',
    topics: ['generic', 'job-scheduler', 'cron', 'timezone', 'exemption', 'every-element'],
    labels: gen('job-scheduler'),
    instruction: `Maintenance window for batch jobs (jobs[] in scheduler.json)

Heavy jobs may only start between 00:00 and 05:59 UTC. For every job:
- timezone must be UTC, set on the job itself ("Etc/UTC" is accepted as well)
- the hour field of the cron schedule (second of the five fields) may only allow hours 0 to 5. A single hour, a comma list or a range like 1-3 is fine as long as every hour in it is within 0-5; "*" or a step such as */4 is not.
- jobs marked "light": true are exempt from the hour rule, but still need the UTC timezone`,
    check: (o) => (o.jobs ?? []).every((j) => {
      if (!['UTC', 'Etc/UTC'].includes(j.timezone)) return false;
      if (j.light === true) return true;
      const hours = cronHours(j.schedule);
      return hours !== null && hours.every((h) => h >= 0 && h <= 5);
    }),
    inputs: [
      {
        name: 'sched-all-inside-window',
        expectPassed: true,
        object: {
          scheduler: 'acme-batch',
          jobs: [
            { name: 'rebuild-search-index', schedule: '15 2 * * *', timezone: 'UTC', command: ['bin/reindex', '--full'] },
            { name: 'vacuum-analytics', schedule: '0 1,3,5 * * 0', timezone: 'Etc/UTC', command: ['bin/vacuum'] },
          ],
        },
      },
      {
        name: 'sched-hour-six',
        expectPassed: false,
        object: {
          scheduler: 'acme-batch',
          jobs: [{ name: 'export-ledger', schedule: '0 6 * * *', timezone: 'UTC', command: ['bin/export-ledger'] }],
        },
      },
      {
        name: 'sched-range-4-to-7',
        expectPassed: false,
        object: {
          scheduler: 'acme-batch',
          jobs: [
            { name: 'rebuild-search-index', schedule: '15 2 * * *', timezone: 'UTC', command: ['bin/reindex'] },
            { name: 'compact-events', schedule: '30 4-7 * * 1-5', timezone: 'UTC', command: ['bin/compact'] },
          ],
        },
      },
      {
        name: 'sched-light-job-every-10-min',
        expectPassed: true,
        object: {
          scheduler: 'acme-batch',
          jobs: [
            { name: 'refresh-fx-rates', schedule: '*/10 * * * *', timezone: 'UTC', light: true, command: ['bin/fx-refresh'] },
            { name: 'rotate-partitions', schedule: '0 0 1 * *', timezone: 'UTC', command: ['bin/rotate'] },
          ],
        },
      },
      {
        name: 'sched-new-york-timezone',
        expectPassed: false,
        object: {
          scheduler: 'acme-batch',
          jobs: [{ name: 'us-settlement', schedule: '0 2 * * *', timezone: 'America/New_York', command: ['bin/settle', '--region=us'] }],
        },
      },
      {
        name: 'sched-step-every-four-hours',
        expectPassed: false,
        object: {
          scheduler: 'acme-batch',
          jobs: [{ name: 'sync-crm', schedule: '0 */4 * * *', timezone: 'UTC', command: ['bin/crm-sync'] }],
        },
      },
    ],
  },

  // ------------------------------------------------------------------ S3 bucket policy TLS
  {
    id: 'generic-s3-bucket-policy-tls-only',
    difficulty: 'hard',
    topics: ['generic', 's3-bucket-policy', 'iam-policy', 'tls', 'existence', 'conditional'],
    labels: gen('s3-bucket-policy'),
    instruction: `Every S3 bucket policy document we apply must enforce TLS and must not open the bucket to the world.

Required: a statement with Effect "Deny", Principal "*" (or {"AWS": "*"}), Action "s3:*" (or "*"), whose Resource covers both the bucket ARN itself and its objects (arn:aws:s3:::<bucket> and arn:aws:s3:::<bucket>/*), with the condition Bool aws:SecureTransport = "false".
Forbidden: any Allow statement with Principal "*" / {"AWS": "*"} that has no Condition at all. An Allow to everyone that is restricted by a condition (aws:SourceVpce, aws:PrincipalOrgID for our organisation, ...) is acceptable.
Action and Resource may be a single string or a list.`,
    check: (o) => {
      const st = asList(o.Statement);
      const tls = st.some((s) => {
        if (s.Effect !== 'Deny' || !isStar(s.Principal)) return false;
        const acts = asList(s.Action);
        if (!acts.includes('s3:*') && !acts.includes('*')) return false;
        const resources = asList(s.Resource);
        const bucket = resources.find((r) => /^arn:aws:s3:::[^/]+$/.test(r));
        if (!bucket || !resources.includes(`${bucket}/*`)) return false;
        return String(s.Condition?.Bool?.['aws:SecureTransport']) === 'false';
      });
      const openAllow = st.some((s) => s.Effect === 'Allow' && isStar(s.Principal) && !s.Condition);
      return tls && !openAllow;
    },
    inputs: [
      {
        name: 'policy-tls-deny-and-role-access',
        expectPassed: true,
        object: policy(roleRead, tlsDeny()),
      },
      {
        name: 'policy-no-tls-deny',
        expectPassed: false,
        object: policy(roleRead),
      },
      {
        name: 'policy-tls-deny-objects-only',
        expectPassed: false,
        object: policy(roleRead, tlsDeny(`${B}/*`)),
      },
      {
        name: 'policy-public-read-without-condition',
        expectPassed: false,
        object: policy(tlsDeny(), { Sid: 'PublicRead', Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `${B}/*` }),
      },
      {
        name: 'policy-everyone-via-vpce-condition',
        expectPassed: true,
        object: policy(tlsDeny(), { Sid: 'VpceRead', Effect: 'Allow', Principal: { AWS: '*' }, Action: ['s3:GetObject', 's3:ListBucket'], Resource: [B, `${B}/*`], Condition: { StringEquals: { 'aws:SourceVpce': 'vpce-0a1b2c3d4e5f67890' } } }),
      },
      {
        name: 'policy-tls-deny-getobject-only',
        expectPassed: false,
        object: policy(roleRead, tlsDeny([B, `${B}/*`], 's3:GetObject')),
      },
    ],
  },

  // ------------------------------------------------------------------ edge TLS listeners
  {
    id: 'generic-edge-tls-listeners',
    difficulty: 'medium',
    topics: ['generic', 'tls-config', 'ciphers', 'hsts', 'every-element', 'conditional'],
    labels: gen('tls-config'),
    instruction: `Edge proxy TLS settings, applies to every entry in listeners[]:
- tls.min_version must be TLSv1.2 or TLSv1.3
- none of the tls.cipher_suites may contain RC4, 3DES, DES-CBC, NULL or EXPORT anywhere in the name (case-insensitive)
- tls.hsts.max_age_seconds at least one year (31536000)
- a listener without a tls block (plaintext) is only allowed on port 80, and then it must have redirect_to_https: true`,
    check: (o) => (o.listeners ?? []).every((l) => {
      if (!l.tls) return l.port === 80 && l.redirect_to_https === true;
      if (!['TLSv1.2', 'TLSv1.3'].includes(l.tls.min_version)) return false;
      if ((l.tls.cipher_suites ?? []).some((c) => /RC4|3DES|DES-CBC|NULL|EXPORT/i.test(c))) return false;
      return (l.tls.hsts?.max_age_seconds ?? 0) >= 31536000;
    }),
    inputs: [
      {
        name: 'edge-https-plus-redirect',
        expectPassed: true,
        object: { proxy: 'edge-eu1', listeners: [httpsL(), redirectL] },
      },
      {
        name: 'edge-min-version-tls10',
        expectPassed: false,
        object: { proxy: 'edge-eu1', listeners: [httpsL({ tls: { ...httpsL().tls, min_version: 'TLSv1.0' } }), redirectL] },
      },
      {
        name: 'edge-3des-cipher',
        expectPassed: false,
        object: { proxy: 'edge-legacy', listeners: [httpsL({ tls: { ...httpsL().tls, cipher_suites: [...STRONG, 'TLS_RSA_WITH_3DES_EDE_CBC_SHA'] } })] },
      },
      {
        name: 'edge-hsts-six-months',
        expectPassed: false,
        object: { proxy: 'edge-us1', listeners: [httpsL({ tls: { ...httpsL().tls, hsts: { max_age_seconds: 15768000, include_subdomains: true } } })] },
      },
      {
        name: 'edge-plaintext-8080',
        expectPassed: false,
        object: { proxy: 'edge-eu1', listeners: [httpsL(), { name: 'health', port: 8080, redirect_to_https: false }] },
      },
      {
        name: 'edge-tls13-two-year-hsts',
        expectPassed: true,
        object: { proxy: 'edge-ap1', listeners: [httpsL({ name: 'https-api', port: 8443, tls: { min_version: 'TLSv1.3', cipher_suites: STRONG.slice(0, 2), certificate: '/etc/edge/certs/api.acme.io.pem', hsts: { max_age_seconds: 63072000, include_subdomains: true } } })] },
      },
    ],
  },

  // ------------------------------------------------------------------ helm values
  {
    id: 'generic-helm-values-baseline',
    difficulty: 'medium',
    topics: ['generic', 'helm-values', 'image-tags', 'conditional', 'replicas'],
    labels: gen('helm-values'),
    instruction:
      "helm values.yaml for anything using our `service` chart, pls check: image.tag has to be pinned (not empty, not \"latest\"); if autoscaling.enabled is false or the autoscaling section is missing then replicaCount must be 2 or more, and if autoscaling.enabled is true then autoscaling.minReplicas must be 2 or more instead (replicaCount is ignored by the chart in that case); resources.limits.memory must be set",
    check: (o) => {
      const tag = o.image?.tag;
      if (typeof tag !== 'string' || tag === '' || tag === 'latest') return false;
      const hpa = o.autoscaling?.enabled === true;
      if (hpa ? !((o.autoscaling.minReplicas ?? 0) >= 2) : !((o.replicaCount ?? 0) >= 2)) return false;
      return o.resources?.limits?.memory !== undefined;
    },
    inputs: [
      {
        name: 'values-fixed-two-replicas',
        expectPassed: true,
        object: values(),
      },
      {
        name: 'values-autoscaling-min-2-replicacount-1',
        expectPassed: true,
        object: values({ replicaCount: 1, autoscaling: { enabled: true, minReplicas: 2, maxReplicas: 12, targetCPUUtilizationPercentage: 70 } }),
      },
      {
        name: 'values-latest-tag',
        expectPassed: false,
        object: values({ image: { repository: 'ghcr.io/acme/storefront', tag: 'latest', pullPolicy: 'Always' } }),
      },
      {
        name: 'values-one-replica-no-autoscaling-section',
        expectPassed: false,
        object: (() => { const v = values({ replicaCount: 1 }); delete v.autoscaling; return v; })(),
      },
      {
        name: 'values-autoscaling-min-1',
        expectPassed: false,
        object: values({ replicaCount: 3, autoscaling: { enabled: true, minReplicas: 1, maxReplicas: 5 } }),
      },
      {
        name: 'values-no-memory-limit',
        expectPassed: false,
        object: values({ resources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { cpu: '1' } } }),
      },
    ],
  },

  // ------------------------------------------------------------------ appsettings
  {
    id: 'generic-dotnet-appsettings-production',
    difficulty: 'medium',
    topics: ['generic', 'app-settings', 'connection-strings', 'credentials', 'log-level', 'case-insensitive'],
    labels: gen('app-settings'),
    instruction: `.NET appsettings.Production.json review
1. No connection string under ConnectionStrings may carry a password: "Password=" or "Pwd=" in any upper/lower case mix is a fail. Use managed identity (Authentication=Active Directory Managed Identity).
2. Logging.LogLevel.Default must be Warning, Error or Critical. Information, Debug and Trace are too chatty for prod.
3. AllowedHosts must not be "*".`,
    check: (o) => {
      if (Object.values(o.ConnectionStrings ?? {}).some((cs) => /(password|pwd)\s*=/i.test(cs))) return false;
      if (!['Warning', 'Error', 'Critical'].includes(o.Logging?.LogLevel?.Default)) return false;
      return o.AllowedHosts !== '*';
    },
    inputs: [
      {
        name: 'appsettings-managed-identity',
        expectPassed: true,
        object: appsettings(),
      },
      {
        name: 'appsettings-password-in-connection-string',
        expectPassed: false,
        object: appsettings({ ConnectionStrings: { OrdersDb: 'Server=tcp:sql-orders-prod.database.windows.net,1433;Database=orders;User ID=orders_app;Password=Spr1ng-2024!;Encrypt=True;' } }),
      },
      {
        name: 'appsettings-lowercase-pwd',
        expectPassed: false,
        object: appsettings({ ConnectionStrings: { OrdersDb: 'Server=tcp:sql-orders-prod.database.windows.net,1433;Database=orders;Authentication=Active Directory Managed Identity;', Reporting: 'Host=pg-reporting.acme.internal;Database=reports;Username=reporter;pwd=r3p0rt!' } }),
      },
      {
        name: 'appsettings-information-level',
        expectPassed: false,
        object: appsettings({ Logging: { LogLevel: { Default: 'Information', 'Microsoft.AspNetCore': 'Warning' } } }),
      },
      {
        name: 'appsettings-allowed-hosts-star',
        expectPassed: false,
        object: appsettings({ AllowedHosts: '*' }),
      },
      {
        name: 'appsettings-error-level',
        expectPassed: true,
        object: appsettings({ Logging: { LogLevel: { Default: 'Error', 'Microsoft.EntityFrameworkCore': 'Warning' } }, FeatureManagement: { NewCheckout: true } }),
      },
    ],
  },

  // ------------------------------------------------------------------ tsconfig
  {
    id: 'generic-tsconfig-strict',
    difficulty: 'easy',
    topics: ['generic', 'tsconfig', 'booleans'],
    labels: gen('tsconfig'),
    instruction:
      'all our TS repos need compilerOptions.strict: true in tsconfig.json. and nobody gets to switch individual strict checks back off: noImplicitAny: false or strictNullChecks: false is a fail even when strict is true',
    check: (o) => {
      const c = o.compilerOptions ?? {};
      return c.strict === true && c.noImplicitAny !== false && c.strictNullChecks !== false;
    },
    inputs: [
      {
        name: 'tsconfig-strict',
        expectPassed: true,
        object: { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', sourceMap: true }, include: ['src'] },
      },
      {
        name: 'tsconfig-strict-missing',
        expectPassed: false,
        object: { compilerOptions: { target: 'ES2020', module: 'commonjs', esModuleInterop: true, outDir: 'build' }, include: ['src/**/*.ts'] },
      },
      {
        name: 'tsconfig-strict-but-no-implicit-any-off',
        expectPassed: false,
        object: { compilerOptions: { target: 'ES2022', module: 'ESNext', strict: true, noImplicitAny: false }, include: ['src'] },
      },
      {
        name: 'tsconfig-strict-plus-extra-checks',
        expectPassed: true,
        object: { extends: '@acme/tsconfig/base.json', compilerOptions: { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noImplicitAny: true }, include: ['src', 'test'] },
      },
      {
        name: 'tsconfig-strict-null-checks-off',
        expectPassed: false,
        object: { compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, strictNullChecks: false, skipLibCheck: true } },
      },
    ],
  },

  // ------------------------------------------------------------------ docker daemon.json
  {
    id: 'generic-docker-daemon-build-hosts',
    difficulty: 'easy',
    topics: ['generic', 'docker-daemon', 'registries', 'booleans'],
    labels: gen('docker-daemon'),
    instruction:
      'docker daemon.json on the build hosts: no insecure-registries (the key missing or an empty list are both ok) and live-restore has to be true so a dockerd restart doesn\'t kill running builds',
    check: (o) => (o['insecure-registries'] ?? []).length === 0 && o['live-restore'] === true,
    inputs: [
      {
        name: 'daemon-live-restore-no-insecure',
        expectPassed: true,
        object: { 'live-restore': true, 'log-driver': 'json-file', 'log-opts': { 'max-size': '50m', 'max-file': '3' }, 'storage-driver': 'overlay2' },
      },
      {
        name: 'daemon-insecure-registry',
        expectPassed: false,
        object: { 'live-restore': true, 'insecure-registries': ['registry.build.acme.internal:5000'], 'storage-driver': 'overlay2' },
      },
      {
        name: 'daemon-live-restore-missing',
        expectPassed: false,
        object: { 'log-driver': 'journald', 'registry-mirrors': ['https://mirror.gcr.io'], 'storage-driver': 'overlay2' },
      },
      {
        name: 'daemon-empty-insecure-list',
        expectPassed: true,
        object: { 'live-restore': true, 'insecure-registries': [], 'registry-mirrors': ['https://mirror.gcr.io'], features: { buildkit: true } },
      },
      {
        name: 'daemon-live-restore-false',
        expectPassed: false,
        object: { 'live-restore': false, 'default-ulimits': { nofile: { Name: 'nofile', Hard: 65536, Soft: 65536 } } },
      },
    ],
  },
];
