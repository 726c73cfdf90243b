// Terraform (`terraform show -json`): single planned_values resources, resource_changes
// entries judged on change.after, and whole plans with child modules.
import { tf, tfRes, tfChg, tfPlan, tfv, planResources, planChanges, email } from './lib.mjs';

const tags = (t) => ({ tags: t, tags_all: t });

// ---------------------------------------------------------------- builders for values
const rds = (id, v) => ({
  identifier: id,
  engine: 'postgres',
  engine_version: '16.2',
  instance_class: 'db.r6g.large',
  allocated_storage: 100,
  storage_type: 'gp3',
  storage_encrypted: true,
  publicly_accessible: false,
  backup_retention_period: 7,
  deletion_protection: false,
  multi_az: false,
  db_subnet_group_name: 'private-db',
  skip_final_snapshot: false,
  username: 'app_admin',
  ...v,
});

const rule = (from, to, protocol, cidrs, more = {}) => ({
  cidr_blocks: cidrs,
  description: '',
  from_port: from,
  ipv6_cidr_blocks: [],
  prefix_list_ids: [],
  protocol,
  security_groups: [],
  self: false,
  to_port: to,
  ...more,
});
const ALL_OUT = [rule(0, 0, '-1', ['0.0.0.0/0'])];
const sg = (name, ingress, egress = ALL_OUT) => ({ name, description: `${name} security group`, vpc_id: 'vpc-0a1b2c3d4e5f67890', ingress, egress, revoke_rules_on_delete: false, ...tags({ Team: 'platform' }) });

const gcs = (name, v) => ({
  name,
  location: 'EUROPE-WEST2',
  storage_class: 'STANDARD',
  uniform_bucket_level_access: true,
  public_access_prevention: 'enforced',
  versioning: [{ enabled: true }],
  force_destroy: false,
  labels: { team: 'data' },
  lifecycle_rule: [],
  ...v,
});

const azsa = (name, v) => ({
  name,
  resource_group_name: 'rg-shared-uks',
  location: 'uksouth',
  account_tier: 'Standard',
  account_kind: 'StorageV2',
  account_replication_type: 'LRS',
  min_tls_version: 'TLS1_2',
  enable_https_traffic_only: true,
  allow_nested_items_to_be_public: false,
  public_network_access_enabled: true,
  tags: { environment: 'dev' },
  ...v,
});

const lambda = (name, v) => ({
  function_name: name,
  role: `arn:aws:iam::111122223333:role/${name}-exec`,
  handler: 'app.handler',
  runtime: 'python3.12',
  timeout: 30,
  memory_size: 512,
  package_type: 'Zip',
  architectures: ['arm64'],
  tracing_config: [{ mode: 'Active' }],
  environment: [{ variables: { LOG_LEVEL: 'INFO' } }],
  ...tags({ Service: name }),
  ...v,
});

const policyDoc = (statements) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
const iamPolicy = (name, statement) => ({ name, path: '/', description: `${name} policy`, policy: typeof statement === 'string' ? statement : policyDoc(statement), ...tags({ Team: 'platform' }) });

const gce = (name, v) => ({
  name,
  machine_type: 'e2-standard-4',
  zone: 'europe-west2-b',
  boot_disk: [{ auto_delete: true, initialize_params: [{ image: 'debian-cloud/debian-12', size: 50, type: 'pd-balanced' }] }],
  network_interface: [{ network: 'projects/acme-net/global/networks/shared', subnetwork: 'projects/acme-net/regions/europe-west2/subnetworks/apps', access_config: [] }],
  shielded_instance_config: [{ enable_secure_boot: true, enable_vtpm: true, enable_integrity_monitoring: true }],
  service_account: [{ email: `${name}@acme-apps.iam.gserviceaccount.com`, scopes: ['https://www.googleapis.com/auth/logging.write', 'https://www.googleapis.com/auth/monitoring.write'] }],
  labels: { team: 'platform' },
  metadata: { 'enable-oslogin': 'TRUE' },
  ...v,
});

