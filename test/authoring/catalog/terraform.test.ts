import { describe, expect, it } from 'vitest'
import { TERRAFORM_TEMPLATES } from '../../../src/authoring/catalog/index.js'
import { expandPlanCel } from '../../../src/authoring/catalog/vocabulary/terraform.js'
import { compileWithCatalog as compileInstruction, understandInstruction } from '../../../src/authoring/compile-instruction.js'
import { instructionSamples } from '../../../src/authoring/samples/instruction-samples.js'
import { compileRuleset, evaluateRuleset, judgeRuleset, PreparedInput, type RuleResult } from '../../../src/engine/index.js'

type Json = Record<string, unknown>

const TERRAFORM = { platform: 'terraform' }

function resource(type: string, name: string, values: Json, module?: string): Json {
  const address = `${module ? `${module}.` : ''}${type}.${name}`
  return { address, mode: 'managed', type, name, provider_name: 'registry.terraform.io/hashicorp/aws', values }
}

function plan(resources: Json[], extra: Json = {}): Json {
  return { format_version: '1.2', terraform_version: '1.9.5', planned_values: { root_module: { resources, ...extra } } }
}

/** Compiles an instruction and judges a document: failures (fail and error) with their messages. */
function judge(instruction: string, document: Json, labels: Record<string, string> = TERRAFORM): { passed: boolean; failures: RuleResult[]; all: RuleResult[] } {
  const { spec } = compileInstruction(instruction, labels)
  const compiled = compileRuleset({ ...spec, name: 'x' })
  const result = evaluateRuleset(compiled, new PreparedInput({ object: document }))
  return { passed: result.passed, failures: result.results, all: judgeRuleset(compiled, new PreparedInput({ object: document })) }
}

function reading(instruction: string): { template?: string; parameters?: unknown } {
  const report = understandInstruction(instruction, TERRAFORM).clauses[0]?.report
  return { template: report?.template, parameters: report?.parameters }
}

function templateOf(instruction: string, labels: Record<string, string> = TERRAFORM): Array<string | undefined> {
  return understandInstruction(instruction, labels).clauses.map((entry) => entry.report.template)
}

const encryptedInline = { server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'AES256', kms_master_key_id: null }] }] }] }
const kmsInline = { server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'aws:kms', kms_master_key_id: 'alias/s3' }] }] }] }

