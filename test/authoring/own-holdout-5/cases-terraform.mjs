// Terraform cases for own-holdout-5: CloudFront TLS, EKS endpoint access and logging, S3 SSE
// configuration with KMS, SQS queues, DynamoDB PITR, GCP firewall rules, Azure Linux web apps,
// and two whole-plan cases (forbidden IAM resource types; Lambda architecture and memory).
import { tf, tfRes, tfChg, tfPlan, tfv, planResources } from './lib.mjs';

// ------------------------------------------------------------------ CloudFront
const cfValues = ({ mpv = 'TLSv1.2_2021', defaultCert = false, vpp = 'redirect-to-https', ordered = [] } = {}) => ({
  aliases: ['www.acme.io'],
  comment: 'storefront CDN',
  default_root_object: 'index.html',
  enabled: true,
  http_version: 'http2and3',
  is_ipv6_enabled: true,
  price_class: 'PriceClass_100',
  retain_on_delete: false,
  wait_for_deployment: true,
  web_acl_id: null,
  tags: { Service: 'storefront', Environment: 'prod' },
  origin: [{ domain_name: 'acme-storefront-assets.s3.eu-west-1.amazonaws.com', origin_id: 's3-assets', origin_path: '', connection_attempts: 3, connection_timeout: 10 }],
  default_cache_behavior: [{
    target_origin_id: 's3-assets',
    viewer_protocol_policy: vpp,
    allowed_methods: ['GET', 'HEAD', 'OPTIONS'],
    cached_methods: ['GET', 'HEAD'],
    compress: true,
    cache_policy_id: '658327ea-f89d-4fab-a63d-7e88639e58f6',
  }],
  ordered_cache_behavior: ordered,
  restrictions: [{ geo_restriction: [{ restriction_type: 'none', locations: [] }] }],
  viewer_certificate: [defaultCert
    ? { acm_certificate_arn: '', cloudfront_default_certificate: true, iam_certificate_id: '', minimum_protocol_version: 'TLSv1', ssl_support_method: '' }
    : { acm_certificate_arn: 'arn:aws:acm:us-east-1:123456789012:certificate/1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718', cloudfront_default_certificate: false, iam_certificate_id: '', minimum_protocol_version: mpv, ssl_support_method: 'sni-only' }],
});
const cb = (path, vpp) => ({ path_pattern: path, target_origin_id: 's3-assets', viewer_protocol_policy: vpp, allowed_methods: ['GET', 'HEAD'], cached_methods: ['GET', 'HEAD'], compress: true });

// ------------------------------------------------------------------ EKS
const eksValues = ({ pub = false, priv = true, cidrs = ['0.0.0.0/0'], logs = ['api', 'audit', 'authenticator'] } = {}) => ({
  name: 'platform-prod-eu1',
  role_arn: 'arn:aws:iam::123456789012:role/eks-cluster-platform-prod',
  version: '1.30',
  enabled_cluster_log_types: logs,
  tags: { Team: 'platform', Environment: 'prod' },
  vpc_config: [{
    endpoint_private_access: priv,
    endpoint_public_access: pub,
    public_access_cidrs: cidrs,
    security_group_ids: ['sg-0a12b34c56d78e90f'],
    subnet_ids: ['subnet-0aa11bb22cc33dd44', 'subnet-0ee55ff66aa77bb88', 'subnet-0cc99dd00ee11ff22'],
  }],
  encryption_config: [{ resources: ['secrets'], provider: [{ key_arn: 'arn:aws:kms:eu-west-1:123456789012:key/9d8c7b6a-5f4e-4d3c-2b1a-0f9e8d7c6b5a' }] }],
});

// ------------------------------------------------------------------ S3 SSE configuration
const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/3c2b1a09-8f7e-4d6c-b5a4-39281706f5e4';
const sseValues = (bucket, rules) => ({ bucket, expected_bucket_owner: null, rule: rules });
const sseRule = (algo, key, bucketKey) => ({ apply_server_side_encryption_by_default: [{ sse_algorithm: algo, kms_master_key_id: key }], bucket_key_enabled: bucketKey });

