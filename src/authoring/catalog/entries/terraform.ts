import type { ClauseTest, NamedRequirement } from '../named-requirement.js'

/**
 * Rules on Terraform documents as `terraform show -json` writes them: a whole plan, one
 * planned_values resource, or one resource_changes entry (see vocabulary/terraform.ts, `plan-rule`).
 *
 * Semantics shared by every requirement:
 * - A plan without a resource of the judged types passes.
 * - Only what the plan knows is judged: Terraform leaves values known only after apply out of
 *   `planned_values`, so such an attribute counts as missing. "Must be encrypted" fails when the
 *   attribute is missing; "must not be public" passes when it is missing and the provider's
 *   default is private.
 * - Documents that are not Terraform documents are skipped, not passed.
 *
 * CEL here uses the plan shorthands ($string, $list, $type, $base) of vocabulary/terraform.ts.
 */

const ENCRYPTION: ClauseTest = { mentions: [{ words: 'terraform-encryption' }] }
const TAGS: ClauseTest = { mentions: [{ words: 'terraform-tags' }] }
/** "Secure buckets" asks for every check; "tagged buckets" is another requirement. */
const SECURE_NOT_TAGS: ClauseTest = { all: [{ mentions: [{ words: 'terraform-secure' }] }, { not: TAGS }] }

const PUBLIC_BUCKET: ClauseTest = { mentions: [{ re: '\\bpublic|\\bacls?\\b|anonymous|world|internet|\\bprivate\\b|open to|exposed' }, { re: 'public access' }] }
const PUBLIC_DATABASE: ClauseTest = { mentions: [{ re: '\\bpublic|internet|exposed|reachable|\\bprivate\\b' }] }
const ABOUT_SECURITY_GROUPS: ClauseTest = { mentions: [{ re: 'security ?groups?|\\bsgs?\\b|aws_security_group|aws_vpc_security_group_ingress_rule|\\bingress\\b|firewall|inbound' }] }
/** "only 80 and 443", "except 443": the ports named are the ones allowed. */
const PORT_EXCEPTION: ClauseTest = { mentions: [{ re: '\\b(only|except|other than|besides|apart from|but)\\b' }] }
const INSTANCE_TYPES_NAMED: ClauseTest = { reads: 'instance-types' }

const BLOCK_FLAGS_ON = { block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true }

/** Good edits of public-access: private ACLs, every block's settings on. */
const PRIVATE_BUCKETS = [
  { at: { use: 'resources', with: { types: ['aws_s3_bucket', 'aws_s3_bucket_acl'] } }, set: { acl: 'private' } },
  { at: { use: 'resources', with: { types: ['aws_s3_bucket_public_access_block', 'aws_s3_account_public_access_block'] } }, set: BLOCK_FLAGS_ON },
]

const FIRST_SECURITY_GROUP = { use: 'first-resource', with: { types: ['aws_security_group'], name: 'open' } }
const TAG_TARGET = { use: 'first-resource', with: { types: '{{types}}', name: 'untagged', values: { tags: '{{tagged}}' } } }

