// own-holdout-3: generic JSON / YAML configuration documents.
import { gen, email, image, isSemver, isHttpsUrl, daysBetween } from './lib.mjs';

const svcCfg = (environment, server, more = {}) => ({ service: 'orders-api', environment, server, log: { level: 'info', format: 'json' }, ...more });
const RESERVED = ['stages', 'variables', 'default', 'include', 'workflow', 'image', 'services', 'cache', 'before_script', 'after_script'];
const flag = (key, o) => ({ key, description: `${key} rollout`, owner: 'growth-team@acme.io', createdAt: '2025-01-01', expiresAt: '2025-02-15', enabled: true, ...o });
const route = (name, path, o = {}) => ({ name, path, methods: ['GET'], upstream: `http://${name}.internal:8080`, protocols: ['https'], plugins: [{ name: 'rate-limiting', config: { minute: 600 } }], ...o });
const topic = (o, config) => ({ name: 'orders.events.v1', partitions: 12, replicationFactor: 3, config: { 'cleanup.policy': 'delete', 'min.insync.replicas': '2', 'retention.ms': '259200000', ...config }, ...o });
const monitor = (o) => ({
  name: 'High CPU on api hosts', type: 'metric alert', query: 'avg(last_5m):avg:system.cpu.user{service:api} by {host} > 90',
  message: 'CPU above threshold on {{host.name}}. @slack-api-oncall', tags: ['team:api', 'env:prod'],
  options: { thresholds: { critical: 90, warning: 80 }, notify_no_data: false, renotify_interval: 30 }, ...o,
});
const patroni = (scope, params = {}, dcs = {}) => ({
  scope, namespace: '/service/', name: 'pg-0',
  restapi: { listen: '0.0.0.0:8008', connect_address: 'pg-0.internal:8008' },
  bootstrap: { dcs: { ttl: 30, loop_wait: 10, retry_timeout: 10, ...dcs } },
  postgresql: { listen: '0.0.0.0:5432', data_dir: '/var/lib/postgresql/data', parameters: { ssl: 'on', password_encryption: 'scram-sha-256', max_connections: 300, shared_buffers: '4GB', ...params } },
});
const wf = (name, on, o) => ({ name, on, jobs: { build: { 'runs-on': 'ubuntu-24.04', steps: [{ uses: 'actions/checkout@v4' }, { run: 'make test' }] } }, ...o });
const op = (operationId, o = {}) => ({ ...(operationId ? { operationId } : {}), summary: operationId ?? 'unnamed', responses: { 200: { description: 'OK' } }, ...o });
const oas = (paths, o = {}) => ({
  openapi: '3.0.3', info: { title: 'Orders API', version: '2.4.0' }, servers: [{ url: 'https://api.acme.io/v2' }],
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } }, security: [{ bearer: [] }], paths, ...o,
});
const tg = (name, healthCheck) => ({ name, port: 8080, protocol: 'HTTP', ...(healthCheck ? { healthCheck } : {}) });
const hc = (o) => ({ path: '/healthz', intervalSeconds: 15, timeoutSeconds: 5, healthyThreshold: 3, unhealthyThreshold: 3, matcher: '200', ...o });
const chart = (o) => ({
  apiVersion: 'v2', name: 'orders', description: 'Orders service', type: 'application', version: '1.8.0', appVersion: '4.2.1',
  dependencies: [{ name: 'postgresql', version: '15.2.5', repository: 'https://charts.bitnami.com/bitnami', condition: 'postgresql.enabled' }],
  maintainers: [{ name: 'Orders Team', email: 'orders-team@acme.io' }], ...o,
});