// ------------------------------------------------------------------ SQS
const sqsValues = (name, { retention = 345600, sse = true, kms = null, redrive = null } = {}) => ({
  name,
  fifo_queue: false,
  delay_seconds: 0,
  max_message_size: 262144,
  message_retention_seconds: retention,
  receive_wait_time_seconds: 20,
  visibility_timeout_seconds: 60,
  sqs_managed_sse_enabled: sse,
  kms_master_key_id: kms,
  kms_data_key_reuse_period_seconds: 300,
  redrive_policy: redrive,
  tags: { Service: name.replace(/-dlq$/, ''), Team: 'commerce' },
});
const redrive = (dlq, n = 5) => JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:eu-west-1:123456789012:${dlq}`, maxReceiveCount: n });

// ------------------------------------------------------------------ DynamoDB
const ddbValues = (name, pitr) => ({
  name,
  billing_mode: 'PAY_PER_REQUEST',
  hash_key: 'pk',
  range_key: 'sk',
  attribute: [{ name: 'pk', type: 'S' }, { name: 'sk', type: 'S' }],
  deletion_protection_enabled: true,
  stream_enabled: false,
  table_class: 'STANDARD',
  ttl: [{ attribute_name: 'expires_at', enabled: true }],
  server_side_encryption: [{ enabled: true, kms_key_arn: null }],
  tags: { Service: name, Team: 'commerce' },
  ...(pitr === undefined ? {} : { point_in_time_recovery: pitr }),
});

// ------------------------------------------------------------------ GCP firewall
const fw = (name, { direction = 'INGRESS', src = ['0.0.0.0/0'], dst = null, allow = [] } = {}) => ({
  name,
  network: 'projects/acme-prod-net/global/networks/shared-vpc',
  direction,
  priority: 1000,
  disabled: false,
  source_ranges: direction === 'INGRESS' ? src : null,
  destination_ranges: direction === 'EGRESS' ? dst : null,
  source_tags: null,
  target_tags: ['web'],
  allow,
  deny: [],
  description: `managed by terraform (${name})`,
  log_config: [{ metadata: 'INCLUDE_ALL_METADATA' }],
});

// ------------------------------------------------------------------ Azure web app
const webApp = ({ https = true, tls = '1.2', ftps = 'Disabled', name = 'acme-portal-prod' } = {}) => ({
  name,
  resource_group_name: 'rg-portal-prod-weu',
  location: 'westeurope',
  service_plan_id: '/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg-portal-prod-weu/providers/Microsoft.Web/serverFarms/asp-portal-prod',
  https_only: https,
  client_certificate_enabled: false,
  public_network_access_enabled: true,
  app_settings: { WEBSITES_PORT: '8080' },
  identity: [{ type: 'SystemAssigned', identity_ids: null }],
  site_config: [{
    always_on: true,
    ftps_state: ftps,
    http2_enabled: true,
    minimum_tls_version: tls,
    scm_minimum_tls_version: '1.2',
    remote_debugging_enabled: false,
    application_stack: [{ docker_image_name: 'acme/portal:5.3.0', docker_registry_url: 'https://acmeprod.azurecr.io' }],
  }],
  tags: { env: 'prod', owner: 'portal-team' },
});

// ------------------------------------------------------------------ plan helpers
const iamRole = (name) => ({ name, assume_role_policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] }), max_session_duration: 3600, path: '/', tags: { Team: 'platform' } });
const lambda = (name, { arch = ['arm64'], mem = 512, tags = { Team: 'commerce' } } = {}) => ({
  function_name: name,
  role: `arn:aws:iam::123456789012:role/${name}-exec`,
  handler: 'index.handler',
  runtime: 'nodejs20.x',
  architectures: arch,
  memory_size: mem,
  timeout: 30,
  package_type: 'Zip',
  s3_bucket: 'acme-lambda-artifacts',
  s3_key: `${name}/build-2291.zip`,
  publish: true,
  reserved_concurrent_executions: -1,
  tags,
  environment: [{ variables: { LOG_LEVEL: 'info' } }],
});

const FORBIDDEN = ['aws_iam_user', 'aws_iam_access_key', 'aws_iam_user_policy_attachment', 'aws_default_vpc'];

export default [
  // ------------------------------------------------------------------ CloudFront TLS
  {
    id: 'tf-cloudfront-viewer-tls',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'cloudfront', 'tls', 'every-element', 'resource-changes'],
    labels: tf('aws_cloudfront_distribution'),
    instruction: `CloudFront distributions (aws_cloudfront_distribution) — viewer-side TLS