export const TERRAFORM_ENTRIES: readonly NamedRequirement[] = [
  {
    id: 'terraform-s3-bucket-protection',
    title: 'S3 buckets encrypted and not public',
    platform: 'terraform',
    category: 'terraform',
    kinds: ['aws_s3_bucket', 'aws_s3_bucket_server_side_encryption_configuration', 'aws_s3_bucket_acl', 'aws_s3_bucket_public_access_block', 'aws_s3_account_public_access_block'],
    phrasings: [
      'S3 buckets must be encrypted',
      'S3 buckets must not be public',
      'all buckets must be encrypted with KMS',
      'S3 buckets must be encrypted and not public',
      'S3 buckets must block public access',
    ],
    parameters: [
      { name: 'checks', question: 'what must hold for S3 buckets: encryption, public-access, or both?', required: true, example: ['encryption', 'public-access'] },
      { name: 'kms', question: 'must the encryption use KMS (aws:kms) rather than AES256?', required: false, example: false },
      { name: 'requirePublicAccessBlock', question: 'must every bucket have an aws_s3_bucket_public_access_block with all four settings on?', required: false, example: false },
    ],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\bs3\\b|\\bbuckets?\\b|aws_s3_bucket' }] },
          { any: [ENCRYPTION, PUBLIC_BUCKET, SECURE_NOT_TAGS] },
        ],
      },
      score: 2,
      parameters: {
        checks: {
          collect: [
            { when: ENCRYPTION, values: ['encryption'] },
            { when: PUBLIC_BUCKET, values: ['public-access'] },
          ],
          otherwise: ['encryption', 'public-access'],
        },
        // "kms" and "public access block" are encryption and public-access words: their checks are asked for.
        kms: { value: true, when: { mentions: [{ re: '\\bkms\\b' }] } },
        requirePublicAccessBlock: { value: true, when: { mentions: [{ re: 'public access blocks?|block(s|ing)? (all )?public access' }] } },
      },
    },
    // What asking for KMS changes.
    values: [
      {
        use: 'choose',
        with: {
          by: 'kms',
          cases: {
            true: {
              encrypted: 'encrypted with KMS',
              accepted: "in ['aws:kms', 'aws:kms:dsse']",
              'key-kind': 'KMS ',
              'key-settings': ' with sse_algorithm = "aws:kms" and a kms_master_key_id',
              algorithm: 'aws:kms',
              'key-id': 'alias/s3',
              'bucket-key': true,
            },
          },
          otherwise: { encrypted: 'encrypted', accepted: "!= ''", 'key-kind': '', 'key-settings': '', algorithm: 'AES256', 'key-id': null, 'bucket-key': false },
        },
      },
      // What the rule says of the buckets, in its description, message and name.
      {
        use: 'items',
        with: {
          said: [
            { when: { is: { checks: 'encryption' } }, item: '{{encrypted}}' },
            { when: { is: { checks: 'public-access' } }, item: 'not public' },
          ],
        },
      },
    ],
    rule: {
      use: 'plan-rule',
      with: {
        name: ['s3-buckets', '{{said}}'],
        severity: 'high',
        description:
          'S3 buckets must be {{said|and}}. Encryption counts when set on the bucket (server_side_encryption_configuration) or by an aws_s3_bucket_server_side_encryption_configuration naming the bucket by name or, in the root module, by reference.',
        message: 'S3 buckets must be {{said|and}}',
        parts: [
          {
            when: { is: { checks: 'encryption' } },
            // The buckets an encryption configuration applies to: by its `bucket` value when the plan
            // knows it, and by the references of its `bucket` expression in the root module's
            // configuration when the name is only known after apply.
            variables: [
              {
                name: 'sse_ok',
                expression:
                  "variables.resources.filter(x, $type(x) == 'aws_s3_bucket_server_side_encryption_configuration' && $list(x.?values.?rule).exists(rule, $list(rule.?apply_server_side_encryption_by_default).exists(d, $string(d.?sse_algorithm) {{accepted}})))",
              },
              { name: 'sse_buckets', expression: "variables.sse_ok.map(x, $string(x.?values.?bucket)).filter(n, n != '')" },
              {
                name: 'sse_references',
                expression: '$list(object.?configuration.?root_module.?resources).filter(c, variables.sse_ok.exists(x, $base(x) == $string(c.?address))).map(c, $list(c.?expressions.?bucket.?references)).flatten()',
              },
            ],
            findings: [
              {
                variable: 'unencrypted_buckets',
                // Encrypted by a rule of its own server_side_encryption_configuration (AWS provider v3), or by a companion naming it.
                offends:
                  "$type(r) == 'aws_s3_bucket' && !($list(r.?values.?server_side_encryption_configuration).exists(c, $list(c.?rule).exists(rule, $list(rule.?apply_server_side_encryption_by_default).exists(d, $string(d.?sse_algorithm) {{accepted}}))) || ($string(r.?values.?bucket) in variables.sse_buckets || variables.sse_references.exists(ref, type(ref) == string && (ref == $base(r) || ref.startsWith($base(r) + '.') || ref.startsWith($base(r) + '[')))))",
                message: 'S3 buckets without {{key-kind}}default encryption',
              },
            ],
            remediation:
              "Configure default encryption{{key-settings}}: an aws_s3_bucket_server_side_encryption_configuration resource whose bucket is the bucket's id (or, with AWS provider v3, a server_side_encryption_configuration block on the aws_s3_bucket).",
          },
          {
            when: { is: { checks: 'public-access' } },
            severity: 'critical',
            description: ' Public means a public-read, public-read-write or authenticated-read ACL, a grant to AllUsers/AuthenticatedUsers, or a public access block with any setting off; bucket policies are not judged.',
            findings: [
              {
                variable: 'public_acls',
                offends:
                  "$type(r) in ['aws_s3_bucket', 'aws_s3_bucket_acl'] && ($string(r.?values.?acl) in ['public-read', 'public-read-write', 'authenticated-read'] || $list(r.?values.?access_control_policy).exists(p, $list(p.?grant).exists(g, $list(g.?grantee).exists(e, $string(e.?uri) in ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers']))) || $list(r.?values.?grant).exists(g, $string(g.?uri) in ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers']))",
                message: 'S3 ACLs granting public access',
                detail: "' (' + $string(r.?values.?acl, 'grant') + ')'",
              },
              {
                variable: 'weak_access_blocks',
                offends:
                  "$type(r) in ['aws_s3_bucket_public_access_block', 'aws_s3_account_public_access_block'] && !(r.?values.?block_public_acls.orValue(null) == true && r.?values.?block_public_policy.orValue(null) == true && r.?values.?ignore_public_acls.orValue(null) == true && r.?values.?restrict_public_buckets.orValue(null) == true)",
                message: 'public access blocks without all four settings on',
              },
            ],
            remediation:
              'Use acl = "private" (or no ACL) on aws_s3_bucket and aws_s3_bucket_acl, grant nothing to the AllUsers or AuthenticatedUsers groups, and set block_public_acls, block_public_policy, ignore_public_acls, restrict_public_buckets to true on every public access block.',
          },
          {
            when: { is: { checks: 'public-access', requirePublicAccessBlock: true } },
            // The buckets a public access block with every setting on applies to, found as the encryption configurations' are.
            variables: [
              {
                name: 'pab_ok',
                expression:
                  "variables.resources.filter(x, $type(x) == 'aws_s3_bucket_public_access_block' && x.?values.?block_public_acls.orValue(null) == true && x.?values.?block_public_policy.orValue(null) == true && x.?values.?ignore_public_acls.orValue(null) == true && x.?values.?restrict_public_buckets.orValue(null) == true)",
              },
              { name: 'pab_buckets', expression: "variables.pab_ok.map(x, $string(x.?values.?bucket)).filter(n, n != '')" },
              {
                name: 'pab_references',
                expression: '$list(object.?configuration.?root_module.?resources).filter(c, variables.pab_ok.exists(x, $base(x) == $string(c.?address))).map(c, $list(c.?expressions.?bucket.?references)).flatten()',
              },
            ],
            findings: [
              {
                variable: 'unblocked_buckets',
                offends:
                  "$type(r) == 'aws_s3_bucket' && !($string(r.?values.?bucket) in variables.pab_buckets || variables.pab_references.exists(ref, type(ref) == string && (ref == $base(r) || ref.startsWith($base(r) + '.') || ref.startsWith($base(r) + '['))))",
                message: 'S3 buckets without a public access block',
              },
            ],
            remediation: "Add an aws_s3_bucket_public_access_block for every bucket, its bucket set to the bucket's id.",
          },
          // The name says "blocked" whenever the parameter is on.
          { when: { is: { requirePublicAccessBlock: true } }, name: ['blocked'] },
        ],
      },
    },
    samples: {
      good: [
        {
          when: { is: { checks: 'encryption' } },
          edit: {
            at: 'named-buckets',
            set: { server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: '{{algorithm}}', kms_master_key_id: '{{key-id}}' }], bucket_key_enabled: '{{bucket-key}}' }] }] },
          },
        },
        { when: { is: { checks: 'public-access', requirePublicAccessBlock: false } }, edit: PRIVATE_BUCKETS },
        {
          when: { is: { checks: 'public-access', requirePublicAccessBlock: true } },
          edit: [...PRIVATE_BUCKETS, { use: 'bucket-companions', with: { type: 'aws_s3_bucket_public_access_block', suffix: '_block', values: BLOCK_FLAGS_ON } }],
        },
      ],
      bad: [
        {
          when: { is: { checks: 'encryption' } },
          description: 'a bucket without server_side_encryption_configuration',
          edit: { at: { use: 'first-resource', with: { types: ['aws_s3_bucket'], name: 'unencrypted' } }, remove: ['server_side_encryption_configuration'] },
        },
        {
          when: { is: { checks: 'encryption', kms: true } },
          description: 'a bucket encrypted with AES256 rather than KMS',
          edit: { at: { use: 'first-resource', with: { types: ['aws_s3_bucket'], name: 'aes' } }, set: { server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'AES256' }] }] }] } },
        },
        {
          when: { is: { checks: 'public-access' } },
          description: 'a bucket with acl public-read',
          edit: { at: { use: 'first-resource', with: { types: ['aws_s3_bucket'], name: 'public' } }, set: { acl: 'public-read' } },
        },
        {
          when: { is: { checks: 'public-access' } },
          description: 'a public access block with block_public_acls off',
          edit: {
            at: { use: 'first-resource', with: { types: ['aws_s3_bucket_public_access_block'], name: 'open', values: { bucket: 'open-bucket', ...BLOCK_FLAGS_ON } } },
            set: { block_public_acls: false },
          },
        },
        {
          when: { is: { checks: 'public-access', requirePublicAccessBlock: true } },
          description: 'a bucket without a public access block',
          edit: {
            at: {
              use: 'new-resource',
              with: {
                type: 'aws_s3_bucket',
                name: 'unblocked',
                values: { bucket: 'unblocked-bucket', acl: 'private', server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: '{{algorithm}}' }] }] }] },
              },
            },
          },
        },
      ],
    },
  },
  {
    id: 'terraform-security-group-open-ingress',
    title: 'Security groups not open to the internet',
    platform: 'terraform',
    category: 'terraform',
    kinds: ['aws_security_group', 'aws_security_group_rule', 'aws_vpc_security_group_ingress_rule'],
    phrasings: [
      'no security group may allow 0.0.0.0/0 on port 22 or 3389',
      'security groups must not allow ingress from 0.0.0.0/0',
      'SSH must not be open to the internet in security groups',
      'security groups may only allow 0.0.0.0/0 on ports 80 and 443',
      "don't let anyone ssh in from anywhere on the internet",
    ],
    parameters: [
      { name: 'ports', question: 'on which ports must nothing be open to 0.0.0.0/0 or ::/0 (none: any port)?', required: false, example: ['22', '3389'] },
      { name: 'allowedPorts', question: 'which ports alone may be open to 0.0.0.0/0 or ::/0?', required: false, example: ['80', '443'] },
    ],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '0\\.0\\.0\\.0/0|::/0|internet|anywhere|\\bworld\\b|\\bpublic|\\bopen\\b|everyone|any (ip|address|source|cidr)|all (ips|addresses)' }] },
          // "don't let anyone ssh in from the internet" is about security groups without saying so; a
          // requirement that names its resource ("databases ... on port 5432") is the better reading.
          {
            any: [
              ABOUT_SECURITY_GROUPS,
              { all: [{ reads: 'network-ports' }, { not: { mentions: [{ re: '\\bs3\\b|\\bbuckets?\\b|\\brds\\b|databases?|\\bdb\\b' }] } }] },
            ],
          },
        ],
      },
      score: [{ when: ABOUT_SECURITY_GROUPS, score: 2 }, { score: 1.5 }],
      parameters: {
        ports: { use: 'network-ports', when: { not: PORT_EXCEPTION } },
        allowedPorts: { use: 'network-ports', when: PORT_EXCEPTION },
      },
    },
    values: [{ use: 'open-ingress' }],
    rule: {
      use: 'plan-rule',
      with: {
        name: ['security-groups-no-open-ingress', '{{name-ports}}'],
        severity: 'high',
        description:
          'Security groups must not allow ingress from 0.0.0.0/0 or ::/0{{scope}}. Judges ingress blocks of aws_security_group, aws_security_group_rule of type ingress and aws_vpc_security_group_ingress_rule; any CIDR ending in /0 is the whole internet, protocol -1 (all) covers every port, and a port range covers the ports inside it.',
        message: 'security groups must not allow ingress from 0.0.0.0/0 or ::/0{{scope}}',
        remediation:
          'Restrict cidr_blocks / ipv6_cidr_blocks (cidr_ipv4 / cidr_ipv6 on aws_vpc_security_group_ingress_rule) to known networks{{closing}}; reach administrative ports through a VPN, a bastion or SSM Session Manager.',
        parts: [
          {
            findings: [
              {
                variable: 'open_ingress',
                offends:
                  "($type(r) == 'aws_security_group' && $list(r.?values.?ingress).exists(b, {{group-exposed}})) || ($type(r) == 'aws_security_group_rule' && $string(r.?values.?type) == 'ingress' && {{rule-exposed}}) || ($type(r) == 'aws_vpc_security_group_ingress_rule' && {{vpc-exposed}})",
                message: 'ingress open to the internet{{scope}}',
              },
            ],
          },
        ],
      },
    },
    samples: {
      good: [
        [
          { at: { use: 'resources', with: { types: ['aws_security_group'] } }, set: { ingress: '{{good-ingress}}' } },
          { at: { use: 'resources', with: { types: ['aws_security_group_rule'] } }, set: { type: 'ingress', from_port: 443, to_port: 443, protocol: 'tcp', cidr_blocks: ['10.0.0.0/8'], ipv6_cidr_blocks: [], description: 'sample', prefix_list_ids: [], security_groups: [], self: false } },
          { at: { use: 'resources', with: { types: ['aws_vpc_security_group_ingress_rule'] } }, set: { ip_protocol: 'tcp', from_port: 443, to_port: 443, cidr_ipv4: '10.0.0.0/8', cidr_ipv6: null } },
        ],
      ],
      bad: [
        { description: 'ingress from 0.0.0.0/0 on port {{bad-port}}', edit: { at: FIRST_SECURITY_GROUP, append: { to: 'ingress', item: { from_port: '{{bad-port}}', to_port: '{{bad-port}}', protocol: 'tcp', cidr_blocks: ['0.0.0.0/0'], ipv6_cidr_blocks: [], description: 'sample', prefix_list_ids: [], security_groups: [], self: false } } } },
        { description: 'ingress from ::/0 on port {{bad-port}}', edit: { at: FIRST_SECURITY_GROUP, append: { to: 'ingress', item: { from_port: '{{bad-port}}', to_port: '{{bad-port}}', protocol: 'tcp', cidr_blocks: [], ipv6_cidr_blocks: ['::/0'], description: 'sample', prefix_list_ids: [], security_groups: [], self: false } } } },
        { description: 'ingress from 0.0.0.0/0 on all protocols and ports', edit: { at: FIRST_SECURITY_GROUP, append: { to: 'ingress', item: { from_port: 0, to_port: 0, protocol: '-1', cidr_blocks: ['0.0.0.0/0'], ipv6_cidr_blocks: [], description: 'sample', prefix_list_ids: [], security_groups: [], self: false } } } },
        {
          description: 'an aws_security_group_rule from 0.0.0.0/0 on ports 0-65535',
          edit: { at: { use: 'new-resource', with: { type: 'aws_security_group_rule', name: 'open', values: { type: 'ingress', from_port: 0, to_port: 65535, protocol: 'tcp', cidr_blocks: ['0.0.0.0/0'], ipv6_cidr_blocks: [], description: 'sample', prefix_list_ids: [], security_groups: [], self: false } } } },
        },
      ],
    },
  },
  {
    id: 'terraform-required-tags',
    title: 'Resources carry required tags',
    platform: 'terraform',
    category: 'terraform',
    // Any resource whose schema has tags; the concrete types come first for sample plans.
    kinds: ['aws_instance', 'aws_s3_bucket', 'aws_db_instance', 'aws_security_group', 'aws_vpc', 'aws_subnet', 'aws_lambda_function', '*'],
    phrasings: ['all resources must have tags owner and cost-center', 'every resource must be tagged with Owner and Environment', 'S3 buckets need an owner tag', 'require the team tag on EC2 instances'],
    parameters: [
      { name: 'tags', question: 'which tag keys must every resource carry?', required: true, example: ['owner', 'cost-center'] },
      { name: 'resourceTypes', question: 'which resource types (empty: every resource with a tags attribute)?', required: false, example: ['aws_instance'] },
    ],
    recognize: {
      when: TAGS,
      score: [{ when: { reads: 'tag-keys' }, score: 2 }, { score: 1.5 }],
      parameters: {
        tags: { use: 'tag-keys', emptyIsMissing: true },
        // Types named as such, then what authors call resources.
        resourceTypes: {
          collect: [
            { use: 'text-matches', with: { re: '\\baws_[a-z0-9_]+\\b' } },
            { when: { mentions: [{ re: '\\bs3\\b|\\bbuckets?\\b' }] }, values: ['aws_s3_bucket'] },
            { when: { mentions: [{ re: '\\bec2\\b|(?<!db |database |rds )\\binstances?\\b' }] }, values: ['aws_instance'] },
            { when: { mentions: [{ re: '\\brds\\b|\\bdb instances?\\b|\\bdatabases?\\b' }] }, values: ['aws_db_instance'] },
            { when: { mentions: [{ re: 'security groups?' }] }, values: ['aws_security_group'] },
            { when: { mentions: [{ re: '\\bvpcs?\\b' }] }, values: ['aws_vpc'] },
            { when: { mentions: [{ re: '\\bsubnets?\\b' }] }, values: ['aws_subnet'] },
            { when: { mentions: [{ re: '\\blambdas?\\b' }] }, values: ['aws_lambda_function'] },
            { when: { mentions: [{ re: 'load balancers?|\\balbs?\\b|\\bnlbs?\\b' }] }, values: ['aws_lb'] },
            { when: { mentions: [{ re: 'dynamodb' }] }, values: ['aws_dynamodb_table'] },
            { when: { mentions: [{ re: '\\bebs\\b|\\bvolumes?\\b' }] }, values: ['aws_ebs_volume'] },
            { when: { mentions: [{ re: '\\beks\\b' }] }, values: ['aws_eks_cluster'] },
          ],
        },
      },
    },
    values: [{ use: 'required-tags' }],
    rule: {
      use: 'plan-rule',
      with: {
        name: ['terraform-tags', '{{tags}}'],
        severity: 'low',
        description:
          'Every {{resources}} whose planned values have a tags attribute (Terraform writes tags: null when unset, so taggable resources always have one) must carry the tags {{tags}} with non-empty values, in tags or in tags_all (provider default_tags count).',
        message: '{{scope}} must have the tags {{tags}}',
        remediation: 'Add {{quoted}} to the tags of each resource, or to default_tags in the AWS provider block so every resource inherits them.',
        parts: [
          {
            findings: [
              {
                variable: 'untagged',
                // A required tag `t` counts in tags or in tags_all (provider default_tags), with a non-empty value.
                offends: "(r.?values.?tags.hasValue() || r.?values.?tags_all.hasValue()){{of-types}} && {{tag-list}}.exists(t, !([r.?values.?tags.orValue(null), r.?values.?tags_all.orValue(null)].exists(m, type(m) == map && t in m && type(m[t]) == string && m[t] != '')))",
                message: 'resources missing required tags',
                detail: "' (' + {{tag-list}}.filter(t, !([r.?values.?tags.orValue(null), r.?values.?tags_all.orValue(null)].exists(m, type(m) == map && t in m && type(m[t]) == string && m[t] != ''))).join(', ') + ')'",
              },
            ],
          },
        ],
      },
    },
    samples: {
      good: [{ at: { use: 'resources', with: { types: '{{types}}' } }, merge: { tags: '{{tagged}}' } }],
      bad: [
        { description: 'a resource without the {{first}} tag', edit: { use: 'drop-tag', with: { types: '{{types}}', name: 'untagged', tags: '{{tagged}}', without: '{{first}}' } } },
        { description: 'a taggable resource with tags: null', edit: { at: TAG_TARGET, set: { tags: null }, remove: ['tags_all'] } },
        { description: 'a resource whose {{first}} tag is empty', edit: { at: TAG_TARGET, set: { tags: '{{first-empty}}' }, remove: ['tags_all'] } },
      ],
    },
  },
  {
    id: 'terraform-instance-type-allowlist',
    title: 'EC2 instance types from an allowlist',
    platform: 'terraform',
    category: 'terraform',
    kinds: ['aws_instance', 'aws_launch_template'],
    phrasings: ['EC2 instances must be t3.micro or t3.small', 'only t3.micro and t3.small instance types are allowed', 'instance types must be from the t3 family', 'EC2 instances must not use p4d.24xlarge', 'only t3 and t4g instances are allowed'],
    parameters: [
      { name: 'instanceTypes', question: 'which instance types (t3.micro, or t3.* for a family)?', required: true, example: ['t3.micro', 't3.small'] },
      { name: 'deny', question: 'are these types forbidden rather than the only ones allowed?', required: false, example: false },
    ],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\bec2\\b|\\binstances?\\b|aws_instance|launch templates?|instance[\\s_-]?types?' }] },
          { not: { mentions: [{ re: '\\brds\\b|\\bdb\\b|database|aurora' }] } },
          { not: TAGS },
          // "no instance larger than t3.large" compares sizes: an allowlist of t3.large would misread it.
          { not: { mentions: [{ re: '\\b(larger|bigger|smaller|greater|more|less|above|below|over|under|up to|at most|at least|maximum|minimum)\\b' }] } },
          { any: [INSTANCE_TYPES_NAMED, { mentions: [{ re: 'instance[\\s_-]?types?|instance sizes?' }] }] },
        ],
      },
      score: [{ when: INSTANCE_TYPES_NAMED, score: 2 }, { score: 1.5 }],
      parameters: {
        instanceTypes: { use: 'instance-types' },
        deny: { value: true, when: { all: [INSTANCE_TYPES_NAMED, { negated: true }, { not: { mentions: [{ re: '\\b(only|other than|except|anything but|besides)\\b' }] } }] } },
      },
    },
    values: [
      {
        use: 'listed-patterns',
        with: {
          parameter: 'instanceTypes',
          deny: 'deny',
          subject: '$string(r.?values.?instance_type)',
          outside: ['x1e.32xlarge', 'p4d.24xlarge', 'm5.large', 't2.nano'],
          fallback: 'z9.metal',
          default: 't3.micro',
          'family-example': 'micro',
        },
      },
    ],
    rule: [
      {
        when: { is: { deny: true } },
        use: 'plan-rule',
        with: {
          name: ['ec2-instance-types', 'not', '{{name-values}}'],
          severity: 'medium',
          description: 'EC2 instances and launch templates must not use {{listed}}.',
          message: 'EC2 instance types {{listed}} are not allowed',
          remediation: 'Change instance_type away from {{listed}}.',
          // An instance launched from a launch template takes its type from there: that template is judged instead.
          parts: [{ findings: [{ variable: 'wrong_type', offends: "($type(r) == 'aws_instance' && !($string(r.?values.?instance_type) == '' && size($list(r.?values.?launch_template)) > 0) && {{matched}}) || ($type(r) == 'aws_launch_template' && $string(r.?values.?instance_type) != '' && {{matched}})", message: 'forbidden instance types', detail: "' (' + $string(r.?values.?instance_type) + ')'" }] }],
        },
      },
      {
        use: 'plan-rule',
        with: {
          name: ['ec2-instance-types', 'only', '{{name-values}}'],
          severity: 'medium',
          description: 'EC2 instances (and launch templates that set one) must use one of {{listed}}; an aws_instance without a known instance_type and without a launch template fails.',
          message: 'EC2 instances must use {{listed}}',
          remediation: 'Set instance_type to one of {{listed}} on aws_instance and aws_launch_template.',
          parts: [{ findings: [{ variable: 'wrong_type', offends: "($type(r) == 'aws_instance' && !($string(r.?values.?instance_type) == '' && size($list(r.?values.?launch_template)) > 0) && !{{matched}}) || ($type(r) == 'aws_launch_template' && $string(r.?values.?instance_type) != '' && !{{matched}})", message: 'instance types not allowed', detail: "' (' + $string(r.?values.?instance_type) + ')'" }] }],
        },
      },
    ],
    samples: {
      good: [{ at: { use: 'resources', with: { types: ['aws_instance', 'aws_launch_template'] } }, set: { instance_type: '{{good-value}}' } }],
      bad: [
        { description: 'an instance of type {{bad-value}}', edit: { at: { use: 'first-resource', with: { types: ['aws_instance'], name: 'large' } }, set: { instance_type: '{{bad-value}}' } } },
        { description: 'a launch template of type {{bad-value}}', edit: { at: { use: 'new-resource', with: { type: 'aws_launch_template', name: 'large', values: { instance_type: '{{bad-value}}' } } } } },
      ],
    },
  },
  {
    id: 'terraform-rds-protection',
    title: 'RDS databases encrypted and not publicly accessible',
    platform: 'terraform',
    category: 'terraform',
    kinds: ['aws_db_instance', 'aws_rds_cluster', 'aws_rds_cluster_instance'],
    phrasings: ['RDS instances must be encrypted', 'databases must not be publicly accessible', 'RDS storage must be encrypted and not public', 'db instances must be secure'],
    parameters: [{ name: 'checks', question: 'what must hold for RDS: storage-encrypted, not-public, or both?', required: true, example: ['storage-encrypted', 'not-public'] }],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\brds\\b|\\bdb instances?\\b|database instances?|\\bdatabases?\\b|aws_db_instance|aws_rds_cluster|aurora' }] },
          { any: [ENCRYPTION, PUBLIC_DATABASE, SECURE_NOT_TAGS] },
        ],
      },
      score: 2,
      parameters: {
        checks: {
          collect: [
            { when: ENCRYPTION, values: ['storage-encrypted'] },
            { when: PUBLIC_DATABASE, values: ['not-public'] },
          ],
          otherwise: ['storage-encrypted', 'not-public'],
        },
      },
    },
    // What the rule says of the databases, in its description, message and name.
    values: [
      {
        use: 'items',
        with: {
          said: [
            { when: { is: { checks: 'storage-encrypted' } }, item: 'encrypted' },
            { when: { is: { checks: 'not-public' } }, item: 'not publicly accessible' },
          ],
        },
      },
    ],
    rule: {
      use: 'plan-rule',
      with: {
        name: ['rds', '{{said}}'],
        severity: 'high',
        description:
          'RDS databases must be {{said|and}}. storage_encrypted is judged on aws_db_instance and aws_rds_cluster (missing fails, except on read replicas, which inherit it); publicly_accessible on aws_db_instance and aws_rds_cluster_instance (missing passes: the default is false).',
        message: 'RDS databases must be {{said|and}}',
        parts: [
          {
            when: { is: { checks: 'storage-encrypted' } },
            findings: [
              {
                variable: 'unencrypted_databases',
                // A read replica inherits encryption from its source: unknown at plan time, not unencrypted.
                offends:
                  "$type(r) in ['aws_db_instance', 'aws_rds_cluster'] && r.?values.?storage_encrypted.orValue(null) != true && !($type(r) == 'aws_db_instance' && $string(r.?values.?replicate_source_db) != '' && r.?values.?storage_encrypted.orValue(null) == null)",
                message: 'databases without storage_encrypted = true',
              },
            ],
            remediation: 'Set storage_encrypted = true (and optionally kms_key_id) on aws_db_instance and aws_rds_cluster; an existing unencrypted database must be restored from an encrypted snapshot copy.',
          },
          {
            when: { is: { checks: 'not-public' } },
            findings: [
              {
                variable: 'public_databases',
                offends: "$type(r) in ['aws_db_instance', 'aws_rds_cluster_instance'] && r.?values.?publicly_accessible.orValue(null) == true",
                message: 'databases with publicly_accessible = true',
              },
            ],
            remediation: 'Set publicly_accessible = false (the default) on aws_db_instance and aws_rds_cluster_instance and reach the database from inside the VPC.',
          },
        ],
      },
    },
    samples: {
      good: [
        { when: { is: { checks: 'storage-encrypted' } }, edit: { at: { use: 'resources', with: { types: ['aws_db_instance', 'aws_rds_cluster'] } }, set: { storage_encrypted: true } } },
        { when: { is: { checks: 'not-public' } }, edit: { at: { use: 'resources', with: { types: ['aws_db_instance', 'aws_rds_cluster_instance'] } }, set: { publicly_accessible: false } } },
      ],
      bad: [
        {
          when: { is: { checks: 'storage-encrypted' } },
          description: 'a database with storage_encrypted = false',
          edit: { at: { use: 'first-resource', with: { types: ['aws_db_instance'], name: 'plain' } }, set: { storage_encrypted: false } },
        },
        {
          when: { is: { checks: 'storage-encrypted' } },
          description: 'a database without storage_encrypted',
          edit: { at: { use: 'first-resource', with: { types: ['aws_db_instance'], name: 'plain' } }, remove: ['storage_encrypted'] },
        },
        {
          when: { is: { checks: 'not-public' } },
          description: 'a database with publicly_accessible = true',
          edit: { at: { use: 'first-resource', with: { types: ['aws_db_instance'], name: 'public' } }, set: { publicly_accessible: true } },
        },
      ],
    },
  },
]
