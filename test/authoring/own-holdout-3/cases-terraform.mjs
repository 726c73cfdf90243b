// own-holdout-3: Terraform plan cases (single planned_values resources, resource_changes entries,
// and whole `terraform show -json` plans).
import { tf, tfRes, tfChg, tfPlan, tfv, planResources, planChanges } from './lib.mjs';

const pab = (o) => ({ bucket: 'acme-app-assets', block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true, ...o });
const sgRule = (o) => ({ security_group_id: 'sg-0a1b2c3d4e5f60718', description: null, prefix_list_id: null, referenced_security_group_id: null, cidr_ipv6: null, tags: null, ...o });
const aurora = (o) => ({
  cluster_identifier: 'orders-aurora', engine: 'aurora-postgresql', engine_version: '15.4', master_username: 'orders_admin', database_name: 'orders',
  storage_encrypted: true, backup_retention_period: 14, copy_tags_to_snapshot: true, deletion_protection: false, skip_final_snapshot: false,
  preferred_backup_window: '02:00-03:00', tags: { environment: 'staging', team: 'orders' }, ...o,
});
const trust = (...Statement) => JSON.stringify({ Version: '2012-10-17', Statement });
const role = (assume, o = {}) => ({ name: 'app-role', path: '/', max_session_duration: 3600, force_detach_policies: false, assume_role_policy: assume, tags: { team: 'platform' }, ...o });
const cryptoKey = (o) => ({ name: 'orders-key', key_ring: 'projects/acme-prod/locations/europe-west1/keyRings/orders', purpose: 'ENCRYPT_DECRYPT', labels: { team: 'orders' }, ...o });
const vault = (o) => ({
  name: 'kv-orders-prod-weu', location: 'westeurope', resource_group_name: 'rg-orders-prod', tenant_id: '8a1f2c3d-4b5e-6f70-8192-a3b4c5d6e7f8', sku_name: 'premium',
  purge_protection_enabled: true, soft_delete_retention_days: 90, public_network_access_enabled: false, enable_rbac_authorization: true,
  network_acls: [{ bypass: 'AzureServices', default_action: 'Deny', ip_rules: ['198.51.100.0/28'], virtual_network_subnet_ids: [] }], ...o,
});
const gke = (o) => ({
  name: 'prod-eu', location: 'europe-west1', network: 'projects/acme-prod/global/networks/prod', enable_legacy_abac: false,
  private_cluster_config: [{ enable_private_nodes: true, enable_private_endpoint: false, master_ipv4_cidr_block: '172.16.0.0/28' }],
  master_authorized_networks_config: [{ cidr_blocks: [{ cidr_block: '10.10.0.0/16', display_name: 'corp-vpn' }] }],
  workload_identity_config: [{ workload_pool: 'acme-prod.svc.id.goog' }], ...o,
});
const ec2 = (o) => ({
  ami: 'ami-0c1a7f89451184c8b', instance_type: 'm6i.large', subnet_id: 'subnet-0123456789abcdef0', associate_public_ip_address: false,
  metadata_options: [{ http_endpoint: 'enabled', http_tokens: 'required', http_put_response_hop_limit: 1 }],
  root_block_device: [{ encrypted: true, volume_size: 50, volume_type: 'gp3' }], tags: { Name: 'bastion' }, ...o,
});
const listener = (o) => ({ load_balancer_arn: 'arn:aws:elasticloadbalancing:eu-west-1:111111111111:loadbalancer/app/web/50dc6c495c0c9188', port: 443, protocol: 'HTTPS', ssl_policy: 'ELBSecurityPolicy-TLS13-1-2-2021-06', certificate_arn: 'arn:aws:acm:eu-west-1:111111111111:certificate/3f1c6f2e-1d2b-4a5c-9e8f-0a1b2c3d4e5f', default_action: [{ type: 'forward', target_group_arn: 'arn:aws:elasticloadbalancing:eu-west-1:111111111111:targetgroup/web/6d0ecf831eec9f09' }], ...o });
const redirect = (status_code) => [{ type: 'redirect', redirect: [{ protocol: 'HTTPS', port: '443', status_code, host: '#{host}', path: '/#{path}', query: '#{query}' }] }];
const sqlInst = ({ deletion_protection = true, backups = true, ssl_mode = 'ENCRYPTED_ONLY', ipv4_enabled = false, authorized_networks = [] } = {}) => ({
  name: 'orders-pg', database_version: 'POSTGRES_15', region: 'europe-west1', deletion_protection,
  settings: [{
    tier: 'db-custom-4-16384', availability_type: 'REGIONAL',
    backup_configuration: [{ enabled: backups, point_in_time_recovery_enabled: backups, start_time: '02:00' }],
    ip_configuration: [{ ipv4_enabled, private_network: 'projects/acme-prod/global/networks/prod', ssl_mode, authorized_networks }],
  }],
});
const mssql = (o) => ({
  name: 'sql-payments-prod', resource_group_name: 'rg-payments-prod', location: 'westeurope', version: '12.0', minimum_tls_version: '1.2', public_network_access_enabled: false,
  azuread_administrator: [{ login_username: 'sql-admins', object_id: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d', azuread_authentication_only: true }], ...o,
});
const bucketG = (name, labels) => ({ name, location: 'EU', storage_class: 'STANDARD', uniform_bucket_level_access: true, labels });
const vmG = (name, labels) => ({ name, machine_type: 'e2-standard-4', zone: 'europe-west1-b', labels });
const s3 = (bucket) => ({ bucket, force_destroy: false, tags: { team: 'data' } });
const s3v = (bucket, status) => ({ bucket, versioning_configuration: [{ status }] });

export default [
  // ------------------------------------------------------------------ 1
  {
    id: 'tf3-s3-public-access-block-all-four',
    difficulty: 'easy',
    topics: ['terraform', 'aws', 's3', 'public-access', 'updates'],
    labels: tf('aws_s3_bucket_public_access_block'),
    instruction:
      'S3 Block Public Access: every aws_s3_bucket_public_access_block we plan has to have all four switches on - block_public_acls, block_public_policy, ignore_public_acls and restrict_public_buckets must all be true. Missing counts as off.',
    check: (o) => {
      const v = tfv(o);
      return ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'].every((k) => v[k] === true);
    },
    inputs: [
      { name: 'planned-all-true', expectPassed: true, object: tfRes('aws_s3_bucket_public_access_block', 'assets', pab({})) },
      { name: 'planned-restrict-false', expectPassed: false, object: tfRes('aws_s3_bucket_public_access_block', 'logs', pab({ bucket: 'acme-access-logs', restrict_public_buckets: false })) },
      {
        name: 'update-fixes-ignore-acls',
        expectPassed: true,
        object: tfChg('aws_s3_bucket_public_access_block', 'media', ['update'], pab({ bucket: 'acme-media', ignore_public_acls: false }), pab({ bucket: 'acme-media' })),
      },
      {
        name: 'create-missing-ignore-acls',
        expectPassed: false,
        object: tfChg('aws_s3_bucket_public_access_block', 'exports', ['create'], null, { bucket: 'acme-exports', block_public_acls: true, block_public_policy: true, restrict_public_buckets: true }),
      },
      {
        name: 'update-turns-policy-block-off',
        expectPassed: false,
        object: tfChg('aws_s3_bucket_public_access_block', 'website', ['update'], pab({ bucket: 'acme-website' }), pab({ bucket: 'acme-website', block_public_policy: false })),
      },
    ],
  },

  // ------------------------------------------------------------------ 2
  {
    id: 'tf3-sg-ingress-rule-internet-only-web-ports',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'security-group', 'ports', 'cidr', 'ipv6'],
    labels: tf('aws_vpc_security_group_ingress_rule'),
    instruction:
      'For aws_vpc_security_group_ingress_rule resources: a rule open to the whole internet (cidr_ipv4 0.0.0.0/0 or cidr_ipv6 ::/0) may only allow exactly TCP 443 or exactly TCP 80, i.e. ip_protocol "tcp" with from_port and to_port both 443, or both 80. Port ranges that merely include 443 do not qualify, and ip_protocol "-1" (all traffic) open to the internet is never ok. Rules scoped to narrower CIDRs, prefix lists or other security groups are not restricted by this control.',
    check: (o) => {
      const v = tfv(o);
      if (!(v.cidr_ipv4 === '0.0.0.0/0' || v.cidr_ipv6 === '::/0')) return true;
      return v.ip_protocol === 'tcp' && v.from_port === v.to_port && [80, 443].includes(v.from_port);
    },
    inputs: [
      { name: 'https-from-anywhere', expectPassed: true, object: tfRes('aws_vpc_security_group_ingress_rule', 'alb_https', sgRule({ cidr_ipv4: '0.0.0.0/0', ip_protocol: 'tcp', from_port: 443, to_port: 443 })) },
      { name: 'ssh-from-anywhere', expectPassed: false, object: tfRes('aws_vpc_security_group_ingress_rule', 'bastion_ssh', sgRule({ cidr_ipv4: '0.0.0.0/0', ip_protocol: 'tcp', from_port: 22, to_port: 22 })) },
      { name: 'range-80-to-443-from-anywhere', expectPassed: false, object: tfRes('aws_vpc_security_group_ingress_rule', 'web_range', sgRule({ cidr_ipv4: '0.0.0.0/0', ip_protocol: 'tcp', from_port: 80, to_port: 443 })) },
      { name: 'all-traffic-ipv6-anywhere', expectPassed: false, object: tfRes('aws_vpc_security_group_ingress_rule', 'v6_all', sgRule({ cidr_ipv4: null, cidr_ipv6: '::/0', ip_protocol: '-1', from_port: null, to_port: null })) },
      { name: 'ssh-from-vpn-range', expectPassed: true, object: tfRes('aws_vpc_security_group_ingress_rule', 'vpn_ssh', sgRule({ cidr_ipv4: '10.50.0.0/16', ip_protocol: 'tcp', from_port: 22, to_port: 22 })) },
      { name: 'create-http-from-anywhere', expectPassed: true, object: tfChg('aws_vpc_security_group_ingress_rule', 'alb_http', ['create'], null, sgRule({ cidr_ipv4: '0.0.0.0/0', ip_protocol: 'tcp', from_port: 80, to_port: 80 })) },
    ],
  },

  // ------------------------------------------------------------------ 3
  {
    id: 'tf3-aurora-cluster-durability',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'rds', 'aurora', 'encryption', 'backups', 'conditions'],
    labels: tf('aws_rds_cluster'),
    instruction: `Aurora clusters (aws_rds_cluster):
- storage_encrypted = true
- backup_retention_period of at least 14 days
- copy_tags_to_snapshot = true
- when tags.environment is "production", deletion_protection must be true as well (non-prod clusters may leave it off)`,
    check: (o) => {
      const v = tfv(o);
      if (v.storage_encrypted !== true || !(v.backup_retention_period >= 14) || v.copy_tags_to_snapshot !== true) return false;
      return v.tags?.environment !== 'production' || v.deletion_protection === true;
    },
    inputs: [
      { name: 'production-compliant', expectPassed: true, object: tfRes('aws_rds_cluster', 'orders', aurora({ deletion_protection: true, backup_retention_period: 35, tags: { environment: 'production', team: 'orders' } })) },
      { name: 'staging-without-deletion-protection', expectPassed: true, object: tfRes('aws_rds_cluster', 'orders_staging', aurora({ cluster_identifier: 'orders-aurora-stg' })) },
      { name: 'production-deletion-protection-off', expectPassed: false, object: tfRes('aws_rds_cluster', 'billing', aurora({ cluster_identifier: 'billing-aurora', tags: { environment: 'production', team: 'billing' } })) },
      { name: 'retention-seven-days', expectPassed: false, object: tfRes('aws_rds_cluster', 'analytics', aurora({ cluster_identifier: 'analytics-aurora', backup_retention_period: 7 })) },
      { name: 'storage-not-encrypted', expectPassed: false, object: tfChg('aws_rds_cluster', 'sandbox', ['create'], null, aurora({ cluster_identifier: 'sandbox-aurora', storage_encrypted: false, tags: { environment: 'dev' } })) },
      {
        name: 'update-raises-retention-to-14',
        expectPassed: true,
        object: tfChg('aws_rds_cluster', 'ledger', ['update'], aurora({ cluster_identifier: 'ledger-aurora', backup_retention_period: 7, deletion_protection: true, tags: { environment: 'production' } }), aurora({ cluster_identifier: 'ledger-aurora', backup_retention_period: 14, deletion_protection: true, tags: { environment: 'production' } })),
      },
    ],
  },

  // ------------------------------------------------------------------ 4
  {
    id: 'tf3-iam-role-trust-policy-principals',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'iam', 'trust-policy', 'json-string', 'principals'],
    labels: tf('aws_iam_role'),
    instruction:
      'Trust policies (aws_iam_role.assume_role_policy, which is a JSON string): in every Allow statement, the principals must be AWS service principals (Principal.Service), federated identity providers (Principal.Federated), or AWS principals that belong to one of our organisation\'s two accounts, 111111111111 and 222222222222 (either as an ARN such as arn:aws:iam::111111111111:root or arn:aws:iam::222222222222:role/..., or as the bare 12-digit account id). A wildcard principal - "Principal": "*" or {"AWS": "*"} - is never acceptable, with or without conditions. Deny statements are not restricted.',
    check: (o) => {
      const doc = JSON.parse(tfv(o).assume_role_policy);
      const ours = ['111111111111', '222222222222'];
      return [doc.Statement].flat().filter((s) => s.Effect === 'Allow').every((s) => {
        const p = s.Principal;
        if (p === '*') return false;
        return [p?.AWS ?? []].flat().every((a) => {
          if (a === '*') return false;
          const acct = /^\d{12}$/.test(a) ? a : /^arn:aws:iam::(\d{12}):/.exec(a)?.[1];
          return ours.includes(acct);
        });
      });
    },
    inputs: [
      {
        name: 'ec2-service-principal',
        expectPassed: true,
        object: tfRes('aws_iam_role', 'ec2_app', role(trust({ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }), { name: 'ec2-app' })),
      },
      {
        name: 'aws-wildcard-with-org-condition',
        expectPassed: false,
        object: tfRes('aws_iam_role', 'cross_account', role(trust({ Effect: 'Allow', Principal: { AWS: '*' }, Action: 'sts:AssumeRole', Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-a1b2c3d4e5' } } }), { name: 'cross-account-reader' })),
      },
      {
        name: 'third-party-account',
        expectPassed: false,
        object: tfChg('aws_iam_role', 'vendor', ['create'], null, role(trust({ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::333333333333:root' }, Action: 'sts:AssumeRole', Condition: { StringEquals: { 'sts:ExternalId': 'acme-7731' } } }), { name: 'vendor-monitoring' })),
      },
      {
        name: 'own-accounts-root-and-role',
        expectPassed: true,
        object: tfRes('aws_iam_role', 'deployer', role(trust({ Effect: 'Allow', Principal: { AWS: ['arn:aws:iam::111111111111:root', 'arn:aws:iam::222222222222:role/ci-runner'] }, Action: ['sts:AssumeRole', 'sts:TagSession'] }), { name: 'deployer' })),
      },
      {
        name: 'string-wildcard-principal',
        expectPassed: false,
        object: tfRes('aws_iam_role', 'open', role(trust({ Sid: 'Anyone', Effect: 'Allow', Principal: '*', Action: 'sts:AssumeRole' }), { name: 'open-role' })),
      },
      {
        name: 'github-oidc-allow-and-wildcard-deny',
        expectPassed: true,
        object: tfRes('aws_iam_role', 'gha', role(trust(
          { Effect: 'Allow', Principal: { Federated: 'arn:aws:iam::111111111111:oidc-provider/token.actions.githubusercontent.com' }, Action: 'sts:AssumeRoleWithWebIdentity', Condition: { StringLike: { 'token.actions.githubusercontent.com:sub': 'repo:acme/*:ref:refs/heads/main' } } },
          { Effect: 'Deny', Principal: { AWS: '*' }, Action: 'sts:AssumeRole' },
        ), { name: 'github-actions-deploy' })),
      },
    ],
  },

  // ------------------------------------------------------------------ 5
  {
    id: 'tf3-gcp-kms-rotation-and-hsm',
    difficulty: 'medium',
    topics: ['terraform', 'gcp', 'kms', 'rotation', 'durations', 'conditions'],
    labels: tf('google_kms_crypto_key'),
    instruction:
      'GCP KMS keys (google_kms_crypto_key): automatic rotation is mandatory - rotation_period must be set and be 90 days or less (it is a seconds string, e.g. "7776000s" is exactly 90 days). Keys labelled data_class = restricted must also be HSM-backed, i.e. version_template.protection_level = "HSM".',
    check: (o) => {
      const v = tfv(o);
      const m = /^(\d+(?:\.\d+)?)s$/.exec(v.rotation_period ?? '');
      if (!m || Number(m[1]) > 7776000) return false;
      return v.labels?.data_class !== 'restricted' || v.version_template?.[0]?.protection_level === 'HSM';
    },
    inputs: [
      { name: 'ninety-days-exactly', expectPassed: true, object: tfRes('google_kms_crypto_key', 'orders', cryptoKey({ rotation_period: '7776000s' })) },
      { name: 'no-rotation-period', expectPassed: false, object: tfRes('google_kms_crypto_key', 'exports', cryptoKey({ name: 'exports-key' })) },
      { name: 'yearly-rotation', expectPassed: false, object: tfRes('google_kms_crypto_key', 'archive', cryptoKey({ name: 'archive-key', rotation_period: '31536000s' })) },
      {
        name: 'restricted-software-key',
        expectPassed: false,
        object: tfRes('google_kms_crypto_key', 'pii', cryptoKey({ name: 'pii-key', rotation_period: '2592000s', labels: { team: 'identity', data_class: 'restricted' }, version_template: [{ algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION', protection_level: 'SOFTWARE' }] })),
      },
      {
        name: 'create-restricted-hsm-30-days',
        expectPassed: true,
        object: tfChg('google_kms_crypto_key', 'cardholder', ['create'], null, cryptoKey({ name: 'cardholder-key', rotation_period: '2592000s', labels: { team: 'payments', data_class: 'restricted' }, version_template: [{ algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION', protection_level: 'HSM' }] })),
      },
      {
        name: 'update-adds-rotation',
        expectPassed: true,
        object: tfChg('google_kms_crypto_key', 'reports', ['update'], cryptoKey({ name: 'reports-key' }), cryptoKey({ name: 'reports-key', rotation_period: '5184000s' })),
      },
    ],
  },

  // ------------------------------------------------------------------ 6
  {
    id: 'tf3-azure-key-vault-baseline',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'key-vault', 'network', 'defaults'],
    labels: tf('azurerm_key_vault'),
    instruction: `Azure Key Vault baseline:
1) purge_protection_enabled must be true
2) soft_delete_retention_days: if specified, at least 30 (when it's omitted the default of 90 applies, which is fine)
3) public_network_access_enabled must be false
4) a network_acls block is required, with default_action "Deny"`,
    check: (o) => {
      const v = tfv(o);
      if (v.purge_protection_enabled !== true || v.public_network_access_enabled !== false) return false;
      if (v.soft_delete_retention_days !== undefined && v.soft_delete_retention_days !== null && v.soft_delete_retention_days < 30) return false;
      return v.network_acls?.[0]?.default_action === 'Deny';
    },
    inputs: [
      { name: 'compliant-vault', expectPassed: true, object: tfRes('azurerm_key_vault', 'orders', vault({})) },
      { name: 'purge-protection-off', expectPassed: false, object: tfRes('azurerm_key_vault', 'sandbox', vault({ name: 'kv-sandbox-weu', purge_protection_enabled: false })) },
      { name: 'retention-seven-days', expectPassed: false, object: tfRes('azurerm_key_vault', 'ci', vault({ name: 'kv-ci-weu', soft_delete_retention_days: 7 })) },
      { name: 'public-network-enabled', expectPassed: false, object: tfRes('azurerm_key_vault', 'web', vault({ name: 'kv-web-weu', public_network_access_enabled: true })) },
      { name: 'acls-default-allow', expectPassed: false, object: tfChg('azurerm_key_vault', 'data', ['update'], vault({ name: 'kv-data-weu' }), vault({ name: 'kv-data-weu', network_acls: [{ bypass: 'AzureServices', default_action: 'Allow', ip_rules: [], virtual_network_subnet_ids: [] }] })) },
      {
        name: 'create-retention-omitted',
        expectPassed: true,
        object: tfChg('azurerm_key_vault', 'payments', ['create'], null, (({ soft_delete_retention_days, ...rest }) => rest)(vault({ name: 'kv-payments-weu' }))),
      },
    ],
  },

  // ------------------------------------------------------------------ 7
  {
    id: 'tf3-gke-cluster-cis-subset',
    difficulty: 'hard',
    topics: ['terraform', 'gcp', 'gke', 'private-cluster', 'cidr', 'workload-identity'],
    labels: tf('google_container_cluster'),
    instruction: `GKE clusters (google_container_cluster) - our subset of the CIS GKE Benchmark:
- legacy ABAC off: enable_legacy_abac must be false (absent is fine too, it defaults to false)
- private nodes: a private_cluster_config block must be present with enable_private_nodes = true
- master_authorized_networks_config must be present, and none of its cidr_blocks may be 0.0.0.0/0
- Workload Identity enabled: workload_identity_config.workload_pool set to a non-empty value`,
    check: (o) => {
      const v = tfv(o);
      if (v.enable_legacy_abac === true) return false;
      if (v.private_cluster_config?.[0]?.enable_private_nodes !== true) return false;
      const man = v.master_authorized_networks_config?.[0];
      if (!man || (man.cidr_blocks ?? []).some((b) => b.cidr_block === '0.0.0.0/0')) return false;
      const pool = v.workload_identity_config?.[0]?.workload_pool;
      return typeof pool === 'string' && pool !== '';
    },
    inputs: [
      { name: 'compliant-cluster', expectPassed: true, object: tfRes('google_container_cluster', 'prod_eu', gke({})) },
      { name: 'legacy-abac-on', expectPassed: false, object: tfRes('google_container_cluster', 'legacy', gke({ name: 'legacy-eu', enable_legacy_abac: true })) },
      { name: 'public-nodes', expectPassed: false, object: tfRes('google_container_cluster', 'dev_eu', gke({ name: 'dev-eu', private_cluster_config: [{ enable_private_nodes: false, enable_private_endpoint: false }] })) },
      {
        name: 'authorized-network-anywhere',
        expectPassed: false,
        object: tfRes('google_container_cluster', 'tools', gke({ name: 'tools-eu', master_authorized_networks_config: [{ cidr_blocks: [{ cidr_block: '10.10.0.0/16', display_name: 'corp-vpn' }, { cidr_block: '0.0.0.0/0', display_name: 'temp-debug' }] }] })),
      },
      { name: 'no-workload-identity', expectPassed: false, object: tfChg('google_container_cluster', 'batch', ['create'], null, (({ workload_identity_config, ...rest }) => rest)(gke({ name: 'batch-eu' }))) },
      {
        name: 'update-abac-attribute-absent',
        expectPassed: true,
        object: tfChg('google_container_cluster', 'staging', ['update'], gke({ name: 'staging-eu', workload_identity_config: [] }), (({ enable_legacy_abac, ...rest }) => rest)(gke({ name: 'staging-eu', workload_identity_config: [{ workload_pool: 'acme-staging.svc.id.goog' }] }))),
      },
    ],
  },

  // ------------------------------------------------------------------ 8
  {
    id: 'tf3-ec2-instance-hardening',
    difficulty: 'medium',
    topics: ['terraform', 'aws', 'ec2', 'imdsv2', 'encryption', 'instance-types'],
    labels: tf('aws_instance'),
    instruction: `EC2 instances (aws_instance) must:
- require IMDSv2: metadata_options.http_tokens = "required" (so the metadata_options block has to be there)
- have an encrypted root volume: root_block_device.encrypted = true
- not get a public IP: associate_public_ip_address must not be true
- come from the t3, m6i or c6i families (instance_type like m6i.large, c6i.2xlarge)`,
    check: (o) => {
      const v = tfv(o);
      if (v.metadata_options?.[0]?.http_tokens !== 'required') return false;
      if (v.root_block_device?.[0]?.encrypted !== true) return false;
      if (v.associate_public_ip_address === true) return false;
      return ['t3', 'm6i', 'c6i'].includes(String(v.instance_type).split('.')[0]);
    },
    inputs: [
      { name: 'compliant-m6i', expectPassed: true, object: tfRes('aws_instance', 'bastion', ec2({})) },
      { name: 'imds-tokens-optional', expectPassed: false, object: tfRes('aws_instance', 'legacy_app', ec2({ metadata_options: [{ http_endpoint: 'enabled', http_tokens: 'optional', http_put_response_hop_limit: 1 }], tags: { Name: 'legacy-app' } })) },
      { name: 'root-volume-unencrypted', expectPassed: false, object: tfRes('aws_instance', 'build_agent', ec2({ instance_type: 'c6i.xlarge', root_block_device: [{ encrypted: false, volume_size: 100, volume_type: 'gp3' }], tags: { Name: 'build-agent' } })) },
      { name: 'public-ip-requested', expectPassed: false, object: tfChg('aws_instance', 'vpn', ['create'], null, ec2({ instance_type: 't3.small', associate_public_ip_address: true, tags: { Name: 'vpn' } })) },
      { name: 'old-t2-family', expectPassed: false, object: tfRes('aws_instance', 'cron_box', ec2({ instance_type: 't2.micro', tags: { Name: 'cron-box' } })) },
      {
        name: 'update-resize-to-c6i',
        expectPassed: true,
        object: tfChg('aws_instance', 'worker', ['update'], ec2({ instance_type: 't3.large', tags: { Name: 'worker' } }), ec2({ instance_type: 'c6i.2xlarge', tags: { Name: 'worker' } })),
      },
    ],
  },

  // ------------------------------------------------------------------ 9
  {
    id: 'tf3-lb-listener-tls-policy-and-http-redirect',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 'load-balancer', 'tls', 'redirect', 'allowlist'],
    labels: tf('aws_lb_listener'),
    instruction: `Load balancer listeners (aws_lb_listener):
- HTTPS and TLS listeners must use one of these ssl_policy values: ELBSecurityPolicy-TLS13-1-2-2021-06, ELBSecurityPolicy-TLS13-1-3-2021-06, ELBSecurityPolicy-FS-1-2-Res-2020-10.
- HTTP listeners are only allowed as a redirect to HTTPS: the default action must be of type redirect, with redirect protocol HTTPS and status_code HTTP_301. A plain forward on HTTP is not allowed.
- TCP / UDP / TCP_UDP listeners (NLBs) are out of scope.`,
    check: (o) => {
      const v = tfv(o);
      if (['HTTPS', 'TLS'].includes(v.protocol)) return ['ELBSecurityPolicy-TLS13-1-2-2021-06', 'ELBSecurityPolicy-TLS13-1-3-2021-06', 'ELBSecurityPolicy-FS-1-2-Res-2020-10'].includes(v.ssl_policy);
      if (v.protocol === 'HTTP') {
        const acts = v.default_action ?? [];
        return acts.length > 0 && acts.every((a) => a.type === 'redirect' && a.redirect?.[0]?.protocol === 'HTTPS' && a.redirect[0].status_code === 'HTTP_301');
      }
      return true;
    },
    inputs: [
      { name: 'https-tls13-policy', expectPassed: true, object: tfRes('aws_lb_listener', 'https', listener({})) },
      { name: 'https-2016-policy', expectPassed: false, object: tfRes('aws_lb_listener', 'legacy_https', listener({ ssl_policy: 'ELBSecurityPolicy-2016-08' })) },
      { name: 'http-permanent-redirect', expectPassed: true, object: tfRes('aws_lb_listener', 'http', listener({ port: 80, protocol: 'HTTP', ssl_policy: null, certificate_arn: null, default_action: redirect('HTTP_301') })) },
      {
        name: 'http-forward',
        expectPassed: false,
        object: tfChg('aws_lb_listener', 'http_internal', ['create'], null, listener({ port: 80, protocol: 'HTTP', ssl_policy: null, certificate_arn: null })),
      },
      { name: 'http-temporary-redirect', expectPassed: false, object: tfRes('aws_lb_listener', 'http_302', listener({ port: 80, protocol: 'HTTP', ssl_policy: null, certificate_arn: null, default_action: redirect('HTTP_302') })) },
      { name: 'nlb-tcp-listener', expectPassed: true, object: tfRes('aws_lb_listener', 'mqtt', listener({ port: 8883, protocol: 'TCP', ssl_policy: null, certificate_arn: null })) },
    ],
  },

  // ------------------------------------------------------------------ 10
  {
    id: 'tf3-cloud-sql-instance-protection',
    difficulty: 'hard',
    topics: ['terraform', 'gcp', 'cloud-sql', 'backups', 'tls', 'cidr', 'conditions'],
    labels: tf('google_sql_database_instance'),
    instruction: `Cloud SQL instances (google_sql_database_instance):
a. deletion_protection = true
b. settings.backup_configuration.enabled = true
c. settings.ip_configuration.ssl_mode must be ENCRYPTED_ONLY or TRUSTED_CLIENT_CERTIFICATE_REQUIRED
d. if the instance gets a public IPv4 address (ip_configuration.ipv4_enabled = true), its authorized_networks must not include 0.0.0.0/0. Private-IP-only instances aren't subject to (d).`,
    check: (o) => {
      const v = tfv(o);
      if (v.deletion_protection !== true) return false;
      const s = v.settings?.[0] ?? {};
      if (s.backup_configuration?.[0]?.enabled !== true) return false;
      const ip = s.ip_configuration?.[0] ?? {};
      if (!['ENCRYPTED_ONLY', 'TRUSTED_CLIENT_CERTIFICATE_REQUIRED'].includes(ip.ssl_mode)) return false;
      return ip.ipv4_enabled !== true || !(ip.authorized_networks ?? []).some((n) => n.value === '0.0.0.0/0');
    },
    inputs: [
      { name: 'private-ip-compliant', expectPassed: true, object: tfRes('google_sql_database_instance', 'orders', sqlInst()) },
      { name: 'deletion-protection-off', expectPassed: false, object: tfRes('google_sql_database_instance', 'scratch', sqlInst({ deletion_protection: false })) },
      { name: 'backups-disabled', expectPassed: false, object: tfChg('google_sql_database_instance', 'reports', ['create'], null, sqlInst({ backups: false })) },
      { name: 'ssl-mode-allows-plaintext', expectPassed: false, object: tfRes('google_sql_database_instance', 'legacy', sqlInst({ ssl_mode: 'ALLOW_UNENCRYPTED_AND_ENCRYPTED' })) },
      { name: 'public-ip-open-to-world', expectPassed: false, object: tfRes('google_sql_database_instance', 'bi', sqlInst({ ipv4_enabled: true, authorized_networks: [{ name: 'anyone', value: '0.0.0.0/0' }] })) },
      {
        name: 'public-ip-office-range-client-certs',
        expectPassed: true,
        object: tfRes('google_sql_database_instance', 'support', sqlInst({ ipv4_enabled: true, ssl_mode: 'TRUSTED_CLIENT_CERTIFICATE_REQUIRED', authorized_networks: [{ name: 'hq', value: '198.51.100.16/28' }] })),
      },
    ],
  },

  // ------------------------------------------------------------------ 11
  {
    id: 'tf3-azure-sql-server-pci',
    difficulty: 'medium',
    topics: ['terraform', 'azure', 'sql', 'tls', 'entra-id', 'updates'],
    labels: tf('azurerm_mssql_server'),
    instruction: `Azure SQL logical servers (azurerm_mssql_server) - PCI DSS req. 4 and 8:
- minimum_tls_version must be "1.2" or higher; "1.0", "1.1" or "Disabled" fail
- public_network_access_enabled = false
- Entra ID (Azure AD) admin configured: an azuread_administrator block with azuread_authentication_only = true, i.e. SQL logins switched off`,
    check: (o) => {
      const v = tfv(o);
      if (!['1.2', '1.3'].includes(v.minimum_tls_version)) return false;
      if (v.public_network_access_enabled !== false) return false;
      return v.azuread_administrator?.[0]?.azuread_authentication_only === true;
    },
    inputs: [
      { name: 'compliant-server', expectPassed: true, object: tfRes('azurerm_mssql_server', 'payments', mssql({})) },
      { name: 'tls-1-1', expectPassed: false, object: tfRes('azurerm_mssql_server', 'legacy', mssql({ name: 'sql-legacy-prod', minimum_tls_version: '1.1' })) },
      { name: 'public-network-on', expectPassed: false, object: tfRes('azurerm_mssql_server', 'reporting', mssql({ name: 'sql-reporting-prod', public_network_access_enabled: true })) },
      { name: 'no-entra-admin', expectPassed: false, object: tfChg('azurerm_mssql_server', 'crm', ['create'], null, { ...mssql({ name: 'sql-crm-prod', administrator_login: 'crmadmin' }), azuread_administrator: [] }) },
      {
        name: 'entra-admin-but-sql-logins-on',
        expectPassed: false,
        object: tfRes('azurerm_mssql_server', 'hr', mssql({ name: 'sql-hr-prod', administrator_login: 'hradmin', azuread_administrator: [{ login_username: 'sql-admins', object_id: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d', azuread_authentication_only: false }] })),
      },
      { name: 'update-raises-tls-to-1-2', expectPassed: true, object: tfChg('azurerm_mssql_server', 'orders', ['update'], mssql({ name: 'sql-orders-prod', minimum_tls_version: '1.0' }), mssql({ name: 'sql-orders-prod' })) },
    ],
  },

  // ------------------------------------------------------------------ 12
  {
    id: 'tf3-plan-gcp-team-env-labels',
    difficulty: 'hard',
    topics: ['terraform', 'gcp', 'plan', 'labels', 'child-modules', 'deletes'],
    labels: tf('plan'),
    instruction:
      'Labelling policy for GCP, checked on the whole plan: every google_storage_bucket and every google_compute_instance in planned_values - root module and all child modules, however deeply nested - must have a non-empty `team` label and an `env` label whose value is one of dev, staging or prod. Other resource types in the plan are not checked.',
    check: (o) =>
      planResources(o).filter((r) => ['google_storage_bucket', 'google_compute_instance'].includes(r.type)).every((r) => {
        const l = r.values?.labels ?? {};
        return typeof l.team === 'string' && l.team !== '' && ['dev', 'staging', 'prod'].includes(l.env);
      }),
    inputs: [
      {
        name: 'root-and-child-all-labelled',
        expectPassed: true,
        object: tfPlan([
          { type: 'google_storage_bucket', name: 'assets', action: 'create', values: bucketG('acme-assets-prod', { team: 'web', env: 'prod' }) },
          { type: 'google_compute_instance', name: 'runner', module: 'module.ci', action: 'create', values: vmG('ci-runner-1', { team: 'ci', env: 'dev' }) },
        ]),
      },
      {
        name: 'child-module-bucket-missing-team',
        expectPassed: false,
        object: tfPlan([
          { type: 'google_storage_bucket', name: 'assets', action: 'no-op', values: bucketG('acme-assets-prod', { team: 'web', env: 'prod' }) },
          { type: 'google_storage_bucket', name: 'exports', module: 'module.analytics', action: 'create', values: bucketG('acme-analytics-exports', { env: 'prod' }) },
        ]),
      },
      {
        name: 'instance-env-production-not-allowed',
        expectPassed: false,
        object: tfPlan([{ type: 'google_compute_instance', name: 'api', action: 'update', before: vmG('api-1', { team: 'api', env: 'prod' }), values: vmG('api-1', { team: 'api', env: 'production' }) }]),
      },
      {
        name: 'unlabelled-network-not-in-scope',
        expectPassed: true,
        object: tfPlan([
          { type: 'google_compute_network', name: 'vpc', action: 'create', values: { name: 'prod-vpc', auto_create_subnetworks: false, routing_mode: 'REGIONAL' } },
          { type: 'google_storage_bucket', name: 'logs', action: 'create', values: bucketG('acme-logs-staging', { team: 'platform', env: 'staging' }) },
        ]),
      },
      {
        name: 'unlabelled-bucket-being-deleted',
        expectPassed: true,
        object: tfPlan([
          { type: 'google_storage_bucket', name: 'old_tmp', action: 'delete', values: bucketG('acme-old-tmp', {}) },
          { type: 'google_compute_instance', name: 'worker', module: 'module.batch', action: 'create', values: vmG('batch-worker-1', { team: 'data', env: 'staging' }) },
        ]),
      },
      {
        name: 'nested-module-instance-unlabelled',
        expectPassed: false,
        object: tfPlan([
          { type: 'google_storage_bucket', name: 'assets', action: 'no-op', values: bucketG('acme-assets-prod', { team: 'web', env: 'prod' }) },
          { type: 'google_compute_instance', name: 'node', module: 'module.platform.module.monitoring', action: 'create', values: vmG('prom-1', {}) },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ 13
  {
    id: 'tf3-plan-delete-budget-and-network-freeze',
    difficulty: 'hard',
    topics: ['terraform', 'plan', 'deletes', 'replace', 'child-modules', 'counting'],
    labels: tf('plan'),
    instruction:
      'Change-safety gate for terraform plans: (1) a plan may delete at most 3 resources in total - count every resource_changes entry whose actions include "delete", so replacements count too; (2) nothing in module.network (including its nested child modules) may be deleted or replaced at all. Creates, updates and no-ops are unlimited.',
    check: (o) => {
      const dels = planChanges(o).filter((c) => (c.change?.actions ?? []).includes('delete'));
      return dels.length <= 3 && !dels.some((c) => c.address.startsWith('module.network.'));
    },
    inputs: [
      {
        name: 'creates-and-updates-only',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'reports', action: 'create', values: s3('acme-reports') },
          { type: 'aws_subnet', name: 'private_a', module: 'module.network', action: 'update', before: { vpc_id: 'vpc-0abc', cidr_block: '10.0.1.0/24', tags: { tier: 'private' } }, values: { vpc_id: 'vpc-0abc', cidr_block: '10.0.1.0/24', tags: { tier: 'private', az: 'a' } } },
        ]),
      },
      {
        name: 'two-deletes-one-replace',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_sqs_queue', name: 'old_jobs', action: 'delete', values: { name: 'old-jobs' } },
          { type: 'aws_sns_topic', name: 'old_alerts', action: 'delete', values: { name: 'old-alerts' } },
          { type: 'aws_instance', name: 'worker', action: 'replace', values: ec2({ instance_type: 'c6i.large' }) },
          { type: 'aws_s3_bucket', name: 'reports', action: 'no-op', values: s3('acme-reports') },
        ]),
      },
      {
        name: 'four-deletes',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_sqs_queue', name: 'q1', action: 'delete', values: { name: 'legacy-q1' } },
          { type: 'aws_sqs_queue', name: 'q2', action: 'delete', values: { name: 'legacy-q2' } },
          { type: 'aws_sqs_queue', name: 'q3', action: 'delete', values: { name: 'legacy-q3' } },
          { type: 'aws_sns_topic', name: 't1', action: 'delete', values: { name: 'legacy-t1' } },
        ]),
      },
      {
        name: 'delete-in-network-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_route_table', name: 'public', module: 'module.network', action: 'delete', values: { vpc_id: 'vpc-0abc', tags: { Name: 'public' } } },
          { type: 'aws_s3_bucket', name: 'reports', action: 'create', values: s3('acme-reports') },
        ]),
      },
      {
        name: 'replace-in-nested-network-module',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_subnet', name: 'db_a', module: 'module.network.module.subnets', action: 'replace', before: { vpc_id: 'vpc-0abc', cidr_block: '10.0.8.0/24' }, values: { vpc_id: 'vpc-0abc', cidr_block: '10.0.9.0/24' } },
        ]),
      },
      {
        name: 'delete-in-similarly-named-module',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_route_table', name: 'old', module: 'module.network_legacy', action: 'delete', values: { vpc_id: 'vpc-0old', tags: { Name: 'old' } } },
          { type: 'aws_s3_bucket', name: 'reports', action: 'no-op', values: s3('acme-reports') },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ 14
  {
    id: 'tf3-plan-every-s3-bucket-versioned',
    difficulty: 'hard',
    topics: ['terraform', 'aws', 's3', 'plan', 'versioning', 'cross-resource', 'child-modules'],
    labels: tf('plan'),
    instruction:
      'Every S3 bucket we create or keep (each aws_s3_bucket in planned_values, in any module) needs versioning switched on through a companion aws_s3_bucket_versioning resource in the same plan whose `bucket` equals that bucket\'s `bucket` name and whose versioning_configuration.status is "Enabled". "Suspended" does not count. A plan with no buckets passes trivially.',
    check: (o) => {
      const rs = planResources(o);
      const vers = rs.filter((r) => r.type === 'aws_s3_bucket_versioning');
      return rs.filter((r) => r.type === 'aws_s3_bucket').every((b) => vers.some((v) => v.values?.bucket === b.values?.bucket && v.values?.versioning_configuration?.[0]?.status === 'Enabled'));
    },
    inputs: [
      {
        name: 'bucket-with-enabled-versioning',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'invoices', action: 'create', values: s3('acme-invoices') },
          { type: 'aws_s3_bucket_versioning', name: 'invoices', action: 'create', values: s3v('acme-invoices', 'Enabled') },
        ]),
      },
      { name: 'bucket-without-versioning', expectPassed: false, object: tfPlan([{ type: 'aws_s3_bucket', name: 'tmp', action: 'create', values: s3('acme-tmp-uploads') }]) },
      {
        name: 'versioning-suspended',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'media', action: 'no-op', values: s3('acme-media') },
          { type: 'aws_s3_bucket_versioning', name: 'media', action: 'update', before: s3v('acme-media', 'Enabled'), values: s3v('acme-media', 'Suspended') },
        ]),
      },
      {
        name: 'second-bucket-not-covered',
        expectPassed: false,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'raw', action: 'create', values: s3('acme-datalake-raw') },
          { type: 'aws_s3_bucket', name: 'curated', action: 'create', values: s3('acme-datalake-curated') },
          { type: 'aws_s3_bucket_versioning', name: 'raw', action: 'create', values: s3v('acme-datalake-raw', 'Enabled') },
        ]),
      },
      {
        name: 'buckets-in-child-module-versioned',
        expectPassed: true,
        object: tfPlan([
          { type: 'aws_s3_bucket', name: 'this', module: 'module.backups', action: 'create', values: s3('acme-backups-eu') },
          { type: 'aws_s3_bucket_versioning', name: 'this', module: 'module.backups', action: 'create', values: s3v('acme-backups-eu', 'Enabled') },
          { type: 'aws_iam_role', name: 'backup', action: 'create', values: role(trust({ Effect: 'Allow', Principal: { Service: 'backup.amazonaws.com' }, Action: 'sts:AssumeRole' }), { name: 'backup' }) },
        ]),
      },
      {
        name: 'no-buckets-in-plan',
        expectPassed: true,
        object: tfPlan([{ type: 'aws_sqs_queue', name: 'jobs', action: 'create', values: { name: 'jobs', visibility_timeout_seconds: 60 } }]),
      },
    ],
  },
];