const logGroup = (name, v) => ({ name, retention_in_days: 90, kms_key_id: '', skip_destroy: false, log_group_class: 'STANDARD', ...tags({ Team: 'platform' }), ...v });
const kms = (desc, v) => ({ description: desc, key_usage: 'ENCRYPT_DECRYPT', customer_master_key_spec: 'SYMMETRIC_DEFAULT', enable_key_rotation: true, deletion_window_in_days: 30, is_enabled: true, multi_region: false, ...tags({ Team: 'security' }), ...v });

// ---------------------------------------------------------------- plan builders
const OK_TAGS = { Owner: 'payments-team@acme.io', CostCentre: '40210', Environment: 'prod' };
const ec2 = (t) => ({ ami: 'ami-0c1a7f89451184c8b', instance_type: 't3.medium', subnet_id: 'subnet-0aa11bb22cc33dd44', ...tags(t) });
const bucket = (name, t) => ({ bucket: name, force_destroy: false, ...tags(t) });
const role = (name) => ({ name, assume_role_policy: policyDoc([{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }]), ...tags({}) });
const fn = (name, t) => ({ ...lambda(name, {}), ...tags(t) });

const TAGGED = new Set(['aws_instance', 'aws_s3_bucket', 'aws_db_instance', 'aws_lambda_function']);
const STATEFUL = new Set(['aws_db_instance', 'aws_rds_cluster', 'aws_dynamodb_table', 'aws_s3_bucket']);
const ddb = (name) => ({ name, billing_mode: 'PAY_PER_REQUEST', hash_key: 'pk', range_key: 'sk', attribute: [{ name: 'pk', type: 'S' }, { name: 'sk', type: 'S' }], point_in_time_recovery: [{ enabled: true }], ...tags({ Team: 'orders' }) });

