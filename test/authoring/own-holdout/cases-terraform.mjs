// Terraform cases (own holdout): single planned resources, resource_changes entries and whole
// `terraform show -json` plans.
import { tf, tfRes, tfChg, tfPlan, tfv, planResources, planChanges } from './lib.mjs';

// ---------------------------------------------------------------- value builders
const versioning = (bucket, status) => ({ bucket, expected_bucket_owner: '', mfa: null, versioning_configuration: [{ mfa_delete: '', status }] });

const ec2 = (type, { tokens = 'required', encrypted = true, metadata = true } = {}) => ({
  ami: 'ami-0c1a7f89451184c8b',
  instance_type: type,
  associate_public_ip_address: false,
  subnet_id: 'subnet-0a12b34c56d78e90f',
  vpc_security_group_ids: ['sg-0123456789abcdef0'],
  ebs_optimized: true,
  monitoring: true,
  metadata_options: metadata ? [{ http_endpoint: 'enabled', http_protocol_ipv6: 'disabled', http_put_response_hop_limit: 1, http_tokens: tokens, instance_metadata_tags: 'disabled' }] : [],
  root_block_device: [{ delete_on_termination: true, encrypted, tags: null, volume_size: 30, volume_type: 'gp3' }],
  tags: { Name: `app-${type.replace('.', '-')}`, Team: 'platform' },
  tags_all: { Name: `app-${type.replace('.', '-')}`, Team: 'platform' },
});

const rds = (identifier, over = {}) => ({
  identifier,
  engine: 'postgres',
  engine_version: '16.2',
  instance_class: 'db.r6g.large',
  allocated_storage: 200,
  storage_type: 'gp3',
  storage_encrypted: true,
  publicly_accessible: false,
  backup_retention_period: 14,
  backup_window: '02:00-03:00',
  deletion_protection: true,
  multi_az: true,
  db_subnet_group_name: 'data-private',
  username: 'app_admin',
  skip_final_snapshot: false,
  final_snapshot_identifier: `${identifier}-final`,
  tags: { Service: identifier },
  ...over,
});

const ing = (from, to, cidr = [], ipv6 = [], description = '') => ({ cidr_blocks: cidr, description, from_port: from, ipv6_cidr_blocks: ipv6, prefix_list_ids: [], protocol: 'tcp', security_groups: [], self: false, to_port: to });
const sg = (name, ingress) => ({
  name,
  description: `${name} security group`,
  vpc_id: 'vpc-0f1e2d3c4b5a69788',
  ingress,
  egress: [{ cidr_blocks: ['0.0.0.0/0'], description: '', from_port: 0, ipv6_cidr_blocks: [], prefix_list_ids: [], protocol: '-1', security_groups: [], self: false, to_port: 0 }],
  revoke_rules_on_delete: false,
  tags: { Name: name },
  tags_all: { Name: name },
  timeouts: null,
});

const gcs = (name, location, { ubla = true, pap = 'enforced', labels = { 'data-classification': 'internal', team: 'data-platform' } } = {}) => ({
  name,
  location,
  project: 'acme-data-eu',
  storage_class: 'STANDARD',
  force_destroy: false,
  uniform_bucket_level_access: ubla,
  public_access_prevention: pap,
  labels,
  effective_labels: { ...labels, goog_terraform_provisioned: 'true' },
  terraform_labels: { ...labels, goog_terraform_provisioned: 'true' },
  versioning: [{ enabled: true }],
  lifecycle_rule: [],
  retention_policy: [],
  timeouts: null,
});

const azsa = (name, over = {}, https = { https_traffic_only_enabled: true }) => ({
  name,
  resource_group_name: 'rg-data-weu',
  location: 'westeurope',
  account_kind: 'StorageV2',
  account_tier: 'Standard',
  account_replication_type: 'GRS',
  access_tier: 'Hot',
  min_tls_version: 'TLS1_2',
  allow_nested_items_to_be_public: false,
  shared_access_key_enabled: true,
  public_network_access_enabled: false,
  ...https,
  tags: { environment: 'prod', owner: 'data-team' },
  ...over,
});

const iam = (name, statements) => ({
  name,
  path: '/',
  description: `${name} policy`,
  policy: JSON.stringify({ Version: '2012-10-17', Statement: statements }),
  tags: { ManagedBy: 'terraform' },
  tags_all: { ManagedBy: 'terraform' },
});

const nsgRule = (name, priority, direction, access, port, source) => ({
  name,
  resource_group_name: 'rg-web-neu',
  network_security_group_name: 'nsg-web-neu',
  priority,
  direction,
  access,
  protocol: 'Tcp',
  source_port_range: '*',
  destination_port_range: port,
  source_address_prefix: source,
  destination_address_prefix: '*',
  description: '',
  timeouts: null,
});

const kms = (description, over = {}) => ({ description, enable_key_rotation: true, deletion_window_in_days: 30, key_usage: 'ENCRYPT_DECRYPT', customer_master_key_spec: 'SYMMETRIC_DEFAULT', is_enabled: true, multi_region: false, tags: { Team: 'security' }, ...over });