export default [
  // ------------------------------------------------------------------ 1
  {
    id: 'gen3-service-config-prod-tls-and-port',
    difficulty: 'medium',
    topics: ['generic', 'service-config', 'tls', 'conditions', 'ports'],
    labels: gen('service-config'),
    instruction:
      'For our Go services\' config.yaml: when `environment` is prod or production, TLS has to be on - server.tls.enabled: true - and server.tls.minVersion has to be "1.2" or "1.3". In dev, staging etc. we don\'t care about TLS at all. Seperately, regardless of environment, server.port must be an integer between 1024 and 65535, since we never run as root and can\'t bind low ports.',
    check: (o) => {
      const s = o.server ?? {};
      if (!(Number.isInteger(s.port) && s.port >= 1024 && s.port <= 65535)) return false;
      if (!['prod', 'production'].includes(o.environment)) return true;
      return s.tls?.enabled === true && ['1.2', '1.3'].includes(s.tls?.minVersion);
    },
    inputs: [
      { name: 'prod-tls-1-2', expectPassed: true, object: svcCfg('prod', { port: 8443, tls: { enabled: true, minVersion: '1.2', certFile: '/etc/tls/tls.crt', keyFile: '/etc/tls/tls.key' } }) },
      { name: 'production-tls-disabled', expectPassed: false, object: svcCfg('production', { port: 8080, tls: { enabled: false } }) },
      { name: 'prod-min-version-1-1', expectPassed: false, object: svcCfg('prod', { port: 8443, tls: { enabled: true, minVersion: '1.1' } }) },
      { name: 'staging-no-tls-block', expectPassed: true, object: svcCfg('staging', { port: 8080 }) },
      { name: 'dev-port-80', expectPassed: false, object: svcCfg('dev', { port: 80 }) },
      { name: 'prod-min-version-missing', expectPassed: false, object: svcCfg('prod', { port: 8443, tls: { enabled: true } }) },
    ],
  },

  // ------------------------------------------------------------------ 2
  {
    id: 'gen3-gitlab-ci-deploy-and-test-jobs',
    difficulty: 'hard',
    topics: ['generic', 'ci-pipeline', 'gitlab-ci', 'defaults', 'images', 'every-element'],
    labels: gen('ci-pipeline'),
    instruction: `CICD-88 - .gitlab-ci.yml guardrails

Applies to every job in the pipeline, i.e. every top-level key that isn't one of GitLab's global keywords (stages, variables, default, include, workflow, image, services, cache, before_script, after_script) and whose name doesn't start with a dot (dot-jobs are templates):
1. If the job's stage is \`deploy\`, it must have \`when: manual\` and an \`environment\` with a \`name\`.
2. Jobs in stage \`test\` must not set \`allow_failure: true\`. Note a job with no \`stage\` key runs in \`test\` (GitLab's default), so it's covered too.
3. A job's own \`image\` (string form, or the \`name\` of the object form) must carry a tag and the tag can't be \`latest\`. Jobs without their own image are fine for this rule.`,
    check: (o) =>
      Object.entries(o).filter(([k, v]) => !RESERVED.includes(k) && !k.startsWith('.') && v && typeof v === 'object' && !Array.isArray(v)).every(([, j]) => {
        const stage = j.stage ?? 'test';
        if (stage === 'deploy' && !(j.when === 'manual' && typeof j.environment?.name === 'string' && j.environment.name !== '')) return false;
        if (stage === 'test' && j.allow_failure === true) return false;
        if (j.image !== undefined) {
          const ref = typeof j.image === 'string' ? j.image : j.image.name;
          const tag = image(ref).tag;
          if (!tag || tag === 'latest') return false;
        }
        return true;
      }),
    inputs: [
      {
        name: 'compliant-pipeline',
        expectPassed: true,
        object: {
          stages: ['build', 'test', 'deploy'],
          variables: { DOCKER_DRIVER: 'overlay2' },
          '.node': { image: 'node:latest', before_script: ['npm ci'] },
          build: { stage: 'build', image: 'node:20.12.2', script: ['npm ci', 'npm run build'], artifacts: { paths: ['dist/'] } },
          unit: { stage: 'test', image: 'node:20.12.2', script: ['npm test'] },
          deploy_prod: { stage: 'deploy', image: 'alpine/helm:3.14.4', script: ['helm upgrade --install orders ./chart'], when: 'manual', environment: { name: 'production', url: 'https://orders.acme.io' } },
        },
      },
      {
        name: 'deploy-job-runs-automatically',
        expectPassed: false,
        object: {
          stages: ['build', 'deploy'],
          build: { stage: 'build', image: 'golang:1.22.2', script: ['go build ./...'] },
          deploy_staging: { stage: 'deploy', image: 'alpine/helm:3.14.4', script: ['helm upgrade --install orders ./chart -f staging.yaml'], environment: { name: 'staging' } },
        },
      },
      {
        name: 'manual-deploy-without-environment',
        expectPassed: false,
        object: {
          stages: ['deploy'],
          deploy_prod: { stage: 'deploy', image: 'alpine/helm:3.14.4', script: ['helm upgrade --install orders ./chart'], when: 'manual' },
        },
      },
      {
        name: 'stageless-job-allowed-to-fail',
        expectPassed: false,
        object: {
          stages: ['build', 'test'],
          build: { stage: 'build', image: 'maven:3.9.6-eclipse-temurin-21', script: ['mvn -B package -DskipTests'] },
          integration: { image: 'maven:3.9.6-eclipse-temurin-21', script: ['mvn -B verify'], allow_failure: true },
        },
      },
      {
        name: 'build-job-latest-image',
        expectPassed: false,
        object: {
          stages: ['build', 'test'],
          build: { stage: 'build', image: 'docker:latest', services: ['docker:25.0.4-dind'], script: ['docker build -t orders .'] },
          lint: { stage: 'test', image: 'hadolint/hadolint:v2.12.0', script: ['hadolint Dockerfile'] },
        },
      },
      {
        name: 'object-image-and-allowed-failure-outside-test',
        expectPassed: true,
        object: {
          stages: ['test', 'report'],
          default: { tags: ['k8s-runner'] },
          pytest: { stage: 'test', image: { name: 'python:3.12.2', entrypoint: [''] }, script: ['pytest -q'], allow_failure: false },
          coverage_badge: { stage: 'report', script: ['./scripts/badge.sh'], allow_failure: true },
        },
      },
    ],
  },

  // ------------------------------------------------------------------ 3
  {
    id: 'gen3-feature-flags-owner-expiry-rollout',
    difficulty: 'hard',
    topics: ['generic', 'feature-flags', 'email', 'dates', 'percentages', 'exemptions', 'every-element'],
    labels: gen('feature-flags'),
    instruction: `Feature flag hygiene for flags.json (the \`flags\` array):
- each flag needs an \`owner\` that is an email address
- each flag needs an \`expiresAt\` date, no more than 90 days after the flag's \`createdAt\` (both ISO dates, YYYY-MM-DD)
- if a flag has \`rollout.percentage\` it must be a whole number from 0 to 100
- permanent flags (\`"permanent": true\`) are exempt from the expiry requirement, and only from that one`,
    check: (o) =>
      (o.flags ?? []).every((f) => {
        if (!email(f.owner)) return false;
        if (f.permanent !== true && !(typeof f.expiresAt === 'string' && daysBetween(f.createdAt, f.expiresAt) <= 90)) return false;
        const p = f.rollout?.percentage;
        return p === undefined || (Number.isInteger(p) && p >= 0 && p <= 100);
      }),
    inputs: [
      {
        name: 'two-flags-one-at-90-days',
        expectPassed: true,
        object: { version: 3, flags: [flag('new-checkout', { rollout: { percentage: 25 } }), flag('dark-mode', { owner: 'web-platform@acme.io', createdAt: '2025-01-01', expiresAt: '2025-04-01', rollout: { percentage: 100 } })] },
      },
      { name: 'owner-is-a-team-name', expectPassed: false, object: { version: 3, flags: [flag('search-v2', { owner: 'team-search' })] } },
      { name: 'expiry-91-days-out', expectPassed: false, object: { version: 3, flags: [flag('promo-banner', { createdAt: '2025-01-01', expiresAt: '2025-04-02' })] } },
      {
        name: 'expiry-missing',
        expectPassed: false,
        object: { version: 3, flags: [flag('new-checkout', {}), (({ expiresAt, ...f }) => f)(flag('one-click-reorder', { rollout: { percentage: 5 } }))] },
      },
      {
        name: 'permanent-kill-switch-without-expiry',
        expectPassed: true,
        object: { version: 3, flags: [(({ expiresAt, ...f }) => f)(flag('payments-kill-switch', { owner: 'payments-oncall@acme.io', permanent: true, enabled: false }))] },
      },
      { name: 'fractional-rollout', expectPassed: false, object: { version: 3, flags: [flag('ai-summaries', { rollout: { percentage: 12.5 } })] } },
    ],
  },

  // ------------------------------------------------------------------ 4
  {
    id: 'gen3-gateway-routes-https-admin-plugins',
    difficulty: 'hard',
    topics: ['generic', 'api-gateway', 'https', 'plugins', 'paths', 'timeouts'],
    labels: gen('api-gateway'),
    instruction: `Gateway route policy (routes[] in gateway.json):
1. Every route is HTTPS-only: its \`protocols\` list must be exactly ["https"] - no http, no grpc.
2. Any route whose \`path\` is /admin or starts with /admin/ must carry an authentication plugin (\`jwt\` or \`oidc\`) AND an \`ip-restriction\` plugin in its \`plugins\` list.
3. \`timeoutMs\`, if set, may not exceed 30000 (30s).`,
    check: (o) =>
      (o.routes ?? []).every((r) => {
        if (!(Array.isArray(r.protocols) && r.protocols.length === 1 && r.protocols[0] === 'https')) return false;
        if (r.path === '/admin' || String(r.path).startsWith('/admin/')) {
          const names = (r.plugins ?? []).map((p) => p.name);
          if (!(names.includes('jwt') || names.includes('oidc')) || !names.includes('ip-restriction')) return false;
        }
        return r.timeoutMs === undefined || r.timeoutMs <= 30000;
      }),
    inputs: [
      {
        name: 'public-and-protected-admin-routes',
        expectPassed: true,
        object: {
          gateway: 'public-edge',
          routes: [
            route('catalog', '/v1/products', { timeoutMs: 30000 }),
            route('admin-users', '/admin/users', { methods: ['GET', 'POST'], plugins: [{ name: 'oidc', config: { issuer: 'https://login.acme.io' } }, { name: 'ip-restriction', config: { allow: ['10.0.0.0/8'] } }] }),
          ],
        },
      },
      { name: 'route-allows-plain-http', expectPassed: false, object: { gateway: 'public-edge', routes: [route('catalog', '/v1/products', { protocols: ['http', 'https'] })] } },
      {
        name: 'admin-route-without-ip-restriction',
        expectPassed: false,
        object: { gateway: 'public-edge', routes: [route('admin-reports', '/admin/reports', { plugins: [{ name: 'jwt', config: { claims_to_verify: ['exp'] } }] })] },
      },
      {
        name: 'administrator-path-is-not-admin',
        expectPassed: true,
        object: { gateway: 'public-edge', routes: [route('docs-administrator', '/administrator-guide', { plugins: [] })] },
      },
      { name: 'timeout-45-seconds', expectPassed: false, object: { gateway: 'public-edge', routes: [route('exports', '/v1/exports', { methods: ['POST'], timeoutMs: 45000 })] } },
      {
        name: 'admin-basic-auth-instead-of-jwt',
        expectPassed: false,
        object: { gateway: 'internal', routes: [route('admin-root', '/admin', { plugins: [{ name: 'basic-auth' }, { name: 'ip-restriction', config: { allow: ['10.0.0.0/8'] } }] })] },
      },
    ],
  },

  // ------------------------------------------------------------------ 5
  {
    id: 'gen3-kafka-topic-durability',
    difficulty: 'hard',
    topics: ['generic', 'kafka', 'dotted-keys', 'field-comparison', 'durations', 'conditions'],
    labels: gen('kafka-topic'),
    instruction: `Kafka topic requests (topic.json submitted to the self-service portal):
- replicationFactor at least 3
- the \`min.insync.replicas\` entry under \`config\` (the key itself contains dots) must be set, at least 2, and strictly less than replicationFactor
- \`retention.ms\` may not exceed 7 days (604800000 ms) unless \`cleanup.policy\` is \`compact\`, in which case retention isn't limited; -1 (infinite) is only OK for compacted topics. If retention.ms is missing the broker default of 7 days applies, which is fine.
- partitions between 1 and 48
Config values are usually strings (that's how Kafka tooling writes them) - compare them as numbers.`,
    check: (o) => {
      const rf = o.replicationFactor;
      if (!(rf >= 3)) return false;
      const c = o.config ?? {};
      const isr = c['min.insync.replicas'];
      if (isr === undefined || !(Number(isr) >= 2 && Number(isr) < rf)) return false;
      if (c['cleanup.policy'] !== 'compact' && c['retention.ms'] !== undefined) {
        const r = Number(c['retention.ms']);
        if (r === -1 || r > 604800000) return false;
      }
      return Number.isInteger(o.partitions) && o.partitions >= 1 && o.partitions <= 48;
    },
    inputs: [
      { name: 'seven-days-exactly', expectPassed: true, object: topic({}, { 'retention.ms': '604800000' }) },
      { name: 'replication-factor-two', expectPassed: false, object: topic({ name: 'clickstream.raw', replicationFactor: 2 }, { 'min.insync.replicas': '1' }) },
      { name: 'isr-equals-replication-factor', expectPassed: false, object: topic({ name: 'payments.ledger.v2' }, { 'min.insync.replicas': '3' }) },
      { name: 'compacted-infinite-retention', expectPassed: true, object: topic({ name: 'customers.snapshot', partitions: 6, replicationFactor: 4 }, { 'cleanup.policy': 'compact', 'retention.ms': '-1', 'min.insync.replicas': '3' }) },
      { name: 'fourteen-days-delete-policy', expectPassed: false, object: topic({ name: 'audit.events' }, { 'retention.ms': '1209600000' }) },
      { name: 'sixty-four-partitions', expectPassed: false, object: topic({ name: 'metrics.points', partitions: 64 }, {}) },
    ],
  },

  // ------------------------------------------------------------------ 6
  {
    id: 'gen3-datadog-monitor-thresholds-and-routing',
    difficulty: 'hard',
    topics: ['generic', 'alerting', 'datadog', 'field-comparison', 'tags'],
    labels: gen('monitor'),
    instruction: `Datadog monitor definitions (monitors/*.json) must:
- have a numeric options.thresholds.critical
- if options.thresholds.warning is set, it has to fire before critical does: for monitors whose query compares with \`>\` / \`>=\` (alert when above), warning must be strictly lower than critical; for \`<\` / \`<=\` queries (alert when below), warning must be strictly higher than critical
- carry a \`team:<name>\` tag
- mention at least one notification handle in \`message\`, i.e. an @-mention such as @slack-xyz or @pagerduty-xyz`,
    check: (o) => {
      const t = o.options?.thresholds ?? {};
      if (typeof t.critical !== 'number') return false;
      if (t.warning !== undefined) {
        const m = /([<>])=?\s*-?\d+(?:\.\d+)?\s*$/.exec(o.query ?? '');
        if (!m) return false;
        if (m[1] === '>' ? !(t.warning < t.critical) : !(t.warning > t.critical)) return false;
      }
      if (!(o.tags ?? []).some((x) => /^team:.+/.test(x))) return false;
      return /(^|\s)@[\w.-]+/.test(o.message ?? '');
    },
    inputs: [
      { name: 'cpu-above-warning-lower', expectPassed: true, object: monitor({}) },
      { name: 'cpu-above-warning-higher', expectPassed: false, object: monitor({ options: { thresholds: { critical: 90, warning: 95 }, notify_no_data: false } }) },
      {
        name: 'disk-free-below-warning-higher',
        expectPassed: true,
        object: monitor({ name: 'Low free disk', query: 'min(last_10m):avg:system.disk.free_pct{env:prod} by {host,device} < 10', message: 'Disk almost full on {{host.name}} @pagerduty-storage', tags: ['team:storage'], options: { thresholds: { critical: 10, warning: 20 } } }),
      },
      { name: 'no-team-tag', expectPassed: false, object: monitor({ tags: ['env:prod', 'service:api'] }) },
      { name: 'message-without-handle', expectPassed: false, object: monitor({ message: 'CPU is high on {{host.name}}, have a look.' }) },
      {
        name: 'queue-below-warning-lower',
        expectPassed: false,
        object: monitor({ name: 'Consumers dropped', query: 'avg(last_5m):sum:kafka.consumer.count{group:orders} <= 3', message: '@slack-orders Consumers dropped', tags: ['team:orders'], options: { thresholds: { critical: 3, warning: 2 } } }),
      },
    ],
  },

  // ------------------------------------------------------------------ 7
  {
    id: 'gen3-patroni-postgres-settings',
    difficulty: 'medium',
    topics: ['generic', 'database-config', 'postgres', 'patroni', 'conditions', 'bytes'],
    labels: gen('database-config'),
    instruction: `Patroni cluster config (patroni.yml) standards:
* postgresql.parameters.ssl must be 'on'
* postgresql.parameters.password_encryption must be scram-sha-256 (md5 is deprecated)
* postgresql.parameters.max_connections at most 500
* if the cluster \`scope\` starts with \`prod-\`, bootstrap.dcs.synchronous_mode must be true and bootstrap.dcs.maximum_lag_on_failover must be set to no more than 1 MiB (1048576 bytes)`,
    check: (o) => {
      const p = o.postgresql?.parameters ?? {};
      if (p.ssl !== 'on' || p.password_encryption !== 'scram-sha-256' || !(p.max_connections <= 500)) return false;
      if (!String(o.scope).startsWith('prod-')) return true;
      const d = o.bootstrap?.dcs ?? {};
      return d.synchronous_mode === true && typeof d.maximum_lag_on_failover === 'number' && d.maximum_lag_on_failover <= 1048576;
    },
    inputs: [
      { name: 'prod-sync-lag-1mib', expectPassed: true, object: patroni('prod-orders', {}, { synchronous_mode: true, maximum_lag_on_failover: 1048576 }) },
      { name: 'md5-passwords', expectPassed: false, object: patroni('staging-orders', { password_encryption: 'md5' }) },
      { name: 'max-connections-800', expectPassed: false, object: patroni('staging-analytics', { max_connections: 800 }) },
      { name: 'prod-async-replication', expectPassed: false, object: patroni('prod-billing', {}, { synchronous_mode: false, maximum_lag_on_failover: 1048576 }) },
      { name: 'staging-async-is-fine', expectPassed: true, object: patroni('staging-billing', { max_connections: 500 }) },
      { name: 'prod-lag-2mib', expectPassed: false, object: patroni('prod-ledger', {}, { synchronous_mode: true, maximum_lag_on_failover: 2097152 }) },
    ],
  },

  // ------------------------------------------------------------------ 8
  {
    id: 'gen3-github-workflow-permissions-and-triggers',
    difficulty: 'hard',
    topics: ['generic', 'ci-pipeline', 'github-actions', 'permissions', 'triggers', 'conditions'],
    labels: gen('ci-workflow'),
    instruction: `GitHub Actions workflow policy (.github/workflows/*.yml, as parsed):
1. There has to be a top-level \`permissions\` key, and it can't be the string \`write-all\`.
2. \`id-token: write\` (in the top-level permissions or in any job's permissions) is only allowed in workflows whose \`name\` contains "deploy" (case-insensitive).
3. Never trigger on \`pull_request_target\`. \`on\` can be a string, a list or a map - all three forms count.`,
    check: (o) => {
      const p = o.permissions;
      if (p === undefined || p === 'write-all') return false;
      const idw = (x) => Boolean(x) && typeof x === 'object' && x['id-token'] === 'write';
      if ((idw(p) || Object.values(o.jobs ?? {}).some((j) => idw(j.permissions))) && !/deploy/i.test(o.name ?? '')) return false;
      const on = o.on;
      const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on : Object.keys(on ?? {});
      return !events.includes('pull_request_target');
    },
    inputs: [
      { name: 'ci-read-only-contents', expectPassed: true, object: wf('CI', { push: { branches: ['main'] }, pull_request: {} }, { permissions: { contents: 'read' } }) },
      { name: 'no-permissions-key', expectPassed: false, object: wf('CI', ['push', 'pull_request'], {}) },
      { name: 'write-all-string', expectPassed: false, object: wf('Release', { push: { tags: ['v*'] } }, { permissions: 'write-all' }) },
      {
        name: 'deploy-workflow-job-level-oidc',
        expectPassed: true,
        object: {
          name: 'Deploy to AWS', on: { workflow_dispatch: {} }, permissions: { contents: 'read' },
          jobs: { deploy: { 'runs-on': 'ubuntu-24.04', environment: 'production', permissions: { 'id-token': 'write', contents: 'read' }, steps: [{ uses: 'aws-actions/configure-aws-credentials@v4', with: { 'role-to-assume': 'arn:aws:iam::111111111111:role/gha-deploy', 'aws-region': 'eu-west-1' } }] } },
        },
      },
      { name: 'lint-workflow-with-oidc', expectPassed: false, object: wf('Lint', 'pull_request', { permissions: { contents: 'read', 'id-token': 'write' } }) },
      { name: 'pull-request-target-in-list', expectPassed: false, object: wf('Label PRs', ['pull_request_target'], { permissions: { 'pull-requests': 'write' } }) },
    ],
  },

  // ------------------------------------------------------------------ 9
  {
    id: 'gen3-openapi-operations-secured',
    difficulty: 'hard',
    topics: ['generic', 'openapi', 'https', 'security', 'every-element', 'exemptions'],
    labels: gen('openapi'),
    instruction: `API design review checklist for OpenAPI 3 documents:
- every server URL in \`servers\` must be https
- every operation (get/put/post/delete/patch/head/options/trace under each path) needs an operationId
- every operation must be secured: either it has its own non-empty \`security\` list, or the document has a non-empty top-level \`security\` and the operation doesn't override it. An operation-level \`security: []\` marks the operation public, which is only allowed if that operation is tagged \`public\`.`,
    check: (o) => {
      if (!(o.servers ?? []).every((s) => isHttpsUrl(s.url))) return false;
      const top = Array.isArray(o.security) && o.security.length > 0;
      const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
      return Object.values(o.paths ?? {}).every((item) => METHODS.filter((m) => item[m]).every((m) => {
        const x = item[m];
        if (!x.operationId) return false;
        if (x.security === undefined) return top;
        if (x.security.length === 0) return (x.tags ?? []).includes('public');
        return true;
      }));
    },
    inputs: [
      { name: 'top-level-security-all-ids', expectPassed: true, object: oas({ '/orders': { get: op('listOrders'), post: op('createOrder') }, '/orders/{id}': { get: op('getOrder'), delete: op('cancelOrder') } }) },
      { name: 'plain-http-server', expectPassed: false, object: oas({ '/orders': { get: op('listOrders') } }, { servers: [{ url: 'https://api.acme.io/v2' }, { url: 'http://api-staging.acme.io/v2' }] }) },
      { name: 'operation-without-id', expectPassed: false, object: oas({ '/orders': { get: op('listOrders'), post: op(null) } }) },
      { name: 'public-health-endpoint', expectPassed: true, object: oas({ '/orders': { get: op('listOrders') }, '/health': { get: op('health', { security: [], tags: ['public', 'ops'] }) } }) },
      { name: 'security-override-without-public-tag', expectPassed: false, object: oas({ '/orders': { get: op('listOrders', { security: [], tags: ['orders'] }) } }) },
      {
        name: 'no-global-security-one-unsecured-op',
        expectPassed: false,
        object: (({ security, ...rest }) => rest)(oas({ '/orders': { get: op('listOrders', { security: [{ bearer: [] }] }), post: op('createOrder') } })),
      },
    ],
  },

  // ------------------------------------------------------------------ 10
  {
    id: 'gen3-logging-levels-and-outputs',
    difficulty: 'medium',
    topics: ['generic', 'logging', 'https', 'retention', 'conditions', 'every-element'],
    labels: gen('logging-config'),
    instruction: `Log shipping config (logging.json):
- \`level\` must never be \`trace\`; \`debug\` is acceptable only when \`environment\` isn't prod
- for every entry in \`outputs\`: type \`http\` needs an https:// endpoint; type \`s3\` needs retentionDays of at least 365 (audit requirement); type \`stdout\` has no extra requirements`,
    check: (o) => {
      if (o.level === 'trace') return false;
      if (o.level === 'debug' && o.environment === 'prod') return false;
      return (o.outputs ?? []).every((x) => {
        if (x.type === 'http') return isHttpsUrl(x.endpoint);
        if (x.type === 's3') return typeof x.retentionDays === 'number' && x.retentionDays >= 365;
        return true;
      });
    },
    inputs: [
      {
        name: 'prod-info-https-and-s3-400',
        expectPassed: true,
        object: { environment: 'prod', level: 'info', outputs: [{ type: 'http', endpoint: 'https://logs.acme.io/ingest', batchSize: 500 }, { type: 's3', bucket: 'acme-audit-logs', retentionDays: 400 }] },
      },
      { name: 'prod-debug', expectPassed: false, object: { environment: 'prod', level: 'debug', outputs: [{ type: 'stdout' }] } },
      { name: 'staging-debug', expectPassed: true, object: { environment: 'staging', level: 'debug', outputs: [{ type: 'stdout' }, { type: 'http', endpoint: 'https://logs-staging.acme.io/ingest' }] } },
      { name: 'dev-trace', expectPassed: false, object: { environment: 'dev', level: 'trace', outputs: [{ type: 'stdout' }] } },
      { name: 'http-endpoint-not-tls', expectPassed: false, object: { environment: 'prod', level: 'warn', outputs: [{ type: 'http', endpoint: 'http://10.0.4.12:8080/ingest' }] } },
      { name: 's3-retention-90', expectPassed: false, object: { environment: 'prod', level: 'info', outputs: [{ type: 's3', bucket: 'acme-app-logs', retentionDays: 90 }] } },
    ],
  },

  // ------------------------------------------------------------------ 11
  {
    id: 'gen3-dependabot-schedule-and-ecosystems',
    difficulty: 'medium',
    topics: ['generic', 'dependabot', 'kebab-case-keys', 'every-element', 'presence'],
    labels: gen('dependabot-config'),
    instruction: `dependabot.yml reveiw (version 2 config):
- there must be an \`updates\` entry for the \`github-actions\` ecosystem (we pin actions and want the bumps)
- every updates entry needs schedule.interval of \`daily\` or \`weekly\` - monthly is too slow for security fixes
- \`open-pull-requests-limit\`, if set, must be between 1 and 10 (0 would switch version updates off entirely)`,
    check: (o) => {
      const u = o.updates ?? [];
      if (!u.some((x) => x['package-ecosystem'] === 'github-actions')) return false;
      return u.every((x) => ['daily', 'weekly'].includes(x.schedule?.interval) && (x['open-pull-requests-limit'] === undefined || (x['open-pull-requests-limit'] >= 1 && x['open-pull-requests-limit'] <= 10)));
    },
    inputs: [
      {
        name: 'npm-weekly-actions-daily',
        expectPassed: true,
        object: { version: 2, updates: [{ 'package-ecosystem': 'npm', directory: '/', schedule: { interval: 'weekly', day: 'monday' } }, { 'package-ecosystem': 'github-actions', directory: '/', schedule: { interval: 'daily' } }] },
      },
      { name: 'no-github-actions-entry', expectPassed: false, object: { version: 2, updates: [{ 'package-ecosystem': 'gomod', directory: '/', schedule: { interval: 'daily' } }] } },
      {
        name: 'monthly-interval',
        expectPassed: false,
        object: { version: 2, updates: [{ 'package-ecosystem': 'pip', directory: '/app', schedule: { interval: 'monthly' } }, { 'package-ecosystem': 'github-actions', directory: '/', schedule: { interval: 'weekly' } }] },
      },
      {
        name: 'pr-limit-zero',
        expectPassed: false,
        object: { version: 2, updates: [{ 'package-ecosystem': 'github-actions', directory: '/', schedule: { interval: 'weekly' }, 'open-pull-requests-limit': 0 }] },
      },
      {
        name: 'docker-limit-ten',
        expectPassed: true,
        object: { version: 2, updates: [{ 'package-ecosystem': 'docker', directory: '/', schedule: { interval: 'weekly' }, 'open-pull-requests-limit': 10 }, { 'package-ecosystem': 'github-actions', directory: '/', schedule: { interval: 'weekly' }, 'open-pull-requests-limit': 1 }] },
      },
      {
        name: 'entry-without-schedule',
        expectPassed: false,
        object: { version: 2, updates: [{ 'package-ecosystem': 'maven', directory: '/' }, { 'package-ecosystem': 'github-actions', directory: '/', schedule: { interval: 'daily' } }] },
      },
    ],
  },

  // ------------------------------------------------------------------ 12
  {
    id: 'gen3-target-group-health-checks',
    difficulty: 'medium',
    topics: ['generic', 'load-balancer', 'health-checks', 'field-comparison', 'boundaries', 'every-element'],
    labels: gen('load-balancer-config'),
    instruction: `Target group health checks (our internal LB config format, \`targetGroups[]\`):
- healthCheck.timeoutSeconds has to be strictly less than healthCheck.intervalSeconds
- healthyThreshold and unhealthyThreshold each between 2 and 10 inclusive
- healthCheck.path must start with \`/\` and must not be just \`/\` - point it at a real health endpoint
Every target group is checked, and a target group without a healthCheck block fails.`,
    check: (o) =>
      (o.targetGroups ?? []).every((t) => {
        const h = t.healthCheck;
        if (!h) return false;
        if (!(h.timeoutSeconds < h.intervalSeconds)) return false;
        if (![h.healthyThreshold, h.unhealthyThreshold].every((n) => n >= 2 && n <= 10)) return false;
        return typeof h.path === 'string' && h.path.startsWith('/') && h.path !== '/';
      }),
    inputs: [
      { name: 'two-groups-compliant', expectPassed: true, object: { loadBalancer: 'web-internal', targetGroups: [tg('web', hc({})), tg('api', hc({ path: '/api/health', intervalSeconds: 30, timeoutSeconds: 10 }))] } },
      { name: 'timeout-equals-interval', expectPassed: false, object: { loadBalancer: 'web-internal', targetGroups: [tg('web', hc({ intervalSeconds: 10, timeoutSeconds: 10 }))] } },
      { name: 'unhealthy-threshold-one', expectPassed: false, object: { loadBalancer: 'web-internal', targetGroups: [tg('api', hc({ unhealthyThreshold: 1 }))] } },
      { name: 'root-path', expectPassed: false, object: { loadBalancer: 'web-internal', targetGroups: [tg('static', hc({ path: '/' }))] } },
      { name: 'second-group-no-health-check', expectPassed: false, object: { loadBalancer: 'web-internal', targetGroups: [tg('web', hc({})), tg('legacy', null)] } },
      { name: 'threshold-boundaries', expectPassed: true, object: { loadBalancer: 'batch-internal', targetGroups: [tg('jobs', hc({ path: '/ready', intervalSeconds: 5, timeoutSeconds: 4, healthyThreshold: 2, unhealthyThreshold: 10 }))] } },
    ],
  },

  // ------------------------------------------------------------------ 13
  {
    id: 'gen3-helm-chart-metadata-lint',
    difficulty: 'hard',
    topics: ['generic', 'helm-chart', 'semver', 'urls', 'email', 'every-element'],
    labels: gen('helm-chart'),
    instruction: `Chart.yaml lint for our internal Helm charts:
1. apiVersion must be v2.
2. \`version\` is a strict SemVer 2 string (MAJOR.MINOR.PATCH with optional -prerelease / +build) - no leading v.
3. Each entry in \`dependencies\` pins an exact version (a plain semver, no ranges: no ^, ~, x, *, >=, || and so on) and its repository is an https:// URL or an oci:// reference; file:// (local) dependencies are allowed too.
4. At least one maintainer, and every maintainer has a valid email.`,
    check: (o) => {
      if (o.apiVersion !== 'v2' || !isSemver(o.version)) return false;
      const depsOk = (o.dependencies ?? []).every((d) => isSemver(d.version) && (isHttpsUrl(d.repository) || /^oci:\/\/\S+$/.test(d.repository ?? '') || String(d.repository ?? '').startsWith('file://')));
      const m = o.maintainers ?? [];
      return depsOk && m.length > 0 && m.every((x) => email(x.email));
    },
    inputs: [
      { name: 'compliant-chart', expectPassed: true, object: chart({}) },
      { name: 'leading-v-version', expectPassed: false, object: chart({ version: 'v1.8.0' }) },
      { name: 'caret-range-dependency', expectPassed: false, object: chart({ dependencies: [{ name: 'redis', version: '^19.0.0', repository: 'https://charts.bitnami.com/bitnami' }] }) },
      { name: 'plain-http-repository', expectPassed: false, object: chart({ dependencies: [{ name: 'common', version: '2.19.1', repository: 'http://charts.internal.acme.io' }] }) },
      {
        name: 'oci-and-file-dependencies-prerelease',
        expectPassed: true,
        object: chart({ version: '2.0.0-beta.3', dependencies: [{ name: 'redis', version: '19.0.2', repository: 'oci://registry-1.docker.io/bitnamicharts' }, { name: 'orders-common', version: '0.4.1', repository: 'file://../orders-common' }] }),
      },
      { name: 'maintainer-without-email', expectPassed: false, object: chart({ maintainers: [{ name: 'Orders Team', email: 'orders-team@acme.io' }, { name: 'Jo Bloggs' }] }) },
    ],
  },
];