1. Viewers must be on TLS 1.2 or newer: viewer_certificate.minimum_protocol_version has to be one of the TLSv1.2_* security policies (TLSv1.2_2019, TLSv1.2_2021, ...) or a TLSv1.3 one. SSLv3, TLSv1, TLSv1_2016 and TLSv1.1_2016 are out.
2. Using the default *.cloudfront.net certificate (cloudfront_default_certificate = true) isn't allowed, since it pins you to TLSv1.
3. viewer_protocol_policy must be redirect-to-https or https-only on the default_cache_behavior AND on every ordered_cache_behavior. allow-all anywhere is a fail.`,
    check: (o) => {
      const v = tfv(o);
      const vc = v.viewer_certificate?.[0] ?? {};
      if (vc.cloudfront_default_certificate === true) return false;
      if (!/^TLSv1\.(2_|3)/.test(vc.minimum_protocol_version ?? '')) return false;
      const behaviours = [...(v.default_cache_behavior ?? []), ...(v.ordered_cache_behavior ?? [])];
      return behaviours.every((b) => ['redirect-to-https', 'https-only'].includes(b.viewer_protocol_policy));
    },
    inputs: [
      {
        name: 'cf-tls12-2021-redirect',
        expectPassed: true,
        object: tfRes('aws_cloudfront_distribution', 'storefront', cfValues({ ordered: [cb('/static/*', 'https-only')] })),
      },
      {
        name: 'cf-tlsv1-2016-policy',
        expectPassed: false,
        object: tfRes('aws_cloudfront_distribution', 'marketing', cfValues({ mpv: 'TLSv1_2016' })),
      },
      {
        name: 'cf-default-certificate-create',
        expectPassed: false,
        object: tfChg('aws_cloudfront_distribution', 'preview', ['create'], null, cfValues({ defaultCert: true })),
      },
      {
        name: 'cf-ordered-behaviour-allow-all',
        expectPassed: false,
        object: tfRes('aws_cloudfront_distribution', 'downloads', cfValues({ ordered: [cb('/docs/*', 'redirect-to-https'), cb('/legacy/*', 'allow-all')] })),
      },
      {
        name: 'cf-update-raises-tls',
        expectPassed: true,
        object: tfChg('aws_cloudfront_distribution', 'storefront', ['update'], cfValues({ mpv: 'TLSv1_2016' }), cfValues({ mpv: 'TLSv1.2_2021' })),
      },
      {
        name: 'cf-https-only-tls12-2019',
        expectPassed: true,
        object: tfRes('aws_cloudfront_distribution', 'api_edge', cfValues({ mpv: 'TLSv1.2_2019', vpp: 'https-only', ordered: [cb('/v1/*', 'https-only'), cb('/v2/*', 'redirect-to-https')] })),
      },
    ],
  },

  // ------------------------------------------------------------------ EKS endpoint
  {
    id: 'tf-eks-endpoint-and-audit-logs',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'eks', 'network-exposure', 'cidr', 'logging', 'resource-changes'],
    labels: tf('aws_eks_cluster'),
    instruction:
      "EKS (aws_eks_cluster): the API endpoint must not be reachable from the whole internet. Either vpc_config.endpoint_public_access is false, or, when it's true, public_access_cidrs must not contain 0.0.0.0/0 (list our office / VPN ranges instead). endpoint_private_access must be true in both cases so nodes talk to the control plane privately. Also control-plane logging: enabled_cluster_log_types must include at least audit and authenticator.",
    check: (o) => {
      const v = tfv(o);
      const vc = v.vpc_config?.[0] ?? {};
      if (vc.endpoint_private_access !== true) return false;
      if (vc.endpoint_public_access !== false) {
        const c = vc.public_access_cidrs ?? [];
        if (c.length === 0 || c.includes('0.0.0.0/0')) return false;
      }
      const logs = v.enabled_cluster_log_types ?? [];
      return logs.includes('audit') && logs.includes('authenticator');
    },
    inputs: [
      {
        name: 'eks-private-endpoint-only',
        expectPassed: true,
        object: tfRes('aws_eks_cluster', 'platform', eksValues()),
      },
      {
        name: 'eks-public-whole-internet',
        expectPassed: false,
        object: tfChg('aws_eks_cluster', 'sandbox', ['create'], null, eksValues({ pub: true, cidrs: ['0.0.0.0/0'] })),
      },
      {
        name: 'eks-no-audit-log',
        expectPassed: false,
        object: tfRes('aws_eks_cluster', 'data', eksValues({ logs: ['api', 'authenticator', 'controllerManager'] })),
      },
      {
        name: 'eks-private-access-disabled',
        expectPassed: false,
        object: tfChg('aws_eks_cluster', 'edge', ['update'], eksValues({ pub: true, priv: true, cidrs: ['203.0.113.0/24'] }), eksValues({ pub: true, priv: false, cidrs: ['203.0.113.0/24'] })),
      },
      {
        name: 'eks-update-narrows-public-cidrs',
        expectPassed: true,
        object: tfChg('aws_eks_cluster', 'platform', ['update'], eksValues({ pub: true, cidrs: ['0.0.0.0/0'] }), eksValues({ pub: true, cidrs: ['203.0.113.0/24'] })),
      },
    ],
  },

  // ------------------------------------------------------------------ S3 SSE with KMS
  {
    id: 'tf-s3-sse-kms-bucket-key',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 's3', 'encryption', 'kms', 'arn', 'every-element', 'resource-changes'],
    labels: tf('aws_s3_bucket_server_side_encryption_configuration'),
    instruction:
      'For aws_s3_bucket_server_side_encryption_configuration: every rule must encrypt with KMS, i.e. sse_algorithm aws:kms or aws:kms:dsse, with kms_master_key_id set to a KMS key ARN (arn:aws:kms:...:key/...), not an alias. bucket_key_enabled has to be true on each rule too, to keep the KMS request bill down. AES256 (S3-managed keys) is not good enough for our data classification.',
    check: (o) => {
      const rules = tfv(o).rule ?? [];
      return rules.length > 0 && rules.every((r) => {
        const d = r.apply_server_side_encryption_by_default?.[0] ?? {};
        return ['aws:kms', 'aws:kms:dsse'].includes(d.sse_algorithm) && /^arn:aws:kms:[a-z0-9-]+:\d{12}:key\//.test(d.kms_master_key_id ?? '') && r.bucket_key_enabled === true;
      });
    },
    inputs: [
      {
        name: 'sse-kms-key-arn-bucket-key',
        expectPassed: true,
        object: tfRes('aws_s3_bucket_server_side_encryption_configuration', 'invoices', sseValues('acme-invoices-prod', [sseRule('aws:kms', KEY_ARN, true)])),
      },
      {
        name: 'sse-aes256',
        expectPassed: false,
        object: tfRes('aws_s3_bucket_server_side_encryption_configuration', 'static_assets', sseValues('acme-static-assets', [sseRule('AES256', null, false)])),
      },
      {
        name: 'sse-kms-bucket-key-off-create',
        expectPassed: false,
        object: tfChg('aws_s3_bucket_server_side_encryption_configuration', 'exports', ['create'], null, sseValues('acme-data-exports', [sseRule('aws:kms', KEY_ARN, false)])),
      },
      {
        name: 'sse-kms-alias',
        expectPassed: false,
        object: tfRes('aws_s3_bucket_server_side_encryption_configuration', 'backups', sseValues('acme-db-backups', [sseRule('aws:kms', 'alias/s3-backups', true)])),
      },
      {
        name: 'sse-update-aes256-to-dsse',
        expectPassed: true,
        object: tfChg('aws_s3_bucket_server_side_encryption_configuration', 'audit_logs', ['update'], sseValues('acme-audit-logs', [sseRule('AES256', null, false)]), sseValues('acme-audit-logs', [sseRule('aws:kms:dsse', KEY_ARN, true)])),
      },
    ],
  },

  // ------------------------------------------------------------------ SQS
  {
    id: 'tf-sqs-queue-baseline',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'sqs', 'encryption', 'retention', 'dead-letter', 'name-scope', 'resource-changes'],
    labels: tf('aws_sqs_queue'),
    instruction: `SQS queue baseline (aws_sqs_queue):