const lambda = (function_name, over = {}) => ({
  function_name,
  role: 'arn:aws:iam::123456789012:role/lambda-exec',
  package_type: 'Zip',
  handler: 'app.handler',
  runtime: 'python3.12',
  memory_size: 512,
  timeout: 30,
  architectures: ['arm64'],
  s3_bucket: 'acme-lambda-artifacts',
  s3_key: `${function_name}/build.zip`,
  environment: [{ variables: { LOG_LEVEL: 'info' } }],
  tracing_config: [{ mode: 'Active' }],
  tags: { Service: function_name },
  ...over,
});

const nodePool = (name, { repair = true, upgrade = true, sa = 'gke-nodes@acme-prod.iam.gserviceaccount.com', disk = 100 } = {}) => ({
  name,
  cluster: 'prod-eu-1',
  location: 'europe-west1',
  project: 'acme-prod',
  node_count: 3,
  autoscaling: [{ min_node_count: 1, max_node_count: 6, location_policy: 'BALANCED', total_min_node_count: null, total_max_node_count: null }],
  management: [{ auto_repair: repair, auto_upgrade: upgrade }],
  node_config: [{
    machine_type: 'e2-standard-4',
    disk_size_gb: disk,
    disk_type: 'pd-balanced',
    image_type: 'COS_CONTAINERD',
    service_account: sa,
    oauth_scopes: ['https://www.googleapis.com/auth/cloud-platform'],
    labels: { pool: name },
    metadata: { 'disable-legacy-endpoints': 'true' },
    shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: true }],
    workload_metadata_config: [{ mode: 'GKE_METADATA' }],
  }],
  timeouts: null,
});

// ---------------------------------------------------------------- plan builders
const bucket = (name, tags) => ({ bucket: name, force_destroy: false, object_lock_enabled: false, tags, tags_all: tags, timeouts: null });
const pab = (name, over = {}) => ({ bucket: name, block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true, ...over });
const role = (name) => ({ name, assume_role_policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] }), path: '/', tags: null, max_session_duration: 3600 });