describe('S3 bucket protection', () => {
  const encrypted = 'S3 buckets must be encrypted'

  it('passes a plan without buckets and buckets with inline encryption', () => {
    expect(judge(encrypted, plan([resource('aws_instance', 'web', { instance_type: 't3.micro' })])).passed).toBe(true)
    expect(judge(encrypted, plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs', ...encryptedInline })])).passed).toBe(true)
  })

  it('fails a bucket without encryption and names it', () => {
    const verdict = judge(encrypted, plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs', server_side_encryption_configuration: [] }), resource('aws_s3_bucket', 'data', { bucket: 'data', ...encryptedInline })]))
    expect(verdict.passed).toBe(false)
    expect(verdict.failures[0]?.status).toBe('fail')
    expect(verdict.failures[0]?.message).toBe('S3 buckets without default encryption: aws_s3_bucket.logs')
    expect(verdict.failures[0]?.remediation).toContain('aws_s3_bucket_server_side_encryption_configuration')
  })

  it('treats null blocks (as plans write them) as missing, without errors', () => {
    const verdict = judge(encrypted, plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs', server_side_encryption_configuration: null, acl: null })]))
    expect(verdict.failures.map((failure) => failure.status)).toEqual(['fail'])
  })

  it('accepts a separate encryption configuration naming the bucket', () => {
    const sse = resource('aws_s3_bucket_server_side_encryption_configuration', 'logs', { bucket: 'logs', rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'aws:kms' }] }] })
    expect(judge(encrypted, plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs' }), sse])).passed).toBe(true)
    expect(judge(encrypted, plan([resource('aws_s3_bucket', 'other', { bucket: 'other' }), sse])).passed).toBe(false)
  })

  it('accepts a separate encryption configuration referencing a bucket whose name is unknown until apply', () => {
    const document = plan([
      resource('aws_s3_bucket', 'logs', { bucket_prefix: 'logs-' }),
      resource('aws_s3_bucket_server_side_encryption_configuration', 'logs', { rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'AES256' }] }] }),
    ])
    expect(judge(encrypted, document).passed).toBe(false)
    document.configuration = {
      root_module: {
        resources: [
          { address: 'aws_s3_bucket.logs', type: 'aws_s3_bucket', name: 'logs', expressions: { bucket_prefix: { constant_value: 'logs-' } } },
          { address: 'aws_s3_bucket_server_side_encryption_configuration.logs', type: 'aws_s3_bucket_server_side_encryption_configuration', name: 'logs', expressions: { bucket: { references: ['aws_s3_bucket.logs.id', 'aws_s3_bucket.logs'] } } },
        ],
      },
    }
    expect(judge(encrypted, document).passed).toBe(true)
  })

  it('judges buckets in child modules, nested ones included', () => {
    const document = plan([], {
      child_modules: [
        {
          address: 'module.storage',
          resources: [resource('aws_s3_bucket', 'ok', { bucket: 'ok', ...encryptedInline }, 'module.storage')],
          child_modules: [{ address: 'module.storage.module.archive', resources: [resource('aws_s3_bucket', 'old', { bucket: 'old' }, 'module.storage.module.archive')] }],
        },
      ],
    })
    expect(judge(encrypted, document).failures[0]?.message).toBe('S3 buckets without default encryption: module.storage.module.archive.aws_s3_bucket.old')
  })

  it('requires KMS when the instruction says so', () => {
    const kms = 'all buckets must be encrypted with KMS'
    expect(judge(kms, plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs', ...encryptedInline })])).failures[0]?.message).toBe('S3 buckets without KMS default encryption: aws_s3_bucket.logs')
    expect(judge(kms, plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs', ...kmsInline })])).passed).toBe(true)
  })

  describe('public access', () => {
    const notPublic = 'S3 buckets must not be public'

    it('passes private buckets and buckets without an ACL', () => {
      expect(judge(notPublic, plan([resource('aws_s3_bucket', 'a', { bucket: 'a', acl: 'private' }), resource('aws_s3_bucket', 'b', { bucket: 'b', acl: null })])).passed).toBe(true)
    })

    it('fails public ACLs on buckets and on aws_s3_bucket_acl, and public grants', () => {
      expect(judge(notPublic, plan([resource('aws_s3_bucket', 'site', { bucket: 'site', acl: 'public-read' })])).failures[0]?.message).toBe('S3 ACLs granting public access: aws_s3_bucket.site (public-read)')
      expect(judge(notPublic, plan([resource('aws_s3_bucket_acl', 'site', { bucket: 'site', acl: 'public-read-write' })])).passed).toBe(false)
      const grant = { access_control_policy: [{ grant: [{ grantee: [{ type: 'Group', uri: 'http://acs.amazonaws.com/groups/global/AllUsers' }], permission: 'READ' }], owner: [{ id: 'x' }] }] }
      expect(judge(notPublic, plan([resource('aws_s3_bucket_acl', 'site', { bucket: 'site', ...grant })])).passed).toBe(false)
    })

    it('fails a public access block with any setting off or missing', () => {
      const block = { bucket: 'a', block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true }
      expect(judge(notPublic, plan([resource('aws_s3_bucket_public_access_block', 'a', block)])).passed).toBe(true)
      expect(judge(notPublic, plan([resource('aws_s3_bucket_public_access_block', 'a', { ...block, restrict_public_buckets: false })])).failures[0]?.message).toBe(
        'public access blocks without all four settings on: aws_s3_bucket_public_access_block.a',
      )
      expect(judge(notPublic, plan([resource('aws_s3_account_public_access_block', 'account', { block_public_acls: true })])).passed).toBe(false)
    })

    it('requires a public access block per bucket when asked to block public access', () => {
      const instruction = 'S3 buckets must block public access'
      const block = { block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true }
      expect(judge(instruction, plan([resource('aws_s3_bucket', 'a', { bucket: 'a' })])).failures[0]?.message).toBe('S3 buckets without a public access block: aws_s3_bucket.a')
      expect(judge(instruction, plan([resource('aws_s3_bucket', 'a', { bucket: 'a' }), resource('aws_s3_bucket_public_access_block', 'a', { bucket: 'a', ...block })])).passed).toBe(true)
    })

    it('checks both in one rule and lists every problem', () => {
      const verdict = judge('S3 buckets must be encrypted and not public', plan([resource('aws_s3_bucket', 'site', { bucket: 'site', acl: 'public-read' })]))
      expect(verdict.failures).toHaveLength(1)
      expect(verdict.failures[0]?.message).toBe('S3 buckets without default encryption: aws_s3_bucket.site; S3 ACLs granting public access: aws_s3_bucket.site (public-read)')
      expect(verdict.failures[0]?.severity).toBe('critical')
    })
  })

  it('skips documents that are not plans', () => {
    const { all } = judge('S3 buckets must be encrypted', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })
    expect(all.map((result) => result.status)).toEqual(['skip'])
  })

  it('also reads the values of a state (terraform show -json without a plan)', () => {
    const state = { format_version: '1.0', values: { root_module: { resources: [resource('aws_s3_bucket', 'logs', { bucket: 'logs' })] } } }
    expect(judge('S3 buckets must be encrypted', state).passed).toBe(false)
  })
})

describe('security groups open to the internet', () => {
  const instruction = 'no security group may allow 0.0.0.0/0 on port 22 or 3389'
  const ingress = (from: number, to: number, cidrs: string[], extra: Json = {}): Json => ({ from_port: from, to_port: to, protocol: 'tcp', cidr_blocks: cidrs, ipv6_cidr_blocks: [], ...extra })
  const group = (...blocks: Json[]): Json => plan([resource('aws_security_group', 'web', { name: 'web', ingress: blocks, egress: [ingress(0, 0, ['0.0.0.0/0'], { protocol: '-1' })] })])

  it('reads the ports', () => {
    expect(understandInstruction(instruction, TERRAFORM).clauses[0]?.report.parameters).toEqual({ ports: ['22', '3389'] })
    expect(understandInstruction('security groups must not allow ssh or rdp from anywhere', TERRAFORM).clauses[0]?.report.parameters).toEqual({ ports: ['22', '3389'] })
    expect(understandInstruction('security groups must not allow 0.0.0.0/0 on ports 8000-8080', TERRAFORM).clauses[0]?.report.parameters).toEqual({ ports: ['8000-8080'] })
  })

  it('fails the listed ports open to the world, naming the group', () => {
    const verdict = judge(instruction, group(ingress(22, 22, ['0.0.0.0/0'])))
    expect(verdict.failures[0]?.message).toBe('ingress open to the internet on port 22, 3389: aws_security_group.web')
  })

  it('passes other ports open to the world, and the listed ports open to private networks', () => {
    expect(judge(instruction, group(ingress(443, 443, ['0.0.0.0/0']), ingress(22, 22, ['10.0.0.0/8']))).passed).toBe(true)
  })

  it('fails ranges covering a listed port, all protocols and IPv6', () => {
    expect(judge(instruction, group(ingress(0, 65535, ['0.0.0.0/0']))).passed).toBe(false)
    expect(judge(instruction, group(ingress(3000, 4000, ['0.0.0.0/0']))).passed).toBe(false)
    expect(judge(instruction, group(ingress(0, 0, ['0.0.0.0/0'], { protocol: '-1' }))).passed).toBe(false)
    expect(judge(instruction, group(ingress(22, 22, [], { ipv6_cidr_blocks: ['::/0'] }))).passed).toBe(false)
  })

  it('does not read ICMP type numbers as ports', () => {
    expect(judge(instruction, group(ingress(8, 22, ['0.0.0.0/0'], { protocol: 'icmp' }))).passed).toBe(true)
  })

  it('judges separate ingress rules, not egress ones', () => {
    const rule = (type: string): Json => plan([resource('aws_security_group_rule', 'ssh', { type, ...ingress(22, 22, ['0.0.0.0/0']), security_group_id: 'sg-1' })])
    expect(judge(instruction, rule('ingress')).failures[0]?.message).toContain('aws_security_group_rule.ssh')
    expect(judge(instruction, rule('egress')).passed).toBe(true)
    const vpcRule = (cidr: Json): Json => plan([resource('aws_vpc_security_group_ingress_rule', 'ssh', { ip_protocol: 'tcp', from_port: 22, to_port: 22, ...cidr })])
    expect(judge(instruction, vpcRule({ cidr_ipv4: '0.0.0.0/0' })).passed).toBe(false)
    expect(judge(instruction, vpcRule({ cidr_ipv6: '::/0' })).passed).toBe(false)
    expect(judge(instruction, vpcRule({ cidr_ipv4: '192.168.0.0/16' })).passed).toBe(true)
    expect(judge(instruction, plan([resource('aws_vpc_security_group_ingress_rule', 'all', { ip_protocol: '-1', cidr_ipv4: '0.0.0.0/0', from_port: null, to_port: null })])).passed).toBe(false)
  })

  it('without ports, fails any ingress from the world', () => {
    const any = 'security groups must not allow ingress from 0.0.0.0/0'
    expect(judge(any, group(ingress(443, 443, ['0.0.0.0/0']))).failures[0]?.message).toBe('ingress open to the internet: aws_security_group.web')
    expect(judge(any, group(ingress(443, 443, ['10.0.0.0/8']))).passed).toBe(true)
  })

  it('reads casual wording without the words "security group"', () => {
    const casual = "don't let anyone ssh in from anywhere on the internet"
    expect(reading(casual)).toEqual({ template: 'terraform-security-group-open-ingress', parameters: { ports: ['22'] } })
    expect(judge(casual, group(ingress(22, 22, ['0.0.0.0/0']))).passed).toBe(false)
    expect(reading('databases must not be reachable from the internet on port 5432').template).toBe('terraform-rds-protection')
  })

  it('with allowed ports, fails everything else open to the world', () => {
    const only = 'security groups may only allow 0.0.0.0/0 on ports 80 and 443'
    expect(understandInstruction(only, TERRAFORM).clauses[0]?.report.parameters).toEqual({ allowedPorts: ['80', '443'] })
    expect(judge(only, group(ingress(443, 443, ['0.0.0.0/0']), ingress(80, 80, ['0.0.0.0/0']), ingress(22, 22, ['10.0.0.0/8']))).passed).toBe(true)
    expect(judge(only, group(ingress(80, 443, ['0.0.0.0/0']))).passed).toBe(false)
    expect(judge(only, group(ingress(22, 22, ['0.0.0.0/0']))).failures[0]?.message).toBe('ingress open to the internet on ports other than 80, 443: aws_security_group.web')
  })
})

describe('required tags', () => {
  const instruction = 'all resources must have tags owner and cost-center'

  it('reads tag keys before or after the word, and resource types', () => {
    expect(understandInstruction(instruction, TERRAFORM).clauses[0]?.report.parameters).toEqual({ tags: ['owner', 'cost-center'] })
    expect(understandInstruction('owner and cost-center tags are required on aws_instance and aws_s3_bucket resources', TERRAFORM).clauses[0]?.report.parameters).toEqual({
      tags: ['owner', 'cost-center'],
      resourceTypes: ['aws_instance', 'aws_s3_bucket'],
    })
    expect(understandInstruction('EC2 instances must be tagged with Team', TERRAFORM).clauses[0]?.report.parameters).toEqual({ tags: ['Team'], resourceTypes: ['aws_instance'] })
    expect(reading('tag every resource with Environment and Team').parameters).toEqual({ tags: ['Environment', 'Team'] })
  })

  it('asks for the keys when the clause names none', () => {
    expect(understandInstruction('all resources must be tagged', TERRAFORM).clauses[0]?.report).toMatchObject({ status: 'missing-parameters', missing: [{ name: 'tags' }] })
  })

  it('fails resources missing a tag, naming each and the tags it lacks', () => {
    const document = plan([
      resource('aws_instance', 'web', { tags: { owner: 'a', 'cost-center': 'b' } }),
      resource('aws_s3_bucket', 'logs', { tags: { owner: 'a' } }),
      resource('aws_vpc', 'main', { tags: null }),
    ])
    expect(judge(instruction, document).failures[0]?.message).toBe('resources missing required tags: aws_s3_bucket.logs (cost-center), aws_vpc.main (owner, cost-center)')
  })

  it('counts provider default_tags (tags_all) and rejects empty values', () => {
    expect(judge(instruction, plan([resource('aws_instance', 'web', { tags: { owner: 'a' }, tags_all: { owner: 'a', 'cost-center': 'b' } })])).passed).toBe(true)
    expect(judge(instruction, plan([resource('aws_instance', 'web', { tags: { owner: 'a', 'cost-center': '' } })])).passed).toBe(false)
  })

  it('only judges resources with a tags attribute', () => {
    const block = resource('aws_s3_bucket_public_access_block', 'a', { bucket: 'a', block_public_acls: true })
    expect(judge(instruction, plan([block])).passed).toBe(true)
  })

  it('narrows to the resource types named', () => {
    const document = plan([resource('aws_instance', 'web', { tags: {} }), resource('aws_s3_bucket', 'logs', { tags: { team: 'x' } })])
    expect(judge('S3 buckets need a team tag', document).passed).toBe(true)
    expect(judge('EC2 instances need a team tag', document).failures[0]?.message).toBe('resources missing required tags: aws_instance.web (team)')
  })
})

describe('instance type allowlist', () => {
  const instruction = 'EC2 instances must be t3.micro or t3.small'

  it('passes allowed types and fails others, naming the type', () => {
    expect(judge(instruction, plan([resource('aws_instance', 'a', { instance_type: 't3.small' })])).passed).toBe(true)
    expect(judge(instruction, plan([resource('aws_instance', 'a', { instance_type: 'm5.large' })])).failures[0]?.message).toBe('instance types not allowed: aws_instance.a (m5.large)')
  })

  it('fails an instance without a type unless a launch template gives it, and judges launch templates', () => {
    expect(judge(instruction, plan([resource('aws_instance', 'a', {})])).passed).toBe(false)
    expect(judge(instruction, plan([resource('aws_instance', 'a', { launch_template: [{ id: 'lt-1', version: '$Latest' }] })])).passed).toBe(true)
    expect(judge(instruction, plan([resource('aws_launch_template', 'big', { instance_type: 'c5.4xlarge' })])).passed).toBe(false)
    expect(judge(instruction, plan([resource('aws_launch_template', 'untyped', { instance_type: null })])).passed).toBe(true)
  })

  it('allows whole families and forbids listed types', () => {
    const family = 'instance types must be from the t3 family'
    expect(judge(family, plan([resource('aws_instance', 'a', { instance_type: 't3.2xlarge' })])).passed).toBe(true)
    expect(judge(family, plan([resource('aws_instance', 'a', { instance_type: 't3a.micro' })])).passed).toBe(false)
    const deny = 'EC2 instances must not use p4d.24xlarge'
    expect(understandInstruction(deny, TERRAFORM).clauses[0]?.report.parameters).toEqual({ instanceTypes: ['p4d.24xlarge'], deny: true })
    expect(judge(deny, plan([resource('aws_instance', 'a', { instance_type: 'p4d.24xlarge' })])).failures[0]?.message).toBe('forbidden instance types: aws_instance.a (p4d.24xlarge)')
    expect(judge(deny, plan([resource('aws_instance', 'a', { instance_type: 't3.micro' })])).passed).toBe(true)
    const families = 'only t3 and t4g instances are allowed'
    expect(reading(families).parameters).toEqual({ instanceTypes: ['t3.*', 't4g.*'] })
    expect(judge(families, plan([resource('aws_instance', 'a', { instance_type: 't4g.small' })])).passed).toBe(true)
    expect(judge(families, plan([resource('aws_instance', 'a', { instance_type: 'm5.large' })])).passed).toBe(false)
  })

  it('does not read size comparisons as a list of types', () => {
    expect(understandInstruction('no instance larger than t3.large', TERRAFORM).clauses[0]?.report.status).toBe('unmapped')
  })
})

describe('RDS protection', () => {
  it('fails databases without storage_encrypted = true, except replicas that inherit it', () => {
    const instruction = 'RDS instances must be encrypted'
    expect(judge(instruction, plan([resource('aws_db_instance', 'db', { storage_encrypted: true })])).passed).toBe(true)
    expect(judge(instruction, plan([resource('aws_db_instance', 'db', { storage_encrypted: false })])).failures[0]?.message).toBe('databases without storage_encrypted = true: aws_db_instance.db')
    expect(judge(instruction, plan([resource('aws_db_instance', 'db', {})])).passed).toBe(false)
    expect(judge(instruction, plan([resource('aws_rds_cluster', 'aurora', { storage_encrypted: null })])).passed).toBe(false)
    expect(judge(instruction, plan([resource('aws_db_instance', 'replica', { replicate_source_db: 'db' })])).passed).toBe(true)
  })

  it('fails publicly accessible databases; missing is the private default', () => {
    const instruction = 'databases must not be publicly accessible'
    expect(judge(instruction, plan([resource('aws_db_instance', 'db', {})])).passed).toBe(true)
    expect(judge(instruction, plan([resource('aws_rds_cluster_instance', 'db', { publicly_accessible: true })])).failures[0]?.message).toBe('databases with publicly_accessible = true: aws_rds_cluster_instance.db')
  })

  it('checks both when asked for both or for a secure database', () => {
    for (const instruction of ['RDS instances must be encrypted and not publicly accessible', 'db instances must be secure']) {
      expect(understandInstruction(instruction, TERRAFORM).clauses[0]?.report.parameters).toEqual({ checks: ['storage-encrypted', 'not-public'] })
    }
    const verdict = judge('db instances must be secure', plan([resource('aws_db_instance', 'db', { publicly_accessible: true })]))
    expect(verdict.failures[0]?.message).toBe('databases without storage_encrypted = true: aws_db_instance.db; databases with publicly_accessible = true: aws_db_instance.db')
  })
})

describe('instructions', () => {
  const both = 'S3 buckets must be encrypted and security groups must not allow 0.0.0.0/0 on port 22'

  it('split into one rule per template, with or without a platform label', () => {
    expect(templateOf(both)).toEqual(['terraform-s3-bucket-protection', 'terraform-security-group-open-ingress'])
    expect(templateOf(both, {})).toEqual(['terraform-s3-bucket-protection', 'terraform-security-group-open-ingress'])
    expect(templateOf('EC2 instances must be t3.micro. RDS must not be public', {})).toEqual(['terraform-instance-type-allowlist', 'terraform-rds-protection'])
  })

  it('judge a plan against every clause', () => {
    const bad = plan([
      resource('aws_s3_bucket', 'logs', { bucket: 'logs' }),
      resource('aws_security_group', 'web', { ingress: [{ from_port: 22, to_port: 22, protocol: 'tcp', cidr_blocks: ['0.0.0.0/0'] }] }),
    ])
    const verdict = judge(both, bad)
    expect(verdict.failures.map((failure) => failure.rule)).toEqual(['s3-buckets-encrypted', 'security-groups-no-open-ingress-22'])
    const good = plan([resource('aws_s3_bucket', 'logs', { bucket: 'logs', ...encryptedInline }), resource('aws_security_group', 'web', { ingress: [] })])
    expect(judge(both, good).passed).toBe(true)
  })

  it('produce samples that verify', () => {
    const instruction = `${both}. EC2 instances must be t3.micro. RDS instances must be encrypted. EC2 instances need an owner tag`
    const understood = understandInstruction(instruction, TERRAFORM)
    const { spec } = compileInstruction(instruction, TERRAFORM)
    const rules = understood.clauses.map((entry, index) => {
      const best = entry.recognition.best
      if (!best) throw new Error(`not recognized: ${entry.clause.text}`)
      return { rule: spec.rules[index]?.name ?? '', template: best.template, parameters: best.recognition.parameters, kinds: entry.clause.kinds }
    })
    const { samples, unverified } = instructionSamples('x', spec, rules)
    expect(unverified).toEqual([])
    expect(samples.filter((sample) => sample.label === 'non-compliant').length).toBeGreaterThanOrEqual(5)
  })

  it('never map to generic JSON or Kubernetes templates on a Terraform plan', () => {
    expect(understandInstruction('debug must be false', TERRAFORM).clauses[0]?.report.status).toBe('unmapped')
  })
})

describe('every template', () => {
  it.each(TERRAFORM_TEMPLATES.map((template) => [template.id, template] as const))('%s documents its parameters and has varied phrasings', (_id, template) => {
    expect(template.phrasings.length).toBeGreaterThanOrEqual(3)
    for (const parameter of template.parameters) {
      expect(parameter.question).toMatch(/\?$/)
      expect(parameter.example).toBeDefined()
    }
  })
})

describe('CEL shorthands of plan rules', () => {
  it('expand $string, $list, $type and $base, nested, leaving string literals as written', () => {
    expect(expandPlanCel("$type(r) == '$list(x)'")).toBe("(type(r.?type.orValue(null)) == string ? r.?type.orValue('') : '') == '$list(x)'")
    expect(expandPlanCel("$list(r.?values.?rule).exists(d, $string(d.?a, 'none, really') != '')")).toBe(
      "(type(r.?values.?rule.orValue(null)) == list ? r.?values.?rule.orValue([]) : []).exists(d, (type(d.?a.orValue(null)) == string ? d.?a.orValue('') : 'none, really') != '')",
    )
    expect(expandPlanCel('$base(x)')).toBe("(type(x.?address.orValue(null)) == string ? x.?address.orValue('') : 'unknown address').find('^[^\\\\[]*')")
    expect(() => expandPlanCel('$nothing(x)')).toThrow('unknown CEL shorthand')
  })
})