export default [
  // ------------------------------------------------------------------ RDS baseline
  {
    id: 'tf-rds-encryption-backups-and-prod-extras',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'rds', 'encryption', 'backups', 'conditional'],
    labels: tf('aws_db_instance'),
    instruction: `RDS instances: storage_encrypted must be true, publicly_accessible must never be true, and backup_retention_period has to be at least 7 days. Anything tagged Environment = "prod" additionally needs deletion_protection = true and multi_az = true, and may not use a burstable instance class (db.t2.*, db.t3.*, db.t4g.*).`,
    check(o) {
      const v = tfv(o);
      if (v.storage_encrypted !== true || v.publicly_accessible === true || !(v.backup_retention_period >= 7)) return false;
      if (v.tags?.Environment !== 'prod') return true;
      return v.deletion_protection === true && v.multi_az === true && !/^db\.(t2|t3|t4g)\./.test(v.instance_class);
    },
    inputs: [
      { name: 'dev-burstable-seven-days', expectPassed: true, object: tfRes('aws_db_instance', 'catalogue', rds('catalogue-dev', { instance_class: 'db.t3.medium', ...tags({ Environment: 'dev' }) })) },
      {
        name: 'prod-fully-hardened',
        expectPassed: true,
        object: tfRes('aws_db_instance', 'ledger', rds('ledger-prod', { backup_retention_period: 14, deletion_protection: true, multi_az: true, ...tags({ Environment: 'prod' }) })),
      },
      {
        name: 'prod-on-t4g-change',
        expectPassed: false,
        object: tfChg('aws_db_instance', 'reports', ['create'], null, rds('reports-prod', { instance_class: 'db.t4g.large', deletion_protection: true, multi_az: true, ...tags({ Environment: 'prod' }) })),
      },
      { name: 'unencrypted-storage', expectPassed: false, object: tfRes('aws_db_instance', 'wiki', rds('wiki-staging', { storage_encrypted: false, ...tags({ Environment: 'staging' }) })) },
      { name: 'publicly-accessible', expectPassed: false, object: tfRes('aws_db_instance', 'bi', rds('bi-sandbox', { publicly_accessible: true, ...tags({ Environment: 'dev' }) })) },
      {
        name: 'prod-update-turns-off-deletion-protection',
        expectPassed: false,
        object: tfChg('aws_db_instance', 'orders', ['update'],
          rds('orders-prod', { deletion_protection: true, multi_az: true, ...tags({ Environment: 'prod' }) }),
          rds('orders-prod', { deletion_protection: false, multi_az: true, ...tags({ Environment: 'prod' }) })),
      },
    ],
  },

  // ------------------------------------------------------------------ security groups open to the internet
  {
    id: 'tf-sg-internet-ingress-only-web-ports',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'security-groups', 'cidr', 'ports', 'lists'],
    labels: tf('aws_security_group'),
    instruction: `No security group may accept traffic from the whole internet (0.0.0.0/0 or ::/0) except for plain web traffic. Concretely: an ingress entry whose cidr_blocks contain 0.0.0.0/0 or whose ipv6_cidr_blocks contain ::/0 is only OK if its protocol is "tcp" and its port range is exactly 80-80 or exactly 443-443. Egress isn't covered, and ingress from private ranges / other SGs is fine.`,
    check(o) {
      return (tfv(o).ingress ?? []).every((r) => {
        const world = (r.cidr_blocks ?? []).includes('0.0.0.0/0') || (r.ipv6_cidr_blocks ?? []).includes('::/0');
        return !world || (r.protocol === 'tcp' && r.from_port === r.to_port && [80, 443].includes(r.from_port));
      });
    },
    inputs: [
      { name: 'https-world-ssh-private', expectPassed: true, object: tfRes('aws_security_group', 'alb', sg('public-alb', [rule(443, 443, 'tcp', ['0.0.0.0/0']), rule(22, 22, 'tcp', ['10.0.0.0/8'])])) },
      { name: 'ssh-from-world', expectPassed: false, object: tfRes('aws_security_group', 'bastion', sg('bastion', [rule(22, 22, 'tcp', ['0.0.0.0/0'], { description: 'temp ssh' })])) },
      { name: 'all-protocols-from-world', expectPassed: false, object: tfChg('aws_security_group', 'debug', ['create'], null, sg('debug-open', [rule(0, 0, '-1', ['0.0.0.0/0'])])) },
      { name: 'port-range-80-to-443', expectPassed: false, object: tfRes('aws_security_group', 'web', sg('web', [rule(80, 443, 'tcp', ['0.0.0.0/0'])])) },
      { name: 'rdp-from-ipv6-world', expectPassed: false, object: tfRes('aws_security_group', 'win', sg('windows-jump', [rule(3389, 3389, 'tcp', [], { ipv6_cidr_blocks: ['::/0'] }), rule(443, 443, 'tcp', ['0.0.0.0/0'])])) },
      {
        name: 'update-closes-world-ssh',
        expectPassed: true,
        object: tfChg('aws_security_group', 'legacy', ['update'],
          sg('legacy-app', [rule(22, 22, 'tcp', ['0.0.0.0/0']), rule(80, 80, 'tcp', ['0.0.0.0/0'])]),
          sg('legacy-app', [rule(22, 22, 'tcp', ['10.20.0.0/16']), rule(80, 80, 'tcp', ['0.0.0.0/0'], { ipv6_cidr_blocks: ['::/0'] })])),
      },
    ],
  },

  // ------------------------------------------------------------------ GCS buckets
  {
    id: 'tf-gcs-bucket-eu-versioned-private',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'storage', 'data-residency', 'versioning'],
    labels: tf('google_storage_bucket'),
    instruction: `GCS buckets - four things:
1. uniform_bucket_level_access = true
2. public_access_prevention = "enforced"
3. versioning enabled
4. location in Europe: the EU multi-region or a europe-* region. (location comes back upper-case from the provider, e.g. EUROPE-WEST2, so compare case-insensitively)`,
    check(o) {
      const v = tfv(o);
      const loc = String(v.location ?? '').toUpperCase();
      return v.uniform_bucket_level_access === true && v.public_access_prevention === 'enforced' && v.versioning?.[0]?.enabled === true && (loc === 'EU' || loc.startsWith('EUROPE-'));
    },
    inputs: [
      { name: 'create-europe-west2', expectPassed: true, object: tfChg('google_storage_bucket', 'raw_events', ['create'], null, gcs('acme-raw-events')) },
      { name: 'create-us-multi-region', expectPassed: false, object: tfChg('google_storage_bucket', 'exports', ['create'], null, gcs('acme-exports', { location: 'US' })) },
      { name: 'versioning-disabled', expectPassed: false, object: tfRes('google_storage_bucket', 'tmp', gcs('acme-tmp', { versioning: [{ enabled: false }] })) },
      { name: 'public-access-prevention-inherited', expectPassed: false, object: tfChg('google_storage_bucket', 'site', ['create'], null, gcs('acme-static-site', { public_access_prevention: 'inherited', location: 'EU' })) },
      {
        name: 'update-enables-uniform-access-eu',
        expectPassed: true,
        object: tfChg('google_storage_bucket', 'ml', ['update'], gcs('acme-ml-artifacts', { location: 'EU', uniform_bucket_level_access: false }), gcs('acme-ml-artifacts', { location: 'EU' })),
      },
    ],
  },

  // ------------------------------------------------------------------ Azure storage accounts
  {
    id: 'tf-azure-storage-account-tls-and-prod-geo-redundancy',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'storage', 'tls', 'replication', 'conditional'],
    labels: tf('azurerm_storage_account'),
    instruction: `azure storage accounts: min_tls_version TLS1_2, enable_https_traffic_only true, allow_nested_items_to_be_public false. If tags.environment is "production" the account_replication_type also has to be geo-redundant - GRS, RAGRS, GZRS or RAGZRS.`,
    check(o) {
      const v = tfv(o);
      if (v.min_tls_version !== 'TLS1_2' || v.enable_https_traffic_only !== true || v.allow_nested_items_to_be_public !== false) return false;
      return v.tags?.environment !== 'production' || ['GRS', 'RAGRS', 'GZRS', 'RAGZRS'].includes(v.account_replication_type);
    },
    inputs: [
      { name: 'dev-lrs', expectPassed: true, object: tfRes('azurerm_storage_account', 'devlogs', azsa('stdevlogsuks01')) },
      { name: 'production-lrs', expectPassed: false, object: tfRes('azurerm_storage_account', 'invoices', azsa('stprodinvoicesuks', { tags: { environment: 'production' } })) },
      { name: 'production-ragzrs', expectPassed: true, object: tfChg('azurerm_storage_account', 'docs', ['create'], null, azsa('stproddocsuks', { account_replication_type: 'RAGZRS', tags: { environment: 'production', owner: 'docs' } })) },
      { name: 'tls-1-0', expectPassed: false, object: tfRes('azurerm_storage_account', 'legacy', azsa('stlegacyftp01', { min_tls_version: 'TLS1_0' })) },
      { name: 'nested-items-public', expectPassed: false, object: tfChg('azurerm_storage_account', 'web', ['create'], null, azsa('stwebassets01', { allow_nested_items_to_be_public: true })) },
    ],
  },

  // ------------------------------------------------------------------ Lambda
  {
    id: 'tf-lambda-runtime-timeout-memory-tracing',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'lambda', 'deprecated-runtimes', 'defaults', 'numeric-bounds'],
    labels: tf('aws_lambda_function'),
    instruction: `Lambda functions:
- runtime must not be one of the deprecated ones: python3.7, python3.8, nodejs14.x, nodejs16.x, go1.x, ruby2.7, dotnetcore3.1, java8
- timeout at most 60 seconds (unset is the 3s default, which is fine)
- memory_size between 128 and 3008 MB inclusive (unset = 128, fine)
- tracing_config mode must be Active`,
    check(o) {
      const v = tfv(o);
      if (['python3.7', 'python3.8', 'nodejs14.x', 'nodejs16.x', 'go1.x', 'ruby2.7', 'dotnetcore3.1', 'java8'].includes(v.runtime)) return false;
      if ((v.timeout ?? 3) > 60) return false;
      const mem = v.memory_size ?? 128;
      if (mem < 128 || mem > 3008) return false;
      return v.tracing_config?.[0]?.mode === 'Active';
    },
    inputs: [
      { name: 'python312-30s-512mb', expectPassed: true, object: tfRes('aws_lambda_function', 'thumbs', lambda('thumbnail-generator')) },
      { name: 'nodejs16-runtime', expectPassed: false, object: tfRes('aws_lambda_function', 'webhook', lambda('stripe-webhook', { runtime: 'nodejs16.x', handler: 'index.handler' })) },
      { name: 'timeout-90', expectPassed: false, object: tfChg('aws_lambda_function', 'etl', ['create'], null, lambda('nightly-etl', { timeout: 90 })) },
      { name: 'memory-4096', expectPassed: false, object: tfRes('aws_lambda_function', 'pdf', lambda('pdf-render', { memory_size: 4096 })) },
      { name: 'tracing-passthrough', expectPassed: false, object: tfChg('aws_lambda_function', 'auth', ['update'], lambda('authorizer', { tracing_config: [{ mode: 'Active' }] }), lambda('authorizer', { tracing_config: [{ mode: 'PassThrough' }] })) },
      {
        name: 'java21-defaults-for-timeout-and-memory',
        expectPassed: true,
        object: (() => { const v = lambda('fraud-score', { runtime: 'java21', handler: 'com.acme.Fraud::handle' }); delete v.timeout; delete v.memory_size; return tfChg('aws_lambda_function', 'fraud', ['create'], null, v); })(),
      },
    ],
  },

  // ------------------------------------------------------------------ IAM policy wildcards
  {
    id: 'tf-iam-policy-no-admin-wildcards',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'iam', 'json-string', 'wildcards', 'least-privilege'],
    labels: tf('aws_iam_policy'),
    instruction: `IAM policies (aws_iam_policy - remember \`policy\` is a JSON string in the plan): no statement with "Effect": "Allow" may combine Resource "*" with a wildcard action, i.e. "*" or a whole-service wildcard such as "s3:*" or "iam:*". Action and Resource may each be a single string or a list; if any entry matches, it counts. Narrower wildcards like "ec2:Describe*" are fine, and Deny statements can be as broad as they like.`,
    check(o) {
      const doc = JSON.parse(tfv(o).policy);
      const stmts = [doc.Statement].flat();
      return stmts.every((s) => {
        if (s.Effect !== 'Allow') return true;
        const res = [s.Resource].flat();
        const acts = [s.Action].flat();
        return !(res.includes('*') && acts.some((a) => a === '*' || /^[A-Za-z0-9-]+:\*$/.test(a)));
      });
    },
    inputs: [
      { name: 'scoped-s3-read', expectPassed: true, object: tfRes('aws_iam_policy', 'reader', iamPolicy('reports-reader', [{ Sid: 'Read', Effect: 'Allow', Action: ['s3:GetObject', 's3:ListBucket'], Resource: ['arn:aws:s3:::acme-reports', 'arn:aws:s3:::acme-reports/*'] }])) },
      { name: 'star-on-star', expectPassed: false, object: tfRes('aws_iam_policy', 'admin', iamPolicy('break-glass', [{ Effect: 'Allow', Action: '*', Resource: '*' }])) },
      {
        name: 'service-wildcard-hidden-in-lists',
        expectPassed: false,
        object: tfChg('aws_iam_policy', 'ci', ['create'], null, iamPolicy('ci-artifacts', [{ Effect: 'Allow', Action: ['s3:GetObject', 's3:*'], Resource: ['arn:aws:s3:::acme-ci/*', '*'] }])),
      },
      {
        name: 'broad-deny-plus-specific-allow',
        expectPassed: true,
        object: tfRes('aws_iam_policy', 'guard', iamPolicy('region-guard', [{ Effect: 'Deny', Action: '*', Resource: '*', Condition: { StringNotEquals: { 'aws:RequestedRegion': ['eu-west-2'] } } }, { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:eu-west-2:111122223333:orders' }])),
      },
      { name: 'describe-star-on-star', expectPassed: true, object: tfChg('aws_iam_policy', 'inventory', ['create'], null, iamPolicy('ec2-inventory', [{ Effect: 'Allow', Action: ['ec2:Describe*', 'tag:GetResources'], Resource: '*' }])) },
      {
        name: 'single-statement-object-iam-star',
        expectPassed: false,
        object: tfRes('aws_iam_policy', 'iamadmin', iamPolicy('iam-admin', JSON.stringify({ Version: '2012-10-17', Statement: { Effect: 'Allow', Action: 'iam:*', Resource: '*' } }))),
      },
    ],
  },

  // ------------------------------------------------------------------ whole plan: tagging
  {
    id: 'tf-plan-owner-costcentre-environment-tags',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'plan', 'tagging', 'child-modules', 'email', 'regex'],
    labels: tf('plan'),
    instruction: `Tagging standard, checked against the whole plan (planned_values, child modules included): every aws_instance, aws_s3_bucket, aws_db_instance and aws_lambda_function must carry these tags:
  Owner        - an email address
  CostCentre   - exactly 5 digits
  Environment  - dev, staging or prod
Other resource types (aws_iam_role, random_id, ...) are ignored.`,
    check(o) {
      return planResources(o).every((r) => {
        if (!TAGGED.has(r.type)) return true;
        const t = r.values?.tags ?? {};
        return email(t.Owner) && /^\d{5}$/.test(t.CostCentre ?? '') && ['dev', 'staging', 'prod'].includes(t.Environment);
      });
    },
    inputs: [
      {
        name: 'root-and-module-all-tagged',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_instance', name: 'api', action: 'create', values: ec2(OK_TAGS) },
          { type: 'aws_s3_bucket', name: 'assets', module: 'module.storage', action: 'create', values: bucket('acme-payments-assets', OK_TAGS) },
          { type: 'aws_db_instance', name: 'main', module: 'module.storage.module.db', action: 'update', values: { ...rds('payments-prod', { deletion_protection: true, multi_az: true }), ...tags(OK_TAGS) } },
        ]),
      },
      {
        name: 'module-bucket-missing-costcentre',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_instance', name: 'worker', action: 'create', values: ec2({ ...OK_TAGS, Environment: 'staging' }) },
          { type: 'aws_s3_bucket', name: 'logs', module: 'module.logging', action: 'create', values: bucket('acme-worker-logs', { Owner: 'sre@acme.io', Environment: 'staging' }) },
        ]),
      },
      {
        name: 'lambda-environment-production',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_lambda_function', name: 'resize', module: 'module.media', action: 'create', values: fn('image-resize', { ...OK_TAGS, Environment: 'production' }) },
          { type: 'aws_iam_role', name: 'resize', module: 'module.media', action: 'create', values: role('image-resize-exec') },
        ]),
      },
      {
        name: 'untagged-role-and-random-ignored',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_iam_role', name: 'ci', action: 'create', values: role('ci-runner') },
          { type: 'random_id', name: 'suffix', action: 'create', values: { byte_length: 4, keepers: null } },
          { type: 'aws_lambda_function', name: 'hook', action: 'update', values: fn('deploy-hook', { Owner: 'platform@acme.io', CostCentre: '10001', Environment: 'dev' }) },
        ]),
      },
      {
        name: 'owner-is-team-name-not-email',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'analytics', module: 'module.warehouse', action: 'create', values: { ...rds('analytics-dev', {}), ...tags({ Owner: 'data-platform', CostCentre: '30500', Environment: 'dev' }) } },
        ]),
      },
      {
        name: 'untagged-instance-being-deleted',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_instance', name: 'old_bastion', action: 'delete', values: ec2({ Name: 'bastion' }) },
          { type: 'aws_instance', name: 'bastion', action: 'create', values: ec2({ ...OK_TAGS, Owner: 'sre@acme.io', Environment: 'prod' }) },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ whole plan: no destroying stateful resources
  {
    id: 'tf-plan-no-destroy-or-replace-of-stateful-resources',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'plan', 'destroy', 'replace', 'change-freeze'],
    labels: tf('plan'),
    instruction: `Change-freeze guard for plans: the plan must not destroy any aws_db_instance, aws_rds_cluster, aws_dynamodb_table or aws_s3_bucket, anywhere in the plan (modules too). Replacements count as destroying - both delete-then-create and create-before-destroy. Deleting or replacing other resource types is fine (seperate review), and so are creates, updates and no-ops.`,
    check(o) {
      return !planChanges(o).some((rc) => STATEFUL.has(rc.type) && rc.change.actions.includes('delete'));
    },
    inputs: [
      {
        name: 'create-bucket-update-db',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'exports', action: 'create', values: bucket('acme-exports', OK_TAGS) },
          { type: 'aws_db_instance', name: 'main', module: 'module.db', action: 'update', values: rds('orders-prod', { backup_retention_period: 14 }), before: rds('orders-prod', {}) },
          { type: 'aws_dynamodb_table', name: 'sessions', action: 'no-op', values: ddb('sessions') },
        ]),
      },
      {
        name: 'deletes-dynamodb-table',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_dynamodb_table', name: 'carts', action: 'delete', values: ddb('carts') },
          { type: 'aws_instance', name: 'api', action: 'update', values: ec2({ ...OK_TAGS, Version: '2' }), before: ec2(OK_TAGS) },
        ]),
      },
      {
        name: 'replaces-db-in-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'main', module: 'module.billing.module.db', action: 'replace', values: rds('billing-prod', { engine_version: '16.2', identifier: 'billing-prod-v2' }), before: rds('billing-prod', { engine_version: '15.6' }) },
        ]),
      },
      {
        name: 'replaces-instance-deletes-sg',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_instance', name: 'bastion', action: 'replace-cbd', values: ec2({ ...OK_TAGS, Name: 'bastion' }), before: { ...ec2({ ...OK_TAGS, Name: 'bastion' }), ami: 'ami-0aaaabbbbccccdddd' } },
          { type: 'aws_security_group', name: 'old_bastion', action: 'delete', values: sg('old-bastion', [rule(22, 22, 'tcp', ['10.0.0.0/8'])]) },
        ]),
      },
      {
        name: 'create-before-destroy-bucket',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'media', module: 'module.cdn', action: 'replace-cbd', values: bucket('acme-media-eu', OK_TAGS), before: bucket('acme-media', OK_TAGS) },
          { type: 'aws_instance', name: 'api', action: 'no-op', values: ec2(OK_TAGS) },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ GCE hardening
  {
    id: 'tf-gce-no-public-ip-secure-boot-custom-sa',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'compute', 'public-ip', 'service-accounts', 'nested-blocks'],
    labels: tf('google_compute_instance'),
    instruction: `GCE VMs:
- no external IPs, so no network_interface block may have an access_config
- shielded_instance_config.enable_secure_boot = true
- the VM must not run as the default compute service account (anything ending in -compute@developer.gserviceaccount.com) and must not get the cloud-platform scope (https://www.googleapis.com/auth/cloud-platform)`,
    check(o) {
      const v = tfv(o);
      if ((v.network_interface ?? []).some((n) => (n.access_config ?? []).length > 0)) return false;
      if (v.shielded_instance_config?.[0]?.enable_secure_boot !== true) return false;
      return (v.service_account ?? []).every((s) => !String(s.email ?? '').endsWith('-compute@developer.gserviceaccount.com') && !(s.scopes ?? []).includes('https://www.googleapis.com/auth/cloud-platform'));
    },
    inputs: [
      { name: 'private-secure-boot-custom-sa', expectPassed: true, object: tfRes('google_compute_instance', 'runner', gce('ci-runner')) },
      {
        name: 'ephemeral-external-ip',
        expectPassed: false,
        object: tfRes('google_compute_instance', 'vpn', gce('vpn-gw', { network_interface: [{ network: 'projects/acme-net/global/networks/shared', subnetwork: 'projects/acme-net/regions/europe-west2/subnetworks/dmz', access_config: [{ nat_ip: '', network_tier: 'PREMIUM' }] }] })),
      },
      { name: 'secure-boot-off', expectPassed: false, object: tfChg('google_compute_instance', 'gpu', ['create'], null, gce('gpu-trainer', { shielded_instance_config: [{ enable_secure_boot: false, enable_vtpm: true, enable_integrity_monitoring: true }] })) },
      {
        name: 'default-compute-sa',
        expectPassed: false,
        object: tfRes('google_compute_instance', 'legacy', gce('legacy-cron', { service_account: [{ email: '123456789012-compute@developer.gserviceaccount.com', scopes: ['https://www.googleapis.com/auth/logging.write'] }] })),
      },
      {
        name: 'custom-sa-cloud-platform-scope',
        expectPassed: false,
        object: tfChg('google_compute_instance', 'admin', ['update'], gce('admin-box'), gce('admin-box', { service_account: [{ email: 'admin-box@acme-apps.iam.gserviceaccount.com', scopes: ['https://www.googleapis.com/auth/cloud-platform'] }] })),
      },
    ],
  },

  // ------------------------------------------------------------------ CloudWatch log retention
  {
    id: 'tf-log-group-retention-window',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 'cloudwatch', 'retention', 'numeric-bounds'],
    labels: tf('aws_cloudwatch_log_group'),
    instruction: `CloudWatch log groups need retention_in_days between 30 and 365, inclusive. 0 means "never expire" and isn't allowed.`,
    check(o) {
      const r = tfv(o).retention_in_days;
      return typeof r === 'number' && r >= 30 && r <= 365;
    },
    inputs: [
      { name: 'ninety-days', expectPassed: true, object: tfRes('aws_cloudwatch_log_group', 'api', logGroup('/aws/ecs/orders-api')) },
      { name: 'never-expire', expectPassed: false, object: tfChg('aws_cloudwatch_log_group', 'lambda', ['create'], null, logGroup('/aws/lambda/image-resize', { retention_in_days: 0 })) },
      { name: 'fourteen-days', expectPassed: false, object: tfRes('aws_cloudwatch_log_group', 'debug', logGroup('/acme/debug/tracing', { retention_in_days: 14 })) },
      { name: 'exactly-365', expectPassed: true, object: tfChg('aws_cloudwatch_log_group', 'audit', ['update'], logGroup('/acme/audit', { retention_in_days: 30 }), logGroup('/acme/audit', { retention_in_days: 365 })) },
      { name: 'four-hundred-days', expectPassed: false, object: tfRes('aws_cloudwatch_log_group', 'vpc', logGroup('/acme/vpc-flow-logs', { retention_in_days: 400 })) },
    ],
  },

  // ------------------------------------------------------------------ KMS keys
  {
    id: 'tf-kms-rotation-and-deletion-window',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 'kms', 'key-rotation', 'optional-fields'],
    labels: tf('aws_kms_key'),
    instruction: `KMS keys must have enable_key_rotation = true, and deletion_window_in_days, if you set it, must be at least 14.`,
    check(o) {
      const v = tfv(o);
      return v.enable_key_rotation === true && (v.deletion_window_in_days == null || v.deletion_window_in_days >= 14);
    },
    inputs: [
      { name: 'rotation-on-window-30', expectPassed: true, object: tfRes('aws_kms_key', 'app', kms('orders app data')) },
      { name: 'rotation-off', expectPassed: false, object: tfRes('aws_kms_key', 'logs', kms('log encryption', { enable_key_rotation: false })) },
      { name: 'window-seven-days', expectPassed: false, object: tfChg('aws_kms_key', 'tmp', ['create'], null, kms('scratch key', { deletion_window_in_days: 7 })) },
      { name: 'window-not-set', expectPassed: true, object: tfChg('aws_kms_key', 'backup', ['create'], null, kms('backup vault key', { deletion_window_in_days: null })) },
      { name: 'window-exactly-14', expectPassed: true, object: tfRes('aws_kms_key', 'sqs', kms('sqs encryption', { deletion_window_in_days: 14 })) },
    ],
  },
];