export default [
  // ------------------------------------------------------------------ T1
  {
    id: 'tf-s3-versioning-enabled',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 's3', 'versioning', 'resource-changes'],
    labels: tf('aws_s3_bucket_versioning'),
    instruction: 'S3 versioning must be switched on: every aws_s3_bucket_versioning resource needs versioning_configuration.status = "Enabled". Suspended or Disabled both fail.',
    check: (o) => tfv(o).versioning_configuration?.[0]?.status === 'Enabled',
    inputs: [
      { name: 'planned-enabled', expectPassed: true, object: tfRes('aws_s3_bucket_versioning', 'invoices', versioning('acme-invoices-prod', 'Enabled')) },
      { name: 'planned-suspended', expectPassed: false, object: tfRes('aws_s3_bucket_versioning', 'scratch', versioning('acme-scratch', 'Suspended')) },
      { name: 'update-suspended-to-enabled', expectPassed: true, object: tfChg('aws_s3_bucket_versioning', 'exports', ['update'], { ...versioning('acme-exports', 'Suspended'), id: 'acme-exports' }, { ...versioning('acme-exports', 'Enabled'), id: 'acme-exports' }) },
      { name: 'create-disabled', expectPassed: false, object: tfChg('aws_s3_bucket_versioning', 'tmp', ['create'], null, versioning('acme-build-tmp', 'Disabled')) },
    ],
  },

  // ------------------------------------------------------------------ T2
  {
    id: 'tf-ec2-imdsv2-families-encrypted-root',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'ec2', 'multi-requirement', 'allowlist', 'missing-field', 'nested-blocks', 'resource-changes'],
    labels: tf('aws_instance'),
    instruction:
      'EC2 guardrails for aws_instance:\n' +
      '- IMDSv2 only: metadata_options.http_tokens must be "required". No metadata_options block means IMDSv1 is allowed, so that fails.\n' +
      '- instance types from the t3, m6i or c6i families only (t3.medium, m6i.2xlarge, c6i.large, ...)\n' +
      '- the root volume has to be encrypted (root_block_device.encrypted = true)',
    check: (o) => {
      const v = tfv(o);
      return v.metadata_options?.[0]?.http_tokens === 'required' && ['t3', 'm6i', 'c6i'].includes(String(v.instance_type).split('.')[0]) && v.root_block_device?.[0]?.encrypted === true;
    },
    inputs: [
      { name: 'planned-t3-compliant', expectPassed: true, object: tfRes('aws_instance', 'bastion', ec2('t3.medium')) },
      { name: 'create-m5-family', expectPassed: false, object: tfChg('aws_instance', 'worker', ['create'], null, ec2('m5.large')) },
      { name: 'planned-no-metadata-options', expectPassed: false, object: tfRes('aws_instance', 'builder', ec2('c6i.xlarge', { metadata: false })) },
      { name: 'update-enforces-imdsv2', expectPassed: true, object: tfChg('aws_instance', 'api', ['update'], { ...ec2('m6i.large', { tokens: 'optional' }), id: 'i-0ab12cd34ef567890' }, { ...ec2('m6i.large'), id: 'i-0ab12cd34ef567890' }) },
      { name: 'planned-unencrypted-root', expectPassed: false, object: tfRes('aws_instance', 'legacy', ec2('m6i.large', { encrypted: false })) },
    ],
  },

  // ------------------------------------------------------------------ T3
  {
    id: 'tf-rds-baseline-prod-extras',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'rds', 'multi-requirement', 'conditional', 'name-prefix', 'numeric-bounds', 'boundary', 'resource-changes'],
    labels: tf('aws_db_instance'),
    instruction:
      'RDS (aws_db_instance) baseline:\n' +
      '* storage_encrypted must be true and publicly_accessible must be false, everywhere\n' +
      '* backup_retention_period of at least 7 days\n' +
      '* production databases (identifier starts with prod-) additionally need deletion_protection = true and multi_az = true',
    check: (o) => {
      const v = tfv(o);
      if (v.storage_encrypted !== true || v.publicly_accessible !== false || !(v.backup_retention_period >= 7)) return false;
      if (String(v.identifier).startsWith('prod-')) return v.deletion_protection === true && v.multi_az === true;
      return true;
    },
    inputs: [
      { name: 'prod-compliant', expectPassed: true, object: tfRes('aws_db_instance', 'orders', rds('prod-orders')) },
      { name: 'staging-relaxed-at-7-days', expectPassed: true, object: tfRes('aws_db_instance', 'orders_staging', rds('staging-orders', { deletion_protection: false, multi_az: false, backup_retention_period: 7, instance_class: 'db.t4g.medium' })) },
      { name: 'prod-retention-5', expectPassed: false, object: tfRes('aws_db_instance', 'billing', rds('prod-billing', { backup_retention_period: 5 })) },
      { name: 'update-prod-drops-deletion-protection', expectPassed: false, object: tfChg('aws_db_instance', 'ledger', ['update'], { ...rds('prod-ledger'), id: 'db-ABCDEFGHIJKLMNOP' }, { ...rds('prod-ledger', { deletion_protection: false }), id: 'db-ABCDEFGHIJKLMNOP' }) },
      { name: 'create-staging-public', expectPassed: false, object: tfChg('aws_db_instance', 'reports', ['create'], null, rds('staging-reports', { publicly_accessible: true, deletion_protection: false, multi_az: false })) },
      { name: 'prod-single-az', expectPassed: false, object: tfRes('aws_db_instance', 'analytics', rds('prod-analytics', { multi_az: false })) },
    ],
  },

  // ------------------------------------------------------------------ T4
  {
    id: 'tf-security-group-internet-only-web-ports',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'security-group', 'networking', 'cidr', 'arrays', 'conditional', 'resource-changes'],
    labels: tf('aws_security_group'),
    instruction:
      'Security groups (aws_security_group with inline ingress blocks): nothing may be reachable from the whole internet (0.0.0.0/0 or ::/0) except HTTP and HTTPS. ' +
      'An internet-facing ingress rule is only OK if it covers exactly port 80 or exactly port 443 (from_port = to_port = 80, or 443). So SSH, RDP, database ports and port ranges open to the world all fail. ' +
      'Rules from private ranges can use any port.',
    check: (o) =>
      (tfv(o).ingress ?? []).every((r) => {
        const world = (r.cidr_blocks ?? []).includes('0.0.0.0/0') || (r.ipv6_cidr_blocks ?? []).includes('::/0');
        return !world || (r.from_port === r.to_port && [80, 443].includes(r.from_port));
      }),
    inputs: [
      { name: 'https-world-postgres-private', expectPassed: true, object: tfRes('aws_security_group', 'web', sg('web-alb', [ing(443, 443, ['0.0.0.0/0'], [], 'https'), ing(5432, 5432, ['10.0.0.0/16'], [], 'postgres from vpc')])) },
      { name: 'ssh-world', expectPassed: false, object: tfRes('aws_security_group', 'bastion', sg('bastion', [ing(22, 22, ['0.0.0.0/0'], [], 'ssh')])) },
      { name: 'create-all-ports-ipv6-world', expectPassed: false, object: tfChg('aws_security_group', 'debug', ['create'], null, sg('debug', [ing(0, 65535, [], ['::/0'])])) },
      { name: 'http-world-v4-and-v6', expectPassed: true, object: tfRes('aws_security_group', 'public', sg('public-nlb', [ing(80, 80, ['0.0.0.0/0'], ['::/0'], 'http'), ing(443, 443, ['0.0.0.0/0'], ['::/0'], 'https')])) },
      { name: 'update-closes-rdp', expectPassed: true, object: tfChg('aws_security_group', 'windows', ['update'], { ...sg('windows-jump', [ing(3389, 3389, ['0.0.0.0/0'])]), id: 'sg-0aa11bb22cc33dd44' }, { ...sg('windows-jump', [ing(3389, 3389, ['10.1.0.0/16'])]), id: 'sg-0aa11bb22cc33dd44' }) },
      { name: 'alt-http-8080-world', expectPassed: false, object: tfRes('aws_security_group', 'app', sg('app', [ing(8080, 8080, ['0.0.0.0/0'], [], 'app http')])) },
    ],
  },

  // ------------------------------------------------------------------ T5
  {
    id: 'tf-gcs-bucket-eu-residency',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'gcs', 'multi-requirement', 'data-residency', 'labels', 'resource-changes'],
    labels: tf('google_storage_bucket'),
    instruction:
      'google_storage_bucket rules for the centralised EU data platform (GDPR residency, see DPA-12):\n' +
      '- uniform_bucket_level_access = true\n' +
      '- public_access_prevention = "enforced"\n' +
      '- location must be the EU multi-region or a europe-* region (the provider upper-cases locations, so EU, EUROPE-WEST2 and so on)\n' +
      '- labels must include data-classification',
    check: (o) => {
      const v = tfv(o);
      const loc = String(v.location ?? '').toUpperCase();
      return v.uniform_bucket_level_access === true && v.public_access_prevention === 'enforced' && (loc === 'EU' || loc.startsWith('EUROPE-')) && typeof v.labels?.['data-classification'] === 'string';
    },
    inputs: [
      { name: 'eu-multi-region', expectPassed: true, object: tfRes('google_storage_bucket', 'raw', gcs('acme-raw-events', 'EU')) },
      { name: 'create-europe-west2', expectPassed: true, object: tfChg('google_storage_bucket', 'curated', ['create'], null, gcs('acme-curated-uk', 'EUROPE-WEST2')) },
      { name: 'us-location', expectPassed: false, object: tfRes('google_storage_bucket', 'exports', gcs('acme-exports', 'US')) },
      { name: 'pap-inherited', expectPassed: false, object: tfRes('google_storage_bucket', 'share', gcs('acme-partner-share', 'EU', { pap: 'inherited' })) },
      { name: 'classification-label-missing', expectPassed: false, object: tfRes('google_storage_bucket', 'ml', gcs('acme-ml-features', 'EUROPE-WEST4', { labels: { team: 'ml' } })) },
    ],
  },

  // ------------------------------------------------------------------ T6
  {
    id: 'tf-azure-storage-account-baseline',
    difficulty: 'hard',
    topics: ['terraform', 'azure', 'storage-account', 'multi-requirement', 'name-variants', 'conditional', 'tags'],
    labels: tf('azurerm_storage_account'),
    instruction:
      'azurerm_storage_account baseline:\n' +
      '1. min_tls_version = TLS1_2\n' +
      '2. HTTPS-only traffic: https_traffic_only_enabled = true (on azurerm < 4.0 the attribute is called enable_https_traffic_only; either name is fine, whichever one the plan has)\n' +
      '3. allow_nested_items_to_be_public = false\n' +
      '4. accounts tagged environment = prod must not use LRS replication (account_replication_type)',
    check: (o) => {
      const v = tfv(o);
      const https = v.https_traffic_only_enabled ?? v.enable_https_traffic_only;
      if (v.min_tls_version !== 'TLS1_2' || https !== true || v.allow_nested_items_to_be_public !== false) return false;
      return !(v.tags?.environment === 'prod' && v.account_replication_type === 'LRS');
    },
    inputs: [
      { name: 'v4-attr-prod-grs', expectPassed: true, object: tfRes('azurerm_storage_account', 'lake', azsa('acmelakeprod')) },
      { name: 'v3-attr-dev-lrs', expectPassed: true, object: tfRes('azurerm_storage_account', 'scratch', azsa('acmescratchdev', { account_replication_type: 'LRS', tags: { environment: 'dev' } }, { enable_https_traffic_only: true })) },
      { name: 'tls-1-0', expectPassed: false, object: tfRes('azurerm_storage_account', 'legacy', azsa('acmelegacyprod', { min_tls_version: 'TLS1_0' })) },
      { name: 'prod-lrs', expectPassed: false, object: tfChg('azurerm_storage_account', 'logs', ['create'], null, azsa('acmelogsprod', { account_replication_type: 'LRS' })) },
      { name: 'nested-items-public', expectPassed: false, object: tfRes('azurerm_storage_account', 'assets', azsa('acmeassetsprod', { allow_nested_items_to_be_public: true })) },
      { name: 'https-only-off', expectPassed: false, object: tfRes('azurerm_storage_account', 'ftp', azsa('acmeftpdrop', { tags: { environment: 'staging' } }, { https_traffic_only_enabled: false })) },
    ],
  },

  // ------------------------------------------------------------------ T7
  {
    id: 'tf-iam-policy-no-service-wildcards',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'iam', 'json-string', 'wildcards', 'arrays', 'conditional', 'resource-changes'],
    labels: tf('aws_iam_policy'),
    instruction:
      'No admin-style IAM policies. In an aws_iam_policy document, an Allow statement may not use Action "*" or a whole-service wildcard like "s3:*" or "iam:*" (Action can be a single string or a list). ' +
      'Narrower wildcards such as ec2:Describe* are fine, and Deny statements can use whatever they like.',
    check: (o) => {
      const doc = JSON.parse(tfv(o).policy);
      const stmts = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
      return stmts.every((s) => s.Effect !== 'Allow' || [s.Action ?? []].flat().every((a) => a !== '*' && !/^[A-Za-z0-9-]+:\*$/.test(a)));
    },
    inputs: [
      { name: 'read-one-bucket', expectPassed: true, object: tfRes('aws_iam_policy', 'reader', iam('invoice-reader', [{ Sid: 'Read', Effect: 'Allow', Action: ['s3:GetObject', 's3:ListBucket'], Resource: ['arn:aws:s3:::acme-invoices', 'arn:aws:s3:::acme-invoices/*'] }])) },
      { name: 'star-star', expectPassed: false, object: tfRes('aws_iam_policy', 'break_glass', iam('break-glass', [{ Effect: 'Allow', Action: '*', Resource: '*' }])) },
      { name: 'create-list-with-s3-star', expectPassed: false, object: tfChg('aws_iam_policy', 'etl', ['create'], null, iam('etl-s3', [{ Effect: 'Allow', Action: ['s3:GetObject', 's3:*'], Resource: 'arn:aws:s3:::acme-etl/*' }])) },
      {
        name: 'deny-star-and-describe-star',
        expectPassed: true,
        object: tfRes('aws_iam_policy', 'guard', iam('region-guard', [
          { Sid: 'DenyOutsideEU', Effect: 'Deny', Action: '*', Resource: '*', Condition: { StringNotEquals: { 'aws:RequestedRegion': ['eu-west-1', 'eu-central-1'] } } },
          { Sid: 'Describe', Effect: 'Allow', Action: 'ec2:Describe*', Resource: '*' },
        ])),
      },
      {
        name: 'update-to-iam-star',
        expectPassed: false,
        object: tfChg('aws_iam_policy', 'ops', ['update'],
          { ...iam('ops-iam', [{ Effect: 'Allow', Action: 'iam:GetRole', Resource: '*' }]), id: 'arn:aws:iam::123456789012:policy/ops-iam', arn: 'arn:aws:iam::123456789012:policy/ops-iam' },
          { ...iam('ops-iam', [{ Effect: 'Allow', Action: 'iam:*', Resource: '*' }]), id: 'arn:aws:iam::123456789012:policy/ops-iam', arn: 'arn:aws:iam::123456789012:policy/ops-iam' }),
      },
    ],
  },

  // ------------------------------------------------------------------ T8
  {
    id: 'tf-plan-no-destroy-stateful',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'plan', 'resource-changes', 'delete', 'replace', 'modules'],
    labels: tf('plan'),
    instruction:
      'Change policy for terraform plans: a plan must not destroy or replace any aws_db_instance, aws_rds_cluster, aws_dynamodb_table or aws_s3_bucket. ' +
      'That includes replacements in either order (delete-then-create or create-before-destroy) and resources inside modules. ' +
      'Destroying anything else (security group rules, IAM attachments, ...) is fine, and so are creates and in-place updates.',
    check: (o) => planChanges(o).every((rc) => !(['aws_db_instance', 'aws_rds_cluster', 'aws_dynamodb_table', 'aws_s3_bucket'].includes(rc.type) && rc.change.actions.includes('delete'))),
    inputs: [
      {
        name: 'creates-and-inplace-db-update',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'orders', action: 'update', before: rds('prod-orders', { instance_class: 'db.r6g.large' }), values: rds('prod-orders', { instance_class: 'db.r6g.xlarge' }) },
          { type: 'aws_s3_bucket', name: 'exports', action: 'create', values: bucket('acme-exports', { Owner: 'data', DataClass: 'internal' }) },
          { type: 'aws_security_group', name: 'db', action: 'no-op', values: sg('orders-db', [ing(5432, 5432, ['10.0.0.0/16'])]) },
        ]),
      },
      {
        name: 'deletes-bucket-in-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_iam_role', name: 'shipper', action: 'create', values: role('log-shipper') },
          { type: 'aws_s3_bucket', name: 'archive', module: 'module.logs', action: 'delete', values: bucket('acme-logs-archive', { Owner: 'sre', DataClass: 'internal' }) },
        ]),
      },
      {
        name: 'replaces-db-instance',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'billing', action: 'replace', before: rds('prod-billing', { engine_version: '15.6', identifier: 'prod-billing' }), values: rds('prod-billing', { engine: 'aurora-postgresql' }) },
        ]),
      },
      {
        name: 'deletes-only-non-stateful',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_security_group_rule', name: 'old_ssh', action: 'delete', values: { type: 'ingress', from_port: 22, to_port: 22, protocol: 'tcp', cidr_blocks: ['10.0.0.0/8'], security_group_id: 'sg-0123456789abcdef0' } },
          { type: 'aws_iam_role_policy_attachment', name: 'legacy', module: 'module.app', action: 'delete', values: { role: 'app', policy_arn: 'arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess' } },
          { type: 'aws_dynamodb_table', name: 'sessions', module: 'module.app', action: 'update', before: { name: 'sessions', billing_mode: 'PROVISIONED', hash_key: 'id' }, values: { name: 'sessions', billing_mode: 'PAY_PER_REQUEST', hash_key: 'id' } },
        ]),
      },
      {
        name: 'create-before-destroy-dynamodb-in-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_dynamodb_table', name: 'carts', module: 'module.shop', action: 'replace-cbd', before: { name: 'carts', billing_mode: 'PAY_PER_REQUEST', hash_key: 'cart_id' }, values: { name: 'carts-v2', billing_mode: 'PAY_PER_REQUEST', hash_key: 'cart_id' } },
          { type: 'aws_lambda_function', name: 'cart_api', module: 'module.shop', action: 'update', before: lambda('cart-api'), values: lambda('cart-api', { environment: [{ variables: { TABLE: 'carts-v2' } }] }) },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ T9
  {
    id: 'tf-plan-s3-public-access-and-tags',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 's3', 'plan', 'modules', 'multi-requirement', 'delete', 'tags'],
    labels: tf('plan'),
    instruction:
      'For every plan: each aws_s3_bucket_public_access_block must set all four flags (block_public_acls, block_public_policy, ignore_public_acls, restrict_public_buckets) to true, ' +
      'and each aws_s3_bucket needs Owner and DataClass tags. This covers the root module and all child modules (nested ones too). ' +
      "Resources being destroyed don't count, they are gone after apply.",
    check: (o) =>
      planResources(o).every((r) => {
        if (r.type === 'aws_s3_bucket_public_access_block') return ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'].every((k) => r.values[k] === true);
        if (r.type === 'aws_s3_bucket') return !!r.values.tags?.Owner && !!r.values.tags?.DataClass;
        return true;
      }),
    inputs: [
      {
        name: 'root-and-module-compliant',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'site', action: 'create', values: bucket('acme-site-assets', { Owner: 'web', DataClass: 'public' }) },
          { type: 'aws_s3_bucket_public_access_block', name: 'site', action: 'create', values: pab('acme-site-assets') },
          { type: 'aws_s3_bucket', name: 'this', module: 'module.audit_logs', action: 'create', values: bucket('acme-audit-logs', { Owner: 'security', DataClass: 'restricted' }) },
          { type: 'aws_s3_bucket_public_access_block', name: 'this', module: 'module.audit_logs', action: 'create', values: pab('acme-audit-logs') },
        ]),
      },
      {
        name: 'module-pab-restrict-false',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'this', module: 'module.partner_drop', action: 'create', values: bucket('acme-partner-drop', { Owner: 'partners', DataClass: 'confidential' }) },
          { type: 'aws_s3_bucket_public_access_block', name: 'this', module: 'module.partner_drop', action: 'create', values: pab('acme-partner-drop', { restrict_public_buckets: false }) },
        ]),
      },
      {
        name: 'root-bucket-without-owner',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'reports', action: 'update', before: bucket('acme-reports', { DataClass: 'internal' }), values: bucket('acme-reports', { DataClass: 'internal', Project: 'q3' }) },
          { type: 'aws_s3_bucket_public_access_block', name: 'reports', action: 'no-op', values: pab('acme-reports') },
        ]),
      },
      {
        name: 'no-s3-resources',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_iam_role', name: 'thumbnailer', action: 'create', values: role('thumbnailer') },
          { type: 'aws_lambda_function', name: 'thumbnailer', action: 'create', values: lambda('thumbnailer') },
        ]),
      },
      {
        name: 'untagged-bucket-being-destroyed',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'old_tmp', action: 'delete', values: bucket('acme-old-tmp', null) },
          { type: 'aws_s3_bucket_public_access_block', name: 'old_tmp', action: 'delete', values: pab('acme-old-tmp', { block_public_policy: false }) },
          { type: 'aws_s3_bucket', name: 'tmp', action: 'create', values: bucket('acme-tmp-v2', { Owner: 'platform', DataClass: 'internal' }) },
          { type: 'aws_s3_bucket_public_access_block', name: 'tmp', action: 'create', values: pab('acme-tmp-v2') },
        ]),
      },
      {
        name: 'nested-module-bucket-missing-dataclass',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'this', module: 'module.lake', action: 'no-op', values: bucket('acme-lake', { Owner: 'data', DataClass: 'internal' }) },
          { type: 'aws_s3_bucket', name: 'this', module: 'module.lake.module.raw_zone', action: 'create', values: bucket('acme-lake-raw', { Owner: 'data' }) },
          { type: 'aws_s3_bucket_public_access_block', name: 'this', module: 'module.lake.module.raw_zone', action: 'create', values: pab('acme-lake-raw') },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ T10
  {
    id: 'tf-plan-cost-tags-via-tags-all',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'plan', 'tags', 'modules', 'format', 'allowlist', 'default-tags'],
    labels: tf('plan'),
    instruction:
      'Tagging standard (FINOPS-204). In the plan, every aws_instance, aws_ebs_volume and aws_lb (root module and modules) must end up with a CostCentre tag like CC-1234 (CC, dash, four digits) ' +
      'and an Environment tag of dev, staging or prod. Tags that come from the provider default_tags count, so judge tags_all (what the resource really gets), not just tags. Other resource types are not in scope.',
    check: (o) =>
      planResources(o).every((r) => {
        if (!['aws_instance', 'aws_ebs_volume', 'aws_lb'].includes(r.type)) return true;
        const t = r.values.tags_all ?? r.values.tags ?? {};
        return /^CC-\d{4}$/.test(t.CostCentre ?? '') && ['dev', 'staging', 'prod'].includes(t.Environment);
      }),
    inputs: (() => {
      const withTags = (v, tags, defaults) => ({ ...v, tags, tags_all: { ...defaults, ...(tags ?? {}) } });
      const defaults = { CostCentre: 'CC-1234', Environment: 'prod' };
      const vol = { availability_zone: 'eu-west-1a', size: 100, type: 'gp3', encrypted: true, iops: 3000, throughput: 125 };
      const alb = { name: 'public-web', internal: false, load_balancer_type: 'application', subnets: ['subnet-0a1', 'subnet-0b2'], enable_deletion_protection: true, drop_invalid_header_fields: true };
      return [
        {
          name: 'instance-tags-from-default-tags',
          expectPassed: true,
          object: tfPlan([
            { type: 'aws_instance', name: 'api', action: 'create', values: withTags(ec2('m6i.large'), { Name: 'api-1' }, defaults) },
            { type: 'aws_ebs_volume', name: 'data', module: 'module.storage', action: 'create', values: withTags(vol, null, defaults) },
          ]),
        },
        {
          name: 'module-volume-environment-production',
          expectPassed: false,
          object: tfPlan([
            { type: 'aws_ebs_volume', name: 'data', module: 'module.storage', action: 'create', values: withTags(vol, { Environment: 'production' }, { CostCentre: 'CC-2002' }) },
          ]),
        },
        {
          name: 'lb-cost-centre-without-prefix',
          expectPassed: false,
          object: tfPlan([
            { type: 'aws_lb', name: 'web', action: 'create', values: withTags(alb, { CostCentre: '1234', Environment: 'staging' }, {}) },
            { type: 'aws_instance', name: 'web', action: 'create', values: withTags(ec2('t3.small'), { Name: 'web-1' }, { CostCentre: 'CC-0001', Environment: 'staging' }) },
          ]),
        },
        {
          name: 'only-out-of-scope-types-untagged',
          expectPassed: true,
          object: tfPlan([
            { type: 'aws_s3_bucket', name: 'misc', action: 'create', values: bucket('acme-misc', null) },
            { type: 'aws_iam_role', name: 'misc', action: 'create', values: role('misc') },
          ]),
        },
        {
          name: 'module-update-fixes-tags',
          expectPassed: true,
          object: tfPlan([
            { type: 'aws_instance', name: 'worker', module: 'module.batch', action: 'update', before: withTags(ec2('c6i.large'), { Name: 'worker' }, {}), values: withTags(ec2('c6i.large'), { Name: 'worker', CostCentre: 'CC-4410', Environment: 'dev' }, {}) },
            { type: 'aws_lb', name: 'internal', module: 'module.batch', action: 'no-op', values: withTags({ ...alb, name: 'batch-internal', internal: true }, { CostCentre: 'CC-4410', Environment: 'dev' }, {}) },
          ]),
        },
      ];
    })(),
  },

  // ------------------------------------------------------------------ T11
  {
    id: 'tf-azure-nsg-no-admin-ports-from-internet',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'network-security-rule', 'networking', 'conditional', 'resource-changes'],
    labels: tf('azurerm_network_security_rule'),
    instruction:
      'azurerm_network_security_rule: inbound Allow rules must not open SSH (22), RDP (3389) or all ports ("*") to the internet, meaning a source_address_prefix of "*", "Internet" or "0.0.0.0/0". ' +
      'Deny rules and outbound rules are out of scope.',
    check: (o) => {
      const v = tfv(o);
      if (v.direction !== 'Inbound' || v.access !== 'Allow' || !['*', 'Internet', '0.0.0.0/0'].includes(v.source_address_prefix)) return true;
      return !['22', '3389', '*'].includes(String(v.destination_port_range));
    },
    inputs: [
      { name: 'https-from-internet', expectPassed: true, object: tfRes('azurerm_network_security_rule', 'https', nsgRule('allow-https', 100, 'Inbound', 'Allow', '443', 'Internet')) },
      { name: 'ssh-from-star', expectPassed: false, object: tfRes('azurerm_network_security_rule', 'ssh', nsgRule('allow-ssh', 110, 'Inbound', 'Allow', '22', '*')) },
      { name: 'deny-rdp-from-internet', expectPassed: true, object: tfRes('azurerm_network_security_rule', 'deny_rdp', nsgRule('deny-rdp', 4000, 'Inbound', 'Deny', '3389', 'Internet')) },
      { name: 'outbound-all-to-internet', expectPassed: true, object: tfRes('azurerm_network_security_rule', 'egress', nsgRule('allow-egress', 200, 'Outbound', 'Allow', '*', '*')) },
      { name: 'create-all-ports-from-anywhere', expectPassed: false, object: tfChg('azurerm_network_security_rule', 'temp', ['create'], null, nsgRule('temp-debug', 120, 'Inbound', 'Allow', '*', '0.0.0.0/0')) },
      { name: 'rdp-from-private-range', expectPassed: true, object: tfRes('azurerm_network_security_rule', 'rdp_vpn', nsgRule('allow-rdp-vpn', 130, 'Inbound', 'Allow', '3389', '10.0.0.0/8')) },
    ],
  },

  // ------------------------------------------------------------------ T12
  {
    id: 'tf-kms-rotation-and-deletion-window',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 'kms', 'numeric-bounds', 'missing-field', 'resource-changes'],
    labels: tf('aws_kms_key'),
    instruction: 'KMS keys (aws_kms_key): enable_key_rotation has to be true, and if deletion_window_in_days is set it must be at least 14. Leaving it unset is fine, AWS uses 30.',
    check: (o) => {
      const v = tfv(o);
      return v.enable_key_rotation === true && (v.deletion_window_in_days == null || v.deletion_window_in_days >= 14);
    },
    inputs: [
      { name: 'rotation-on-window-30', expectPassed: true, object: tfRes('aws_kms_key', 'data', kms('data at rest')) },
      { name: 'rotation-off', expectPassed: false, object: tfRes('aws_kms_key', 'logs', kms('log encryption', { enable_key_rotation: false })) },
      { name: 'window-7-days', expectPassed: false, object: tfRes('aws_kms_key', 'tmp', kms('temporary', { deletion_window_in_days: 7 })) },
      { name: 'window-unset', expectPassed: true, object: tfChg('aws_kms_key', 'sops', ['create'], null, (({ deletion_window_in_days, ...rest }) => rest)(kms('sops secrets'))) },
      { name: 'update-turns-rotation-on-window-14', expectPassed: true, object: tfChg('aws_kms_key', 'backup', ['update'], { ...kms('backups', { enable_key_rotation: false, deletion_window_in_days: 14 }), key_id: 'mrk-0f2c9e1d', id: 'mrk-0f2c9e1d' }, { ...kms('backups', { deletion_window_in_days: 14 }), key_id: 'mrk-0f2c9e1d', id: 'mrk-0f2c9e1d' }) },
    ],
  },

  // ------------------------------------------------------------------ T13
  {
    id: 'tf-lambda-supported-runtimes-and-timeout',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'lambda', 'versions', 'numeric-bounds', 'boundary', 'units', 'conditional', 'resource-changes'],
    labels: tf('aws_lambda_function'),
    instruction:
      'Lambda runtimes (aws_lambda_function): Python functions need python3.10 or newer and Node functions nodejs18.x or newer, so python3.9 and older or nodejs16.x and older fail. ' +
      'Other languages (java, dotnet, provided.al2023) are not affected by the version rule, and container-image functions (package_type = "Image") have no runtime at all and are fine. ' +
      'Separately, timeout can be at most 5 minutes.',
    check: (o) => {
      const v = tfv(o);
      if ((v.timeout ?? 3) > 300) return false;
      const rt = v.runtime;
      if (!rt) return true;
      let m;
      if ((m = /^python(\d+)\.(\d+)$/.exec(rt))) return Number(m[1]) > 3 || (Number(m[1]) === 3 && Number(m[2]) >= 10);
      if ((m = /^nodejs(\d+)\.x$/.exec(rt))) return Number(m[1]) >= 18;
      return true;
    },
    inputs: [
      { name: 'python312-timeout-300', expectPassed: true, object: tfRes('aws_lambda_function', 'resize', lambda('image-resize', { timeout: 300 })) },
      { name: 'python39', expectPassed: false, object: tfRes('aws_lambda_function', 'legacy', lambda('legacy-hook', { runtime: 'python3.9' })) },
      { name: 'node20-timeout-900', expectPassed: false, object: tfRes('aws_lambda_function', 'report', lambda('report-builder', { runtime: 'nodejs20.x', handler: 'index.handler', timeout: 900 })) },
      {
        name: 'container-image-no-runtime',
        expectPassed: true,
        object: tfRes('aws_lambda_function', 'ml', (({ runtime, handler, s3_bucket, s3_key, ...rest }) => ({ ...rest, package_type: 'Image', image_uri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/ml-infer:2.1.0', timeout: 120 }))(lambda('ml-infer'))),
      },
      { name: 'create-node16', expectPassed: false, object: tfChg('aws_lambda_function', 'webhook', ['create'], null, lambda('stripe-webhook', { runtime: 'nodejs16.x', handler: 'index.handler' })) },
      { name: 'java21', expectPassed: true, object: tfRes('aws_lambda_function', 'pdf', lambda('pdf-render', { runtime: 'java21', handler: 'com.acme.pdf.Handler::handleRequest', timeout: 60, memory_size: 2048 })) },
    ],
  },

  // ------------------------------------------------------------------ T14
  {
    id: 'tf-gke-node-pool-management-and-sa',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'gke', 'node-pool', 'multi-requirement', 'nested-blocks', 'numeric-bounds', 'boundary', 'resource-changes'],
    labels: tf('google_container_node_pool'),
    instruction:
      'GKE node pools (google_container_node_pool):\n' +
      '- management block with auto_repair and auto_upgrade both true\n' +
      '- node_config.service_account must be a dedicated service account; the default compute SA (...-compute@developer.gserviceaccount.com) or the literal "default" is not OK\n' +
      '- node_config.disk_size_gb no more than 200',
    check: (o) => {
      const v = tfv(o);
      const m = v.management?.[0];
      const nc = v.node_config?.[0] ?? {};
      const sa = nc.service_account;
      return m?.auto_repair === true && m?.auto_upgrade === true && typeof sa === 'string' && sa !== 'default' && !sa.endsWith('-compute@developer.gserviceaccount.com') && nc.disk_size_gb <= 200;
    },
    inputs: [
      { name: 'compliant-pool', expectPassed: true, object: tfRes('google_container_node_pool', 'general', nodePool('general')) },
      { name: 'auto-upgrade-off', expectPassed: false, object: tfRes('google_container_node_pool', 'pinned', nodePool('pinned', { upgrade: false })) },
      { name: 'default-compute-sa', expectPassed: false, object: tfRes('google_container_node_pool', 'batch', nodePool('batch', { sa: '123456789012-compute@developer.gserviceaccount.com' })) },
      { name: 'create-disk-exactly-200', expectPassed: true, object: tfChg('google_container_node_pool', 'memory', ['create'], null, nodePool('memory-opt', { disk: 200 })) },
      { name: 'disk-500', expectPassed: false, object: tfRes('google_container_node_pool', 'ci', nodePool('ci-runners', { disk: 500 })) },
      { name: 'sa-literal-default', expectPassed: false, object: tfRes('google_container_node_pool', 'legacy', nodePool('legacy', { sa: 'default' })) },
    ],
  },
];
