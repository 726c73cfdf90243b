// Terraform cases (own-holdout-4): AWS, GCP and Azure resources as planned_values resources,
// resource_changes entries and whole plans.
import { tf, tfRes, tfChg, tfPlan, tfv, planResources, planChanges, email } from './lib.mjs';

// ------------------------------------------------------------------ value builders
const rds = (identifier, more = {}) => ({
  identifier,
  engine: 'postgres',
  engine_version: '16.3',
  instance_class: 'db.r6g.large',
  allocated_storage: 100,
  storage_type: 'gp3',
  username: 'app_admin',
  multi_az: true,
  deletion_protection: true,
  skip_final_snapshot: false,
  storage_encrypted: true,
  backup_retention_period: 14,
  publicly_accessible: false,
  tags: { Team: 'data' },
  ...more,
});

const ebs = (az, more = {}) => ({ availability_zone: az, size: 100, type: 'gp3', iops: 3000, throughput: 125, encrypted: true, final_snapshot: false, multi_attach_enabled: false, tags: { Name: 'data' }, ...more });

const rule = (from, to, cidrs = [], v6 = [], protocol = 'tcp', description = '') => ({
  cidr_blocks: cidrs,
  description,
  from_port: from,
  ipv6_cidr_blocks: v6,
  prefix_list_ids: [],
  protocol,
  security_groups: [],
  self: false,
  to_port: to,
});
const sg = (name, ingress) => ({
  name,
  description: `${name} security group`,
  vpc_id: 'vpc-0a1b2c3d4e5f60718',
  revoke_rules_on_delete: false,
  ingress,
  egress: [rule(0, 0, ['0.0.0.0/0'], [], '-1', 'all outbound')],
  tags: { Name: name },
});

const gcs = (name, location, more = {}) => ({
  name,
  location,
  project: 'acme-data-prod',
  storage_class: 'STANDARD',
  force_destroy: false,
  uniform_bucket_level_access: true,
  public_access_prevention: 'enforced',
  labels: { team: 'data' },
  versioning: [{ enabled: true }],
  ...more,
});

const nic = (accessConfig = []) => ({ network: 'projects/acme-net/global/networks/prod-vpc', subnetwork: 'projects/acme-net/regions/europe-west1/subnetworks/app', access_config: accessConfig, alias_ip_range: [], ipv6_access_config: [] });
const gce = (name, more = {}) => ({
  name,
  machine_type: 'e2-standard-4',
  zone: 'europe-west1-b',
  project: 'acme-apps-prod',
  can_ip_forward: false,
  deletion_protection: false,
  boot_disk: [{ auto_delete: true, initialize_params: [{ image: 'projects/debian-cloud/global/images/family/debian-12', size: 50, type: 'pd-balanced' }] }],
  network_interface: [nic()],
  shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: true, enable_vtpm: true }],
  labels: { team: 'platform' },
  ...more,
});

const azsa = (name, more = {}) => ({
  name,
  resource_group_name: 'rg-data-prod',
  location: 'westeurope',
  account_tier: 'Standard',
  account_replication_type: 'ZRS',
  account_kind: 'StorageV2',
  access_tier: 'Hot',
  min_tls_version: 'TLS1_2',
  https_traffic_only_enabled: true,
  allow_nested_items_to_be_public: false,
  shared_access_key_enabled: true,
  public_network_access_enabled: false,
  tags: { environment: 'prod' },
  ...more,
});

const ec2 = (tags, more = {}) => ({ ami: 'ami-0c1a7f89451184c8b', instance_type: 't3.medium', subnet_id: 'subnet-0123456789abcdef0', monitoring: true, ebs_optimized: true, tags, ...more });
const s3 = (bucket, tags) => ({ bucket, force_destroy: false, object_lock_enabled: false, tags });
const role = (name) => ({ name, assume_role_policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] }), max_session_duration: 3600, path: '/' });