- encrypted at rest: either sqs_managed_sse_enabled = true or a kms_master_key_id set
- message_retention_seconds no more than 4 days (345600 s), data minimisation
- every queue that is not itself a dead-letter queue must have a redrive_policy pointing at its DLQ. A DLQ is a queue whose name ends in "-dlq"; those don't need a redrive policy`,
    check: (o) => {
      const v = tfv(o);
      const enc = v.sqs_managed_sse_enabled === true || (typeof v.kms_master_key_id === 'string' && v.kms_master_key_id.length > 0);
      const ret = (v.message_retention_seconds ?? 345600) <= 345600;
      const dlq = String(v.name).endsWith('-dlq');
      return enc && ret && (dlq || (typeof v.redrive_policy === 'string' && v.redrive_policy.length > 0));
    },
    inputs: [
      {
        name: 'sqs-orders-sse-redrive-4-days',
        expectPassed: true,
        object: tfRes('aws_sqs_queue', 'orders', sqsValues('orders-events', { redrive: redrive('orders-events-dlq') })),
      },
      {
        name: 'sqs-dlq-without-redrive',
        expectPassed: true,
        object: tfRes('aws_sqs_queue', 'orders_dlq', sqsValues('orders-events-dlq', { retention: 345600 })),
      },
      {
        name: 'sqs-retention-14-days',
        expectPassed: false,
        object: tfRes('aws_sqs_queue', 'audit', sqsValues('audit-trail', { retention: 1209600, redrive: redrive('audit-trail-dlq') })),
      },
      {
        name: 'sqs-not-encrypted',
        expectPassed: false,
        object: tfChg('aws_sqs_queue', 'emails', ['create'], null, sqsValues('email-dispatch', { sse: false, redrive: redrive('email-dispatch-dlq') })),
      },
      {
        name: 'sqs-dlq-lookalike-name-no-redrive',
        expectPassed: false,
        object: tfRes('aws_sqs_queue', 'dlq_consumer', sqsValues('payments-dlq-consumer', { retention: 86400 })),
      },
      {
        name: 'sqs-update-switches-to-kms',
        expectPassed: true,
        object: tfChg('aws_sqs_queue', 'invoices', ['update'],
          sqsValues('invoice-jobs', { sse: false, redrive: redrive('invoice-jobs-dlq', 3) }),
          sqsValues('invoice-jobs', { sse: false, kms: 'arn:aws:kms:eu-west-1:123456789012:key/3c2b1a09-8f7e-4d6c-b5a4-39281706f5e4', redrive: redrive('invoice-jobs-dlq', 3) })),
      },
    ],
  },

  // ------------------------------------------------------------------ DynamoDB PITR
  {
    id: 'tf-dynamodb-point-in-time-recovery',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 'dynamodb', 'backups', 'resource-changes'],
    labels: tf('aws_dynamodb_table'),
    instruction: 'dynamodb tables need point-in-time recovery switched on, i.e. a point_in_time_recovery block with enabled = true. that\'s the whole rule',
    check: (o) => tfv(o).point_in_time_recovery?.[0]?.enabled === true,
    inputs: [
      {
        name: 'ddb-pitr-enabled',
        expectPassed: true,
        object: tfRes('aws_dynamodb_table', 'carts', ddbValues('carts', [{ enabled: true }])),
      },
      {
        name: 'ddb-pitr-disabled',
        expectPassed: false,
        object: tfRes('aws_dynamodb_table', 'sessions', ddbValues('sessions', [{ enabled: false }])),
      },
      {
        name: 'ddb-pitr-block-absent-create',
        expectPassed: false,
        object: tfChg('aws_dynamodb_table', 'idempotency_keys', ['create'], null, ddbValues('idempotency-keys')),
      },
      {
        name: 'ddb-update-enables-pitr',
        expectPassed: true,
        object: tfChg('aws_dynamodb_table', 'orders', ['update'], ddbValues('orders', [{ enabled: false }]), ddbValues('orders', [{ enabled: true }])),
      },
      {
        name: 'ddb-update-disables-pitr',
        expectPassed: false,
        object: tfChg('aws_dynamodb_table', 'customers', ['update'], ddbValues('customers', [{ enabled: true }]), ddbValues('customers', [{ enabled: false }])),
      },
    ],
  },

  // ------------------------------------------------------------------ GCP firewall
  {
    id: 'tf-gcp-firewall-no-world-ssh-rdp',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'firewall', 'network-exposure', 'port-ranges', 'cidr'],
    labels: tf('google_compute_firewall'),
    instruction: `GCP firewall rules (google_compute_firewall): no INGRESS rule may open SSH (22) or RDP (3389) to 0.0.0.0/0. Use IAP (35.235.240.0/20) as the source range for admin access instead.
A rule opens a port if one of its allow blocks has protocol "tcp" or "all" and either lists that port, covers it with a range such as "20-25", or has no ports at all (= every port).
EGRESS rules are not affected, and neither are deny blocks.`,
    check: (o) => {
      const v = tfv(o);
      if ((v.direction ?? 'INGRESS') !== 'INGRESS' || !(v.source_ranges ?? []).includes('0.0.0.0/0')) return true;
      const covers = (spec, port) => {
        const [a, b] = String(spec).split('-').map(Number);
        return port >= a && port <= (b ?? a);
      };
      return !(v.allow ?? []).some((a) => ['tcp', 'all'].includes(a.protocol)
        && ((a.ports ?? []).length === 0 || a.ports.some((p) => covers(p, 22) || covers(p, 3389))));
    },
    inputs: [
      {
        name: 'fw-ssh-from-iap-range',
        expectPassed: true,
        object: tfRes('google_compute_firewall', 'allow_iap_ssh', fw('allow-iap-ssh', { src: ['35.235.240.0/20'], allow: [{ protocol: 'tcp', ports: ['22'] }] })),
      },
      {
        name: 'fw-ssh-from-world',
        expectPassed: false,
        object: tfRes('google_compute_firewall', 'allow_ssh', fw('allow-ssh', { allow: [{ protocol: 'tcp', ports: ['22'] }] })),
      },
      {
        name: 'fw-world-range-20-25',
        expectPassed: false,
        object: tfChg('google_compute_firewall', 'legacy_ftp', ['create'], null, fw('legacy-ftp', { allow: [{ protocol: 'tcp', ports: ['20-25', '990'] }] })),
      },
      {
        name: 'fw-world-https-only',
        expectPassed: true,
        object: tfRes('google_compute_firewall', 'allow_https', fw('allow-https', { allow: [{ protocol: 'tcp', ports: ['443'] }, { protocol: 'udp', ports: ['443'] }] })),
      },
      {
        name: 'fw-world-all-protocols',
        expectPassed: false,
        object: tfChg('google_compute_firewall', 'debug_open', ['update'],
          fw('debug-open', { src: ['10.0.0.0/8'], allow: [{ protocol: 'all', ports: [] }] }),
          fw('debug-open', { src: ['10.0.0.0/8', '0.0.0.0/0'], allow: [{ protocol: 'all', ports: [] }] })),
      },
      {
        name: 'fw-egress-to-world-port-22',
        expectPassed: true,
        object: tfRes('google_compute_firewall', 'egress_git_ssh', fw('egress-git-ssh', { direction: 'EGRESS', dst: ['0.0.0.0/0'], allow: [{ protocol: 'tcp', ports: ['22'] }] })),
      },
    ],
  },

  // ------------------------------------------------------------------ Azure Linux web app
  {
    id: 'tf-azure-linux-web-app-transport',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'app-service', 'tls', 'ftp', 'resource-changes'],
    labels: tf('azurerm_linux_web_app'),
    instruction: `App Service baseline for azurerm_linux_web_app
- https_only = true
- site_config.minimum_tls_version must be "1.2" or "1.3"
- site_config.ftps_state must be Disabled or FtpsOnly; AllAllowed lets plain FTP (and plaintext credentials) in`,
    check: (o) => {
      const v = tfv(o);
      const s = v.site_config?.[0] ?? {};
      return v.https_only === true && ['1.2', '1.3'].includes(s.minimum_tls_version) && ['Disabled', 'FtpsOnly'].includes(s.ftps_state);
    },
    inputs: [
      {
        name: 'webapp-compliant',
        expectPassed: true,
        object: tfRes('azurerm_linux_web_app', 'portal', webApp()),
      },
      {
        name: 'webapp-http-allowed',
        expectPassed: false,
        object: tfRes('azurerm_linux_web_app', 'status', webApp({ name: 'acme-status-prod', https: false })),
      },
      {
        name: 'webapp-tls-1-1',
        expectPassed: false,
        object: tfChg('azurerm_linux_web_app', 'partner_api', ['create'], null, webApp({ name: 'acme-partner-api', tls: '1.1' })),
      },
      {
        name: 'webapp-ftps-all-allowed',
        expectPassed: false,
        object: tfRes('azurerm_linux_web_app', 'cms', webApp({ name: 'acme-cms-prod', ftps: 'AllAllowed' })),
      },
      {
        name: 'webapp-update-tls13-ftps-only',
        expectPassed: true,
        object: tfChg('azurerm_linux_web_app', 'portal', ['update'], webApp({ tls: '1.0', ftps: 'AllAllowed' }), webApp({ tls: '1.3', ftps: 'FtpsOnly' })),
      },
    ],
  },

  // ------------------------------------------------------------------ whole plan: forbidden resource types
  {
    id: 'tf-plan-forbidden-iam-user-types',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'plan', 'forbidden-resources', 'iam', 'child-modules', 'deletes'],
    labels: tf('plan'),
    instruction: `CLOUD-SEC-11 Terraform plan guardrail

A plan (terraform show -json output) must not contain any of these resource types in its planned state, in the root module or in any child module however deeply nested:
  aws_iam_user, aws_iam_access_key, aws_iam_user_policy_attachment, aws_default_vpc
That covers resources being created, updated or simply kept unchanged. Long-lived IAM users and their keys go through the identity team's separate process, and nobody should be adopting the default VPC.
A plan that deletes one of these is fine (that's the direction we want), so a resource that is being destroyed doesn't count. All other resource types are out of scope.`,
    check: (o) => planResources(o).every((r) => !FORBIDDEN.includes(r.type)),
    inputs: [
      {
        name: 'plan-iam-user-in-root',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_iam_user', name: 'jenkins', action: 'create', values: { name: 'jenkins', path: '/service/', force_destroy: false, tags: { Team: 'ci' } } },
          { type: 'aws_iam_role', name: 'app', action: 'no-op', values: iamRole('app') },
        ]),
      },
      {
        name: 'plan-access-key-nested-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'artifacts', module: 'module.ci', action: 'create', values: { bucket: 'acme-ci-artifacts', force_destroy: false, tags: { Team: 'ci' } } },
          { type: 'aws_iam_access_key', name: 'uploader', module: 'module.ci.module.bootstrap', action: 'create', values: { user: 'artifact-uploader', status: 'Active', pgp_key: null } },
        ]),
      },
      {
        name: 'plan-deletes-iam-user-and-key',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_iam_user', name: 'legacy_deployer', action: 'delete', values: { name: 'legacy-deployer', path: '/', force_destroy: true, tags: {} } },
          { type: 'aws_iam_access_key', name: 'legacy_deployer', action: 'delete', values: { user: 'legacy-deployer', status: 'Active', pgp_key: null } },
          { type: 'aws_iam_role', name: 'deployer', action: 'create', values: iamRole('deployer') },
        ]),
      },
      {
        name: 'plan-default-vpc-unchanged',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_default_vpc', name: 'default', module: 'module.network', action: 'no-op', values: { enable_dns_hostnames: true, enable_dns_support: true, force_destroy: false, tags: { Name: 'Default VPC' } } },
          { type: 'aws_vpc', name: 'main', module: 'module.network', action: 'update', before: { cidr_block: '10.20.0.0/16', enable_dns_hostnames: false, tags: { Name: 'main' } }, values: { cidr_block: '10.20.0.0/16', enable_dns_hostnames: true, tags: { Name: 'main' } } },
        ]),
      },
      {
        name: 'plan-iam-group-lookalikes',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_iam_group', name: 'auditors', action: 'create', values: { name: 'auditors', path: '/' } },
          { type: 'aws_iam_group_policy_attachment', name: 'auditors_ro', action: 'create', values: { group: 'auditors', policy_arn: 'arn:aws:iam::aws:policy/SecurityAudit' } },
          { type: 'aws_iam_policy', name: 'user_self_service', module: 'module.identity', action: 'create', values: { name: 'user-self-service', path: '/', policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['iam:ChangePassword'], Resource: 'arn:aws:iam::*:user/${aws:username}' }] }) } },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ whole plan: Lambda architecture + memory
  {
    id: 'tf-plan-lambda-graviton-memory',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'plan', 'lambda', 'cost', 'tag-exemption', 'child-modules', 'deletes'],
    labels: tf('plan'),
    instruction:
      'Cost guardrail for plans: every aws_lambda_function in the planned state, wherever it sits in the module tree, must run on Graviton, i.e. architectures = ["arm64"]. The only exception is a function tagged arch-exception = "x86" (native deps that won\'t build for ARM). Separately, memory_size must be 3008 MB or less for every function, exception or not. Functions that the plan deletes don\'t matter, and other resource types are ignored.',
    check: (o) => planResources(o).filter((r) => r.type === 'aws_lambda_function').every((r) => {
      const v = r.values ?? {};
      const arm = Array.isArray(v.architectures) && v.architectures.length === 1 && v.architectures[0] === 'arm64';
      return (arm || v.tags?.['arch-exception'] === 'x86') && (v.memory_size ?? 128) <= 3008;
    }),
    inputs: [
      {
        name: 'plan-lambdas-arm64-root-and-module',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'thumbnailer', action: 'create', values: lambda('thumbnailer', { mem: 3008 }) },
          { type: 'aws_lambda_function', name: 'order_webhook', module: 'module.orders', action: 'update', before: lambda('order-webhook', { arch: ['x86_64'] }), values: lambda('order-webhook') },
          { type: 'aws_cloudwatch_log_group', name: 'thumbnailer', action: 'create', values: { name: '/aws/lambda/thumbnailer', retention_in_days: 30 } },
        ]),
      },
      {
        name: 'plan-x86-without-tag-in-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'pdf_render', module: 'module.documents.module.render', action: 'create', values: lambda('pdf-render', { arch: ['x86_64'], mem: 2048 }) },
        ]),
      },
      {
        name: 'plan-x86-with-exception-tag',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'ocr', action: 'create', values: lambda('ocr', { arch: ['x86_64'], mem: 2048, tags: { Team: 'documents', 'arch-exception': 'x86' } }) },
          { type: 'aws_lambda_function', name: 'index', action: 'no-op', values: lambda('index') },
        ]),
      },
      {
        name: 'plan-arm64-memory-4096',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'report_builder', module: 'module.reports', action: 'update', before: lambda('report-builder', { mem: 2048 }), values: lambda('report-builder', { mem: 4096 }) },
        ]),
      },
      {
        name: 'plan-deletes-x86-function',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'legacy_resizer', action: 'delete', values: lambda('legacy-resizer', { arch: ['x86_64'], mem: 10240 }) },
          { type: 'aws_lambda_function', name: 'resizer', action: 'create', values: lambda('resizer') },
        ]),
      },
      {
        name: 'plan-exception-tag-wrong-value',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'ffmpeg_transcode', module: 'module.media', action: 'create', values: lambda('ffmpeg-transcode', { arch: ['x86_64'], mem: 3008, tags: { Team: 'media', 'arch-exception': 'true' } }) },
        ]),
      },
    ],
  },
];