const linuxVm = (name, size, more = {}) => ({
  name,
  resource_group_name: 'rg-app-prod',
  location: 'northeurope',
  size,
  admin_username: 'azureops',
  disable_password_authentication: true,
  admin_ssh_key: [{ username: 'azureops', public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7example azureops@acme' }],
  os_disk: [{ caching: 'ReadWrite', storage_account_type: 'Premium_LRS', disk_size_gb: 64 }],
  source_image_reference: [{ publisher: 'Canonical', offer: 'ubuntu-24_04-lts', sku: 'server', version: 'latest' }],
  tags: { environment: 'prod' },
  ...more,
});

const TAG_TYPES = ['aws_instance', 'aws_s3_bucket', 'aws_db_instance'];
const goodTags = (env = 'prod') => ({ Owner: 'platform-team@acme.io', Environment: env });

export default [
  // ------------------------------------------------------------------ RDS baseline
  {
    id: 'tf-aws-rds-encryption-backups-private',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'rds', 'encryption', 'backups', 'numeric-bounds', 'boundary', 'multi-requirement', 'resource-changes'],
    labels: tf('aws_db_instance'),
    instruction:
      'AWS RDS baseline (maps to CIS AWS 2.3.x and our SOC 2 CC6.1 evidence): every aws_db_instance needs storage_encrypted = true and a backup_retention_period of at least 7 days, and it must not be publicly_accessible.',
    check: (o) => {
      const v = tfv(o);
      return v.storage_encrypted === true && typeof v.backup_retention_period === 'number' && v.backup_retention_period >= 7 && v.publicly_accessible !== true;
    },
    inputs: [
      { name: 'planned-encrypted-14-days', expectPassed: true, object: tfRes('aws_db_instance', 'orders', rds('orders-prod')) },
      { name: 'planned-unencrypted', expectPassed: false, object: tfRes('aws_db_instance', 'legacy', rds('legacy-reporting', { storage_encrypted: false })) },
      { name: 'create-retention-exactly-7', expectPassed: true, object: tfChg('aws_db_instance', 'analytics', ['create'], null, rds('analytics-prod', { backup_retention_period: 7 })) },
      { name: 'create-retention-3', expectPassed: false, object: tfChg('aws_db_instance', 'staging', ['create'], null, rds('staging-main', { backup_retention_period: 3, multi_az: false })) },
      {
        name: 'update-raises-retention-1-to-7',
        expectPassed: true,
        object: tfChg('aws_db_instance', 'billing', ['update'], rds('billing-prod', { backup_retention_period: 1 }), rds('billing-prod', { backup_retention_period: 7 })),
      },
      { name: 'planned-publicly-accessible', expectPassed: false, object: tfRes('aws_db_instance', 'bi', rds('bi-readonly', { publicly_accessible: true })) },
    ],
  },

  // ------------------------------------------------------------------ EBS encryption
  {
    id: 'tf-aws-ebs-volume-encrypted',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 'ebs', 'encryption', 'resource-changes'],
    labels: tf('aws_ebs_volume'),
    instruction: 'all EBS volumes need to be encrypted at rest pls (aws_ebs_volume -> encrypted = true). no exceptions, not even for scratch disks',
    check: (o) => tfv(o).encrypted === true,
    inputs: [
      { name: 'create-encrypted', expectPassed: true, object: tfChg('aws_ebs_volume', 'kafka_data', ['create'], null, ebs('eu-west-1a', { size: 500 })) },
      { name: 'create-unencrypted', expectPassed: false, object: tfChg('aws_ebs_volume', 'scratch', ['create'], null, ebs('eu-west-1b', { encrypted: false, type: 'gp2', iops: 300, throughput: 0 })) },
      { name: 'planned-encrypted-io2', expectPassed: true, object: tfRes('aws_ebs_volume', 'db_wal', ebs('eu-west-1c', { type: 'io2', iops: 16000, throughput: 0, size: 200 })) },
      { name: 'planned-unencrypted', expectPassed: false, object: tfRes('aws_ebs_volume', 'ci_cache', ebs('eu-west-1a', { encrypted: false })) },
    ],
  },

  // ------------------------------------------------------------------ SG internet ingress only 443
  {
    id: 'tf-aws-security-group-internet-only-https',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'security-group', 'cidr', 'ports', 'conditional', 'arrays', 'resource-changes'],
    labels: tf('aws_security_group'),
    instruction: `Internet-facing ingress is HTTPS only.

For aws_security_group, look at every inline \`ingress\` block. If its cidr_blocks include 0.0.0.0/0, or its ipv6_cidr_blocks include ::/0, then that block must be exactly TCP 443: protocol "tcp", from_port = 443 and to_port = 443. Blocks open only to specific/private ranges may use whatever ports they need. Egress is not part of this check.`,
    check: (o) =>
      (tfv(o).ingress ?? []).every((b) => {
        const open = (b.cidr_blocks ?? []).includes('0.0.0.0/0') || (b.ipv6_cidr_blocks ?? []).includes('::/0');
        return !open || (b.protocol === 'tcp' && b.from_port === 443 && b.to_port === 443);
      }),
    inputs: [
      { name: 'planned-https-from-world', expectPassed: true, object: tfRes('aws_security_group', 'public_alb', sg('public-alb', [rule(443, 443, ['0.0.0.0/0'], ['::/0'], 'tcp', 'https')])) },
      {
        name: 'planned-ssh-from-world',
        expectPassed: false,
        object: tfRes('aws_security_group', 'bastion', sg('bastion', [rule(22, 22, ['0.0.0.0/0'], [], 'tcp', 'ssh')])),
      },
      {
        name: 'planned-ssh-from-office-https-world',
        expectPassed: true,
        object: tfRes('aws_security_group', 'web', sg('web', [rule(22, 22, ['203.0.113.10/32'], [], 'tcp', 'ssh from office'), rule(443, 443, ['0.0.0.0/0'], [], 'tcp', 'https')])),
      },
      {
        name: 'create-ipv6-any-8080',
        expectPassed: false,
        object: tfChg('aws_security_group', 'api', ['create'], null, sg('api', [rule(443, 443, ['0.0.0.0/0'], [], 'tcp', 'https'), rule(8080, 8080, [], ['::/0'], 'tcp', 'alt http')])),
      },
      {
        name: 'planned-port-range-covering-443',
        expectPassed: false,
        object: tfRes('aws_security_group', 'game', sg('game-servers', [rule(400, 500, ['0.0.0.0/0'], [], 'tcp', 'game ports')])),
      },
      {
        name: 'update-removes-rdp-from-world',
        expectPassed: true,
        object: tfChg(
          'aws_security_group', 'win_jump', ['update'],
          sg('win-jump', [rule(3389, 3389, ['0.0.0.0/0'], [], 'tcp', 'rdp'), rule(443, 443, ['0.0.0.0/0'], [], 'tcp', 'https')]),
          sg('win-jump', [rule(3389, 3389, ['10.0.0.0/8'], [], 'tcp', 'rdp from vpn'), rule(443, 443, ['0.0.0.0/0'], [], 'tcp', 'https')]),
        ),
      },
    ],
  },

  // ------------------------------------------------------------------ GCS buckets
  {
    id: 'tf-gcp-storage-bucket-access-and-residency',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'gcs', 'public-access', 'data-residency', 'allowlist', 'case-insensitive', 'multi-requirement', 'resource-changes'],
    labels: tf('google_storage_bucket'),
    instruction:
      "GCS buckets: uniform_bucket_level_access must be true and public_access_prevention must be \"enforced\" (\"inherited\" isn't good enough). For data residency the location has to be in the EU, meaning either the `EU` multi-region or a single `EUROPE-...` region (europe-west1, europe-west2 and so on; upper/lower case doesn't matter).",
    check: (o) => {
      const v = tfv(o);
      const loc = String(v.location ?? '').toUpperCase();
      return v.uniform_bucket_level_access === true && v.public_access_prevention === 'enforced' && (loc === 'EU' || loc.startsWith('EUROPE-'));
    },
    inputs: [
      { name: 'planned-eu-multi-region', expectPassed: true, object: tfRes('google_storage_bucket', 'events', gcs('acme-events-archive', 'EU')) },
      { name: 'planned-europe-west2-lowercase', expectPassed: true, object: tfRes('google_storage_bucket', 'exports', gcs('acme-finance-exports', 'europe-west2')) },
      { name: 'create-us-location', expectPassed: false, object: tfChg('google_storage_bucket', 'ml', ['create'], null, gcs('acme-ml-datasets', 'US')) },
      { name: 'create-pap-inherited', expectPassed: false, object: tfChg('google_storage_bucket', 'assets', ['create'], null, gcs('acme-web-assets', 'EUROPE-WEST1', { public_access_prevention: 'inherited' })) },
      { name: 'planned-fine-grained-acls', expectPassed: false, object: tfRes('google_storage_bucket', 'legacy', gcs('acme-legacy-uploads', 'EU', { uniform_bucket_level_access: false })) },
    ],
  },

  // ------------------------------------------------------------------ GCE no public IP + secure boot
  {
    id: 'tf-gcp-compute-no-public-ip-secure-boot',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'compute', 'public-ip', 'shielded-vm', 'nested-blocks', 'arrays', 'missing-field', 'resource-changes'],
    labels: tf('google_compute_instance'),
    instruction: `GCE VMs must not get public IPs and must boot with Shielded VM secure boot:
- every network_interface has an empty (or absent) access_config list; an access_config block is what hands the VM an external IP
- shielded_instance_config.enable_secure_boot = true. The provider default is false, so a VM without the shielded_instance_config block fails.`,
    check: (o) => {
      const v = tfv(o);
      return (v.network_interface ?? []).every((n) => (n.access_config ?? []).length === 0) && v.shielded_instance_config?.[0]?.enable_secure_boot === true;
    },
    inputs: [
      { name: 'planned-private-secure-boot', expectPassed: true, object: tfRes('google_compute_instance', 'app', gce('app-1')) },
      { name: 'planned-ephemeral-external-ip', expectPassed: false, object: tfRes('google_compute_instance', 'jump', gce('jump-1', { network_interface: [nic([{ network_tier: 'PREMIUM' }])] })) },
      { name: 'create-without-shielded-block', expectPassed: false, object: tfChg('google_compute_instance', 'worker', ['create'], null, gce('worker-1', { shielded_instance_config: [] })) },
      {
        name: 'create-second-nic-public',
        expectPassed: false,
        object: tfChg('google_compute_instance', 'nat', ['create'], null, gce('nat-gw-1', { can_ip_forward: true, network_interface: [nic(), nic([{ nat_ip: '34.76.10.20', network_tier: 'PREMIUM' }])] })),
      },
      {
        name: 'planned-secure-boot-false',
        expectPassed: false,
        object: tfRes('google_compute_instance', 'gpu', gce('gpu-1', { machine_type: 'g2-standard-8', shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: false, enable_vtpm: true }] })),
      },
      {
        name: 'update-turns-on-secure-boot',
        expectPassed: true,
        object: tfChg(
          'google_compute_instance', 'batch', ['update'],
          gce('batch-1', { shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: false, enable_vtpm: true }] }),
          gce('batch-1'),
        ),
      },
    ],
  },

  // ------------------------------------------------------------------ Azure storage accounts
  {
    id: 'tf-azure-storage-account-baseline',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'storage-account', 'tls', 'public-access', 'multi-requirement', 'resource-changes'],
    labels: tf('azurerm_storage_account'),
    instruction: `Azure storage accounts (azurerm_storage_account, azurerm provider 4.x attribute names):
- min_tls_version = "TLS1_2"
- https_traffic_only_enabled = true
- allow_nested_items_to_be_public = false
Anything else is flagged as a violation of the Azure Security Benchmark baseline.`,
    check: (o) => {
      const v = tfv(o);
      return v.min_tls_version === 'TLS1_2' && v.https_traffic_only_enabled === true && v.allow_nested_items_to_be_public === false;
    },
    inputs: [
      { name: 'planned-compliant', expectPassed: true, object: tfRes('azurerm_storage_account', 'lake', azsa('stacmelakeprod')) },
      { name: 'planned-tls-1-1', expectPassed: false, object: tfRes('azurerm_storage_account', 'legacy', azsa('stacmelegacy01', { min_tls_version: 'TLS1_1' })) },
      { name: 'create-public-blob-containers', expectPassed: false, object: tfChg('azurerm_storage_account', 'cdn', ['create'], null, azsa('stacmecdnorigin', { allow_nested_items_to_be_public: true, public_network_access_enabled: true })) },
      { name: 'create-http-allowed', expectPassed: false, object: tfChg('azurerm_storage_account', 'iot', ['create'], null, azsa('stacmeiotingest', { https_traffic_only_enabled: false })) },
      { name: 'update-tls-1-0-to-1-2', expectPassed: true, object: tfChg('azurerm_storage_account', 'backup', ['update'], azsa('stacmebackup01', { min_tls_version: 'TLS1_0' }), azsa('stacmebackup01')) },
    ],
  },

  // ------------------------------------------------------------------ whole plan: AWS tagging
  {
    id: 'tf-plan-aws-owner-environment-tags',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'plan', 'tags', 'email', 'allowlist', 'child-modules', 'deletes', 'missing-field'],
    labels: tf('plan'),
    instruction: `Tagging standard, checked on the whole plan JSON. Every aws_instance, aws_s3_bucket and aws_db_instance in the plan's planned values, in the root module or in any child module at any depth, must have in its \`tags\` attribute (we don't use provider default_tags):
- \`Owner\`: an email address
- \`Environment\`: dev, staging or prod
Other resource types are ignored, and since we look at planned values a resource the plan deletes doesn't matter.`,
    check: (plan) =>
      planResources(plan).filter((r) => TAG_TYPES.includes(r.type)).every((r) => {
        const t = r.values?.tags ?? {};
        return email(t.Owner) && ['dev', 'staging', 'prod'].includes(t.Environment);
      }),
    inputs: [
      {
        name: 'plan-all-tagged-untagged-role-ignored',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_instance', name: 'api', action: 'create', values: ec2(goodTags()) },
          { type: 'aws_s3_bucket', name: 'logs', module: 'module.storage', action: 'create', values: s3('acme-api-logs', goodTags()) },
          { type: 'aws_iam_role', name: 'api', action: 'create', values: role('api-instance') },
        ]),
      },
      {
        name: 'plan-nested-module-bucket-without-owner',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_instance', name: 'worker', action: 'no-op', values: ec2(goodTags('staging')) },
          { type: 'aws_s3_bucket', name: 'raw', module: 'module.data.module.buckets', action: 'create', values: s3('acme-raw-staging', { Environment: 'staging' }) },
        ]),
      },
      {
        name: 'plan-owner-not-an-email',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'main', action: 'update', values: rds('main-dev', { tags: { Owner: 'platform-team', Environment: 'dev' } }), before: rds('main-dev', { tags: { Environment: 'dev' } }) },
        ]),
      },
      {
        name: 'plan-environment-production',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_instance', name: 'bastion', module: 'module.network', action: 'create', values: ec2({ Owner: 'sre@acme.io', Environment: 'production' }) },
          { type: 'aws_s3_bucket', name: 'state', action: 'no-op', values: s3('acme-tf-state', goodTags()) },
        ]),
      },
      {
        name: 'plan-deletes-untagged-instance',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_instance', name: 'old_jump', action: 'delete', values: ec2({ Name: 'old-jump' }) },
          { type: 'aws_instance', name: 'jump', action: 'create', values: ec2({ Owner: 'sre@acme.io', Environment: 'prod', Name: 'jump' }) },
        ]),
      },
      {
        name: 'plan-only-other-types',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_iam_role', name: 'ci', action: 'create', values: role('ci-runner') },
          { type: 'aws_ebs_volume', name: 'cache', module: 'module.ci', action: 'create', values: ebs('eu-west-1a', { tags: {} }) },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ whole plan: no destroying stateful resources
  {
    id: 'tf-plan-no-destroy-stateful-aws',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'plan', 'change-safety', 'deletes', 'replacements', 'child-modules', 'resource-changes'],
    labels: tf('plan'),
    instruction:
      "Change-safety gate for prod applies: a plan must not destroy any aws_db_instance, aws_rds_cluster, aws_dynamodb_table or aws_s3_bucket. Replacements count as destroying (delete + create, in either order) because the data goes with them. Deleting any other resource type is fine, and so are in-place updates.",
    check: (plan) =>
      planChanges(plan).every((rc) => !(['aws_db_instance', 'aws_rds_cluster', 'aws_dynamodb_table', 'aws_s3_bucket'].includes(rc.type) && rc.change.actions.includes('delete'))),
    inputs: [
      {
        name: 'plan-update-db-in-place',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'orders', action: 'update', values: rds('orders-prod', { instance_class: 'db.r6g.xlarge' }), before: rds('orders-prod') },
        ]),
      },
      {
        name: 'plan-replace-db',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_db_instance', name: 'orders', action: 'replace', values: rds('orders-prod', { engine_version: '16.3' }), before: rds('orders-prod', { engine_version: '15.7' }) },
        ]),
      },
      {
        name: 'plan-delete-lb-only',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_lb', name: 'old', action: 'delete', values: { name: 'legacy-alb', internal: false, load_balancer_type: 'application' } },
          { type: 'aws_db_instance', name: 'orders', action: 'no-op', values: rds('orders-prod') },
        ]),
      },
      {
        name: 'plan-delete-bucket-in-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'access_logs', module: 'module.logging', action: 'delete', values: s3('acme-access-logs', goodTags()) },
          { type: 'aws_instance', name: 'app', action: 'update', values: ec2(goodTags(), { instance_type: 't3.large' }), before: ec2(goodTags()) },
        ]),
      },
      {
        name: 'plan-create-before-destroy-table',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_dynamodb_table', name: 'sessions', action: 'replace-cbd', values: { name: 'sessions-v2', billing_mode: 'PAY_PER_REQUEST', hash_key: 'session_id' }, before: { name: 'sessions', billing_mode: 'PAY_PER_REQUEST', hash_key: 'session_id' } },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ whole plan: Azure Linux VMs
  {
    id: 'tf-plan-azure-linux-vm-size-and-ssh',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'plan', 'virtual-machines', 'allowlist', 'lookalike', 'child-modules', 'multi-requirement'],
    labels: tf('plan'),
    instruction:
      "Azure VM sizing + login policy, evaluated on the whole plan: every azurerm_linux_virtual_machine that the plan creates or keeps (i.e. in planned values, including child modules) must (a) use one of the sizes Standard_B2s, Standard_D2s_v5, Standard_D4s_v5 or Standard_E4s_v5, and (b) have disable_password_authentication = true. Windows VMs and all other resource types are out of scope.",
    check: (plan) =>
      planResources(plan).filter((r) => r.type === 'azurerm_linux_virtual_machine').every((r) =>
        ['Standard_B2s', 'Standard_D2s_v5', 'Standard_D4s_v5', 'Standard_E4s_v5'].includes(r.values?.size) && r.values?.disable_password_authentication === true),
    inputs: [
      {
        name: 'plan-two-compliant-vms',
        expectPassed: true,
        object: tfPlan([
          { type: 'azurerm_linux_virtual_machine', name: 'api', action: 'create', values: linuxVm('vm-api-01', 'Standard_D4s_v5') },
          { type: 'azurerm_linux_virtual_machine', name: 'bastion', action: 'no-op', values: linuxVm('vm-bastion-01', 'Standard_B2s') },
        ]),
      },
      {
        name: 'plan-d8-size',
        expectPassed: false,
        object: tfPlan([
          { type: 'azurerm_linux_virtual_machine', name: 'etl', action: 'create', values: linuxVm('vm-etl-01', 'Standard_D8s_v5') },
        ]),
      },
      {
        name: 'plan-password-auth-enabled',
        expectPassed: false,
        object: tfPlan([
          { type: 'azurerm_linux_virtual_machine', name: 'legacy', action: 'update', values: linuxVm('vm-legacy-01', 'Standard_D2s_v5', { disable_password_authentication: false, admin_ssh_key: [] }), before: linuxVm('vm-legacy-01', 'Standard_B2s', { disable_password_authentication: false, admin_ssh_key: [] }) },
        ]),
      },
      {
        name: 'plan-big-windows-vm-ignored',
        expectPassed: true,
        object: tfPlan([
          { type: 'azurerm_windows_virtual_machine', name: 'sql', action: 'create', values: { name: 'vm-sql-01', resource_group_name: 'rg-app-prod', location: 'northeurope', size: 'Standard_E16s_v5', admin_username: 'azureops' } },
          { type: 'azurerm_linux_virtual_machine', name: 'web', module: 'module.web', action: 'create', values: linuxVm('vm-web-01', 'Standard_E4s_v5') },
        ]),
      },
      {
        name: 'plan-module-vm-v4-lookalike-size',
        expectPassed: false,
        object: tfPlan([
          { type: 'azurerm_linux_virtual_machine', name: 'api', action: 'no-op', values: linuxVm('vm-api-01', 'Standard_D4s_v5') },
          { type: 'azurerm_linux_virtual_machine', name: 'worker', module: 'module.workers', action: 'create', values: linuxVm('vm-worker-01', 'Standard_D4s_v4') },
        ]),
      },
    ],
  },
];
