import type { Rule, Severity } from '../../engine/index.js'
import { terraformDocumentCondition, terraformResourceVariables } from '../documents/terraform-resources.js'
import { mapIn, planResources } from '../samples/document-parts.js'
import { mentions, type Clause } from '../text/clause.js'
import { portRanges } from '../text/extract.js'
import { celString, celStringList } from './pod-rule.js'
import type { Parameters, Recognition, RuleTemplate, TemplateSamples } from './rule-template.js'
import { ruleNameFrom } from './rule-name.js'

/**
 * Rules on Terraform documents as `terraform show -json` writes them: a whole plan, one
 * planned_values resource, or one resource_changes entry (judged on `change.after`; deleted
 * resources skipped). A rule judges every managed resource of its types, in the root module and
 * in child modules (see documents/terraform-resources.ts), and names the failing ones by `address`.
 *
 * Semantics shared by every template:
 * - A plan without a resource of the judged types passes.
 * - Only what the plan knows is judged: Terraform leaves values known only after apply out of
 *   `planned_values`, so such an attribute counts as missing. "Must be encrypted" fails when the
 *   attribute is missing; "must not be public" passes when it is missing and the provider's
 *   default is private.
 * - Documents that are not Terraform documents are skipped, not passed.
 */

const NONE: Recognition = { score: 0, parameters: {}, missing: [] }

// ---------------------------------------------------------------------------------------------
// CEL over plans

/** An attribute as a list: plans write null for unset blocks, and a block list is what `.exists` needs. */
function listOf(optional: string): string {
  return `(type(${optional}.orValue(null)) == list ? ${optional}.orValue([]) : [])`
}

function stringOf(optional: string, fallback = ''): string {
  return `(type(${optional}.orValue(null)) == string ? ${optional}.orValue('') : ${celString(fallback)})`
}

function numberOf(optional: string, fallback: number): string {
  return `(type(${optional}.orValue(null)) in [int, uint, double] ? int(${optional}.orValue(0)) : ${fallback})`
}

const value = (resource: string, attribute: string): string => `${resource}.?values.?${attribute}`
const typeOf = (resource: string): string => stringOf(`${resource}.?type`)
const addressOf = (resource: string): string => stringOf(`${resource}.?address`, 'unknown address')
/** The address without a count/for_each index: what configuration references name. */
const baseAddressOf = (resource: string): string => `${addressOf(resource)}.find('^[^\\\\[]*')`

/** Resources declared in the root module's configuration, with the references of their expressions. */
const CONFIGURATION_RESOURCES = listOf('object.?configuration.?root_module.?resources')

interface Finding {
  /** Variable name: the list of offending resources. */
  variable: string
  /** CEL filter body over `r` in variables.resources: true for an offending resource. */
  offends: string
  /** Says what is wrong, followed by the addresses. */
  message: string
  /** CEL string appended to each address (" (t3.large)"), optional. */
  detail?: string
}

interface PlanRuleOptions {
  name: string
  description: string
  severity: Severity
  message: string
  remediation: string
  findings: Finding[]
  /** Variables the findings use, after the plan's own. */
  variables?: Array<{ name: string; expression: string }>
}

/** One validation over every finding, so the message lists every offending resource at once. */
function planRule(options: PlanRuleOptions): Rule {
  const variables = [
    // Resources wherever `terraform show -json` puts them: one resource, a resource_changes entry, or a whole plan.
    ...terraformResourceVariables([]),
    ...(options.variables ?? []),
    ...options.findings.map((finding) => ({ name: finding.variable, expression: `variables.resources.filter(r, ${finding.offends})` })),
  ]
  const parts = options.findings.map(
    (finding) =>
      `(size(variables.${finding.variable}) > 0 ? ${celString(`${finding.message}: `)} + variables.${finding.variable}.map(r, ${addressOf('r')}${finding.detail ? ` + ${finding.detail}` : ''}).join(', ') : '')`,
  )
  return {
    name: options.name,
    description: options.description,
    severity: options.severity,
    match: { conditions: [{ name: 'terraform-document', expression: terraformDocumentCondition }] },
    variables,
    validate: {
      cel: [
        {
          expression: options.findings.map((finding) => `size(variables.${finding.variable}) == 0`).join(' && '),
          message: options.message,
          messageExpression: `[${parts.join(', ')}].filter(s, s != '').join('; ')`,
        },
      ],
    },
    message: options.message,
    remediation: options.remediation,
  }
}

// ---------------------------------------------------------------------------------------------
// Samples

type Json = Record<string, unknown>

function resourcesOfType(plan: Json, types: readonly string[]): Json[] {
  return planResources(plan).filter((resource) => types.includes(String(resource.type)))
}

function valuesOf(resource: Json): Json {
  return mapIn(resource, 'values')
}

function rootResources(plan: Json): unknown[] {
  const root = mapIn(mapIn(plan, 'planned_values'), 'root_module')
  if (!Array.isArray(root.resources)) root.resources = []
  return root.resources as unknown[]
}

/** A new planned resource in the root module, for bad samples about a type the base plan lacks. */
function addResource(plan: Json, type: string, name: string, values: Json): Json {
  const resource: Json = { address: `${type}.${name}`, mode: 'managed', type, name, provider_name: 'registry.terraform.io/hashicorp/aws', values }
  rootResources(plan).push(resource)
  return resource
}

/** The first resource of the types, or a new one of the first type. */
function firstOrNew(plan: Json, types: readonly string[], name: string): Json {
  return resourcesOfType(plan, types)[0] ?? addResource(plan, types[0] ?? 'aws_instance', name, {})
}

function bucketName(resource: Json): string {
  const values = valuesOf(resource)
  if (typeof values.bucket !== 'string' || values.bucket === '') values.bucket = `${String(resource.name ?? 'sample')}-bucket`
  return values.bucket as string
}

// ---------------------------------------------------------------------------------------------
// Parameters

function textList(parameters: Parameters, name: string): string[] {
  const found = parameters[name]
  if (typeof found === 'string') return [found]
  return Array.isArray(found) ? found.map(String) : []
}

function flag(parameters: Parameters, name: string): boolean {
  return parameters[name] === true
}

function slug(parts: readonly string[]): string {
  return ruleNameFrom(parts, 'terraform-rule')
}

// ---------------------------------------------------------------------------------------------
// S3 buckets

const ENCRYPTION_WORDS = /encrypt|\bsse\b|\bkms\b|server[\s-]side/
const PUBLIC_WORDS = /\bpublic|\bacls?\b|anonymous|world|internet|\bprivate\b|open to|exposed/
const SECURE_WORDS = /\b(secure|secured|hardened|locked down|compliant|safe)\b/
const TAG_WORDS = /\btag(s|ged|ging)?\b/

const PUBLIC_ACLS = ['public-read', 'public-read-write', 'authenticated-read']
const PUBLIC_GRANTEES = ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers']
const BLOCK_FLAGS = ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets']
const KMS_ALGORITHMS = ['aws:kms', 'aws:kms:dsse']

const SSE_RESOURCE = 'aws_s3_bucket_server_side_encryption_configuration'
const ACCESS_BLOCK = 'aws_s3_bucket_public_access_block'
const ACCOUNT_ACCESS_BLOCK = 'aws_s3_account_public_access_block'

/** Over a list of SSE `rule` blocks: one sets a default algorithm (a KMS one when asked). */
function encryptionRules(rules: string, kms: boolean): string {
  const algorithm = stringOf('d.?sse_algorithm')
  const accepted = kms ? `${algorithm} in ${celStringList(KMS_ALGORITHMS)}` : `${algorithm} != ''`
  return `${rules}.exists(rule, ${listOf('rule.?apply_server_side_encryption_by_default')}.exists(d, ${accepted}))`
}

const allFlagsOn = (resource: string): string => BLOCK_FLAGS.map((name) => `${value(resource, name)}.orValue(null) == true`).join(' && ')

/**
 * Variables naming the buckets a companion resource (encryption configuration, public access
 * block) applies to: by its `bucket` value when the plan knows it, and by the references of its
 * `bucket` expression in the root module's configuration when the name is only known after apply.
 */
function companionVariables(prefix: string, type: string, accepted: string): Array<{ name: string; expression: string }> {
  return [
    { name: `${prefix}_ok`, expression: `variables.resources.filter(x, ${typeOf('x')} == ${celString(type)} && ${accepted})` },
    { name: `${prefix}_buckets`, expression: `variables.${prefix}_ok.map(x, ${stringOf(value('x', 'bucket'))}).filter(n, n != '')` },
    {
      name: `${prefix}_references`,
      expression: `${CONFIGURATION_RESOURCES}.filter(c, variables.${prefix}_ok.exists(x, ${baseAddressOf('x')} == ${stringOf('c.?address')})).map(c, ${listOf('c.?expressions.?bucket.?references')}).flatten()`,
    },
  ]
}

function coveredBy(prefix: string): string {
  const base = baseAddressOf('r')
  return `(${stringOf(value('r', 'bucket'))} in variables.${prefix}_buckets || variables.${prefix}_references.exists(ref, type(ref) == string && (ref == ${base} || ref.startsWith(${base} + '.') || ref.startsWith(${base} + '['))))`
}

type S3Check = 'encryption' | 'public-access'

const s3Buckets: RuleTemplate = {
  id: 'terraform-s3-bucket-protection',
  title: 'S3 buckets encrypted and not public',
  platform: 'terraform',
  category: 'terraform',
  kinds: ['aws_s3_bucket', SSE_RESOURCE, 'aws_s3_bucket_acl', ACCESS_BLOCK, ACCOUNT_ACCESS_BLOCK],
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
  recognize(clause) {
    if (!mentions(clause, /\bs3\b|\bbuckets?\b|aws_s3_bucket/)) return NONE
    const checks: S3Check[] = []
    if (mentions(clause, ENCRYPTION_WORDS)) checks.push('encryption')
    if (mentions(clause, PUBLIC_WORDS, /public access/)) checks.push('public-access')
    if (checks.length === 0) {
      if (!mentions(clause, SECURE_WORDS) || mentions(clause, TAG_WORDS)) return NONE
      checks.push('encryption', 'public-access')
    }
    const parameters: Parameters = { checks }
    if (checks.includes('encryption') && mentions(clause, /\bkms\b/)) parameters.kms = true
    if (checks.includes('public-access') && mentions(clause, /public access blocks?|block(s|ing)? (all )?public access/)) parameters.requirePublicAccessBlock = true
    return { score: 2, parameters, missing: [] }
  },
  rule(parameters) {
    const checks = textList(parameters, 'checks')
    const kms = flag(parameters, 'kms')
    const requireBlock = flag(parameters, 'requirePublicAccessBlock')
    const encryption = checks.includes('encryption')
    const publicAccess = checks.includes('public-access')
    const findings: Finding[] = []
    const variables: Array<{ name: string; expression: string }> = []
    const remediation: string[] = []
    const said: string[] = []
    if (encryption) {
      variables.push(...companionVariables('sse', SSE_RESOURCE, encryptionRules(listOf(value('x', 'rule')), kms)))
      const inline = `${listOf(value('r', 'server_side_encryption_configuration'))}.exists(c, ${encryptionRules(listOf('c.?rule'), kms)})`
      findings.push({
        variable: 'unencrypted_buckets',
        offends: `${typeOf('r')} == 'aws_s3_bucket' && !(${inline} || ${coveredBy('sse')})`,
        message: kms ? 'S3 buckets without KMS default encryption' : 'S3 buckets without default encryption',
      })
      said.push(kms ? 'encrypted with KMS' : 'encrypted')
      remediation.push(
        `Configure default encryption${kms ? ' with sse_algorithm = "aws:kms" and a kms_master_key_id' : ''}: an aws_s3_bucket_server_side_encryption_configuration resource whose bucket is the bucket's id (or, with AWS provider v3, a server_side_encryption_configuration block on the aws_s3_bucket).`,
      )
    }
    if (publicAccess) {
      const grants = `${listOf(value('r', 'access_control_policy'))}.exists(p, ${listOf('p.?grant')}.exists(g, ${listOf('g.?grantee')}.exists(e, ${stringOf('e.?uri')} in ${celStringList(PUBLIC_GRANTEES)})))`
      const inlineGrants = `${listOf(value('r', 'grant'))}.exists(g, ${stringOf('g.?uri')} in ${celStringList(PUBLIC_GRANTEES)})`
      findings.push({
        variable: 'public_acls',
        offends: `${typeOf('r')} in ['aws_s3_bucket', 'aws_s3_bucket_acl'] && (${stringOf(value('r', 'acl'))} in ${celStringList(PUBLIC_ACLS)} || ${grants} || ${inlineGrants})`,
        message: 'S3 ACLs granting public access',
        detail: `' (' + ${stringOf(value('r', 'acl'), 'grant')} + ')'`,
      })
      findings.push({
        variable: 'weak_access_blocks',
        offends: `${typeOf('r')} in ${celStringList([ACCESS_BLOCK, ACCOUNT_ACCESS_BLOCK])} && !(${allFlagsOn('r')})`,
        message: 'public access blocks without all four settings on',
      })
      said.push('not public')
      remediation.push(
        `Use acl = "private" (or no ACL) on aws_s3_bucket and aws_s3_bucket_acl, grant nothing to the AllUsers or AuthenticatedUsers groups, and set ${BLOCK_FLAGS.join(', ')} to true on every public access block.`,
      )
      if (requireBlock) {
        variables.push(...companionVariables('pab', ACCESS_BLOCK, allFlagsOn('x')))
        findings.push({ variable: 'unblocked_buckets', offends: `${typeOf('r')} == 'aws_s3_bucket' && !${coveredBy('pab')}`, message: 'S3 buckets without a public access block' })
        remediation.push('Add an aws_s3_bucket_public_access_block for every bucket, its bucket set to the bucket\'s id.')
      }
    }
    return planRule({
      name: slug(['s3-buckets', ...said.flatMap((words) => words.split(' ')), ...(requireBlock ? ['blocked'] : [])]),
      description: `S3 buckets must be ${said.join(' and ')}. Encryption counts when set on the bucket (server_side_encryption_configuration) or by an ${SSE_RESOURCE} naming the bucket by name or, in the root module, by reference.${publicAccess ? ' Public means a public-read, public-read-write or authenticated-read ACL, a grant to AllUsers/AuthenticatedUsers, or a public access block with any setting off; bucket policies are not judged.' : ''}`,
      severity: publicAccess ? 'critical' : 'high',
      message: `S3 buckets must be ${said.join(' and ')}`,
      remediation: remediation.join(' '),
      variables,
      findings,
    })
  },
  samples(parameters) {
    const checks = textList(parameters, 'checks')
    const kms = flag(parameters, 'kms')
    const requireBlock = flag(parameters, 'requirePublicAccessBlock')
    const good: TemplateSamples['good'] = []
    const bad: TemplateSamples['bad'] = []
    const algorithm = kms ? 'aws:kms' : 'AES256'
    if (checks.includes('encryption')) {
      good.push((plan) => {
        for (const bucket of resourcesOfType(plan, ['aws_s3_bucket'])) {
          bucketName(bucket)
          valuesOf(bucket).server_side_encryption_configuration = [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: algorithm, kms_master_key_id: kms ? 'alias/s3' : null }], bucket_key_enabled: kms }] }]
        }
      })
      bad.push({ description: 'a bucket without server_side_encryption_configuration', edit: (plan) => void delete valuesOf(firstOrNew(plan, ['aws_s3_bucket'], 'unencrypted')).server_side_encryption_configuration })
      if (kms) {
        bad.push({
          description: 'a bucket encrypted with AES256 rather than KMS',
          edit: (plan) => {
            valuesOf(firstOrNew(plan, ['aws_s3_bucket'], 'aes')).server_side_encryption_configuration = [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'AES256' }] }] }]
          },
        })
      }
    }
    if (checks.includes('public-access')) {
      good.push((plan) => {
        for (const resource of resourcesOfType(plan, ['aws_s3_bucket', 'aws_s3_bucket_acl'])) valuesOf(resource).acl = 'private'
        for (const block of resourcesOfType(plan, [ACCESS_BLOCK, ACCOUNT_ACCESS_BLOCK])) for (const name of BLOCK_FLAGS) valuesOf(block)[name] = true
        if (!requireBlock) return
        const blocked = new Set(resourcesOfType(plan, [ACCESS_BLOCK]).map((block) => valuesOf(block).bucket))
        for (const bucket of resourcesOfType(plan, ['aws_s3_bucket'])) {
          const name = bucketName(bucket)
          if (!blocked.has(name)) addResource(plan, ACCESS_BLOCK, `${String(bucket.name)}_block`, { bucket: name, ...Object.fromEntries(BLOCK_FLAGS.map((flagName) => [flagName, true])) })
        }
      })
      bad.push({ description: 'a bucket with acl public-read', edit: (plan) => void (valuesOf(firstOrNew(plan, ['aws_s3_bucket'], 'public')).acl = 'public-read') })
      bad.push({
        description: 'a public access block with block_public_acls off',
        edit: (plan) => {
          const block = resourcesOfType(plan, [ACCESS_BLOCK])[0] ?? addResource(plan, ACCESS_BLOCK, 'open', { bucket: 'open-bucket', ...Object.fromEntries(BLOCK_FLAGS.map((name) => [name, true])) })
          valuesOf(block).block_public_acls = false
        },
      })
      if (requireBlock) {
        bad.push({
          description: 'a bucket without a public access block',
          edit: (plan) => void addResource(plan, 'aws_s3_bucket', 'unblocked', { bucket: 'unblocked-bucket', acl: 'private', server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: algorithm }] }] }] }),
        })
      }
    }
    return { good, bad }
  },
}

// ---------------------------------------------------------------------------------------------
// Security groups

const SECURITY_GROUP_TYPES = ['aws_security_group', 'aws_security_group_rule', 'aws_vpc_security_group_ingress_rule']
const ALL_PROTOCOLS = ['-1', 'all']
const PORT_PROTOCOLS = ['tcp', 'udp', '6', '17', 'sctp', '132']
const NAMED_PORTS: Record<string, string> = { ssh: '22', rdp: '3389', telnet: '23', ftp: '21', smb: '445', mysql: '3306', postgres: '5432', postgresql: '5432', mssql: '1433', redis: '6379', mongodb: '27017', http: '80', https: '443' }
const WORLD_WORDS = /0\.0\.0\.0\/0|::\/0|internet|anywhere|\bworld\b|\bpublic|\bopen\b|everyone|any (ip|address|source|cidr)|all (ips|addresses)/

/** `[from, to]` pairs from "22", "8000-8080"; numbers stay numbers in parameters when they can. */
function portList(parameters: Parameters, name: string): Array<[number, number]> {
  const found = parameters[name]
  const items = Array.isArray(found) ? found : typeof found === 'string' || typeof found === 'number' ? [found] : []
  const ranges: Array<[number, number]> = []
  for (const item of items) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(String(item).trim())
    if (!match) continue
    const from = Number(match[1])
    const to = match[2] === undefined ? from : Number(match[2])
    if (from <= to) ranges.push([from, to])
  }
  return ranges
}

function portText(ranges: ReadonlyArray<[number, number]>): string[] {
  return ranges.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`))
}

const celRanges = (ranges: ReadonlyArray<[number, number]>): string => `[${ranges.map(([from, to]) => `[${from}, ${to}]`).join(', ')}]`

/**
 * Over an ingress rule `block` (a security group's ingress block, or a rule resource's values):
 * open to the world, and on the ports the rule is about.
 */
function exposes(block: string, style: 'block' | 'vpc', ports: ReadonlyArray<[number, number]>, allowed: ReadonlyArray<[number, number]>): string {
  const sources =
    style === 'vpc' ? `[${block}.?cidr_ipv4.orValue(null), ${block}.?cidr_ipv6.orValue(null)]` : `(${listOf(`${block}.?cidr_blocks`)} + ${listOf(`${block}.?ipv6_cidr_blocks`)})`
  const world = `${sources}.exists(c, type(c) == string && c.endsWith('/0'))`
  const protocol = `${stringOf(`${block}.?${style === 'vpc' ? 'ip_protocol' : 'protocol'}`, '-1')}.lowerAscii()`
  const from = numberOf(`${block}.?from_port`, 0)
  const to = numberOf(`${block}.?to_port`, 65535)
  if (allowed.length > 0) {
    return `${world} && !(${protocol} in ${celStringList(PORT_PROTOCOLS)} && ${celRanges(allowed)}.exists(p, p[0] <= ${from} && ${to} <= p[1]))`
  }
  if (ports.length > 0) {
    return `${world} && (${protocol} in ${celStringList(ALL_PROTOCOLS)} || (${protocol} in ${celStringList(PORT_PROTOCOLS)} && ${celRanges(ports)}.exists(p, ${from} <= p[1] && p[0] <= ${to})))`
  }
  return world
}

function portsFrom(clause: Clause): string[] {
  const found: string[] = []
  const text = clause.text
  const portWord = /\bports?\b/i.exec(text)
  if (portWord) {
    for (const [from, to] of portRanges(text.slice(portWord.index))) found.push(from === to ? String(from) : `${from}-${to}`)
  }
  for (const [name, port] of Object.entries(NAMED_PORTS)) if (mentions(clause, name)) found.push(port)
  return [...new Set(found)]
}

const securityGroups: RuleTemplate = {
  id: 'terraform-security-group-open-ingress',
  title: 'Security groups not open to the internet',
  platform: 'terraform',
  category: 'terraform',
  kinds: SECURITY_GROUP_TYPES,
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
  recognize(clause) {
    if (!mentions(clause, WORLD_WORDS)) return NONE
    const ports = portsFrom(clause)
    const aboutGroups = mentions(clause, /security ?groups?|\bsgs?\b|aws_security_group|aws_vpc_security_group_ingress_rule|\bingress\b|firewall|inbound/)
    // "don't let anyone ssh in from the internet" is about security groups without saying so; a
    // template that names its resource ("databases ... on port 5432") is the better reading.
    if (!aboutGroups && (ports.length === 0 || mentions(clause, /\bs3\b|\bbuckets?\b|\brds\b|databases?|\bdb\b/))) return NONE
    const exception = mentions(clause, /\b(only|except|other than|besides|apart from|but)\b/)
    const parameters: Parameters = ports.length === 0 ? {} : exception ? { allowedPorts: ports } : { ports }
    return { score: aboutGroups ? 2 : 1.5, parameters, missing: [] }
  },
  rule(parameters) {
    const ports = portList(parameters, 'ports')
    const allowed = portList(parameters, 'allowedPorts')
    const scope = allowed.length > 0 ? ` on ports other than ${portText(allowed).join(', ')}` : ports.length > 0 ? ` on port ${portText(ports).join(', ')}` : ''
    const said = `must not allow ingress from 0.0.0.0/0 or ::/0${scope}`
    const offends = [
      `(${typeOf('r')} == 'aws_security_group' && ${listOf(value('r', 'ingress'))}.exists(b, ${exposes('b', 'block', ports, allowed)}))`,
      `(${typeOf('r')} == 'aws_security_group_rule' && ${stringOf(value('r', 'type'))} == 'ingress' && ${exposes("r.?values.orValue({})", 'block', ports, allowed)})`,
      `(${typeOf('r')} == 'aws_vpc_security_group_ingress_rule' && ${exposes("r.?values.orValue({})", 'vpc', ports, allowed)})`,
    ].join(' || ')
    return planRule({
      name: slug(['security-groups-no-open-ingress', ...(allowed.length > 0 ? ['except', ...portText(allowed)] : portText(ports))]),
      description: `Security groups ${said}. Judges ingress blocks of aws_security_group, aws_security_group_rule of type ingress and aws_vpc_security_group_ingress_rule; any CIDR ending in /0 is the whole internet, protocol -1 (all) covers every port, and a port range covers the ports inside it.`,
      severity: 'high',
      message: `security groups ${said}`,
      remediation: `Restrict cidr_blocks / ipv6_cidr_blocks (cidr_ipv4 / cidr_ipv6 on aws_vpc_security_group_ingress_rule) to known networks${scope ? `${scope}, or close those ports` : ''}; reach administrative ports through a VPN, a bastion or SSM Session Manager.`,
      findings: [{ variable: 'open_ingress', offends, message: `ingress open to the internet${scope}` }],
    })
  },
  samples(parameters) {
    const ports = portList(parameters, 'ports')
    const allowed = portList(parameters, 'allowedPorts')
    const inside = (port: number, ranges: ReadonlyArray<[number, number]>): boolean => ranges.some(([from, to]) => from <= port && port <= to)
    const rule = (port: number, cidrs: string[], ipv6: string[] = [], protocol = 'tcp'): Json => ({ from_port: port, to_port: port, protocol, cidr_blocks: cidrs, ipv6_cidr_blocks: ipv6, description: 'sample', prefix_list_ids: [], security_groups: [], self: false })
    // A port the rule lets the world reach, to show it is judged precisely: an allowed one, or one not listed.
    const openPort = allowed[0]?.[0] ?? (ports.length > 0 ? [443, 8443, 80, 8080, 9443].find((port) => !inside(port, ports)) : undefined)
    const badPort = allowed.length > 0 ? ([22, 3389, 8080, 1].find((port) => !inside(port, allowed)) ?? 0) : (ports[0]?.[0] ?? 22)
    return {
      good: [
        (plan) => {
          for (const group of resourcesOfType(plan, ['aws_security_group'])) {
            const ingress = [rule(443, ['10.0.0.0/8'])]
            if (openPort !== undefined) ingress.push(rule(openPort, ['0.0.0.0/0']))
            valuesOf(group).ingress = ingress
          }
          for (const resource of resourcesOfType(plan, ['aws_security_group_rule'])) Object.assign(valuesOf(resource), { type: 'ingress', ...rule(443, ['10.0.0.0/8']) })
          for (const resource of resourcesOfType(plan, ['aws_vpc_security_group_ingress_rule'])) Object.assign(valuesOf(resource), { ip_protocol: 'tcp', from_port: 443, to_port: 443, cidr_ipv4: '10.0.0.0/8', cidr_ipv6: null })
        },
      ],
      bad: [
        { description: `ingress from 0.0.0.0/0 on port ${badPort}`, edit: (plan) => pushIngress(plan, rule(badPort, ['0.0.0.0/0'])) },
        { description: `ingress from ::/0 on port ${badPort}`, edit: (plan) => pushIngress(plan, rule(badPort, [], ['::/0'])) },
        { description: 'ingress from 0.0.0.0/0 on all protocols and ports', edit: (plan) => pushIngress(plan, rule(0, ['0.0.0.0/0'], [], '-1')) },
        {
          description: `an aws_security_group_rule from 0.0.0.0/0 on ports 0-65535`,
          edit: (plan) => void addResource(plan, 'aws_security_group_rule', 'open', { type: 'ingress', ...rule(0, ['0.0.0.0/0']), to_port: 65535 }),
        },
      ],
    }
  },
}

function pushIngress(plan: Json, block: Json): void {
  const values = valuesOf(firstOrNew(plan, ['aws_security_group'], 'open'))
  values.ingress = [...(Array.isArray(values.ingress) ? (values.ingress as unknown[]) : []), block]
}

// ---------------------------------------------------------------------------------------------
// Tags

/** What authors call resources, and the types they mean. */
const RESOURCE_WORDS: Array<[RegExp, string[]]> = [
  [/\bs3\b|\bbuckets?\b/, ['aws_s3_bucket']],
  [/\bec2\b|(?<!db |database |rds )\binstances?\b/, ['aws_instance']],
  [/\brds\b|\bdb instances?\b|\bdatabases?\b/, ['aws_db_instance']],
  [/security groups?/, ['aws_security_group']],
  [/\bvpcs?\b/, ['aws_vpc']],
  [/\bsubnets?\b/, ['aws_subnet']],
  [/\blambdas?\b/, ['aws_lambda_function']],
  [/load balancers?|\balbs?\b|\bnlbs?\b/, ['aws_lb']],
  [/dynamodb/, ['aws_dynamodb_table']],
  [/\bebs\b|\bvolumes?\b/, ['aws_ebs_volume']],
  [/\beks\b/, ['aws_eks_cluster']],
]

const TAG_LIST_STOP = new Set(
  'must should shall need needs have has be are is with the a an and or of for all every each any resource resources required require present set on in to include including key keys named called value values tag tags tagged non-empty nonempty always also both their its on'.split(' '),
)

function isTagKey(word: string): boolean {
  const bare = word.replace(/^["'`]|["'`]$/g, '')
  return /^[A-Za-z0-9_.:/=+@-]+$/.test(bare) && !TAG_LIST_STOP.has(bare.toLowerCase()) && !/^aws_/.test(bare)
}

function tagKeys(text: string): string[] {
  const words = text.split(/[\s,;]+|\s\/\s/).map((word) => word.replace(/^[(:]+|[):.!?]+$/g, ''))
  const found: string[] = []
  const take = (index: number, step: 1 | -1): string[] => {
    const taken: string[] = []
    for (let at = index; at >= 0 && at < words.length; at += step) {
      const word = words[at] ?? ''
      if (/^(and|or|the|a|an|with|named|called|keys?|both)$/i.test(word)) continue
      if (!isTagKey(word)) break
      taken.push(word.replace(/^["'`]|["'`]$/g, ''))
    }
    return taken
  }
  // "tags owner and team" and "owner and team tags": the keys follow or precede the word, in the order written.
  words.forEach((word, index) => {
    if (/^tag(s|ged)?$/i.test(word)) found.push(...take(index - 1, -1).reverse(), ...take(index + 1, 1))
    // "tag every resource with Team": the keys follow a later "with".
    else if (/^with$/i.test(word) && words.slice(0, index).some((before) => /^tag(s|ged)?$/i.test(before))) found.push(...take(index + 1, 1))
  })
  return [...new Set(found)]
}

const requiredTags: RuleTemplate = {
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
  recognize(clause) {
    if (!mentions(clause, TAG_WORDS)) return NONE
    const tags = tagKeys(clause.text)
    const named = clause.text.match(/\baws_[a-z0-9_]+\b/g) ?? []
    const types = [...new Set([...named, ...RESOURCE_WORDS.filter(([words]) => mentions(clause, words)).flatMap(([, mapped]) => mapped)])]
    const parameters: Parameters = { tags }
    if (types.length > 0) parameters.resourceTypes = types
    return { score: tags.length > 0 ? 2 : 1.5, parameters, missing: tags.length > 0 ? [] : ['tags'] }
  },
  rule(parameters) {
    const tags = textList(parameters, 'tags')
    const types = textList(parameters, 'resourceTypes')
    const missing = (resource: string, tag: string): string =>
      `!([${value(resource, 'tags')}.orValue(null), ${value(resource, 'tags_all')}.orValue(null)].exists(m, type(m) == map && ${tag} in m && type(m[${tag}]) == string && m[${tag}] != ''))`
    const judged = `(${value('r', 'tags')}.hasValue() || ${value('r', 'tags_all')}.hasValue())${types.length > 0 ? ` && ${typeOf('r')} in ${celStringList(types)}` : ''}`
    const scope = types.length > 0 ? types.join(', ') : 'resources'
    return planRule({
      name: slug(['terraform-tags', ...tags]),
      description: `Every ${types.length > 0 ? `resource of type ${types.join(', ')}` : 'resource'} whose planned values have a tags attribute (Terraform writes tags: null when unset, so taggable resources always have one) must carry the tags ${tags.join(', ')} with non-empty values, in tags or in tags_all (provider default_tags count).`,
      severity: 'low',
      message: `${scope} must have the tags ${tags.join(', ')}`,
      remediation: `Add ${tags.map((tag) => `"${tag}"`).join(', ')} to the tags of each resource, or to default_tags in the AWS provider block so every resource inherits them.`,
      findings: [
        {
          variable: 'untagged',
          offends: `${judged} && ${celStringList(tags)}.exists(t, ${missing('r', 't')})`,
          message: 'resources missing required tags',
          detail: `' (' + ${celStringList(tags)}.filter(t, ${missing('r', 't')}).join(', ') + ')'`,
        },
      ],
    })
  },
  samples(parameters) {
    const tags = textList(parameters, 'tags')
    const types = textList(parameters, 'resourceTypes')
    const judged = (plan: Json): Json[] => planResources(plan).filter((resource) => types.length === 0 || types.includes(String(resource.type)))
    const tagged = (): Json => Object.fromEntries(tags.map((tag) => [tag, 'sample']))
    const target = (plan: Json): Json => judged(plan)[0] ?? addResource(plan, types[0] ?? 'aws_instance', 'untagged', { tags: tagged() })
    const first = tags[0] ?? 'owner'
    return {
      good: [
        (plan) => {
          for (const resource of judged(plan)) {
            const values = valuesOf(resource)
            values.tags = { ...(typeof values.tags === 'object' && values.tags !== null ? (values.tags as Json) : {}), ...tagged() }
          }
        },
      ],
      bad: [
        {
          description: `a resource without the ${first} tag`,
          edit: (plan) => {
            const values = valuesOf(target(plan))
            const remaining = { ...tagged(), ...(typeof values.tags === 'object' && values.tags !== null ? (values.tags as Json) : {}) }
            delete remaining[first]
            values.tags = remaining
            delete values.tags_all
          },
        },
        {
          description: 'a taggable resource with tags: null',
          edit: (plan) => {
            const values = valuesOf(target(plan))
            values.tags = null
            delete values.tags_all
          },
        },
        {
          description: `a resource whose ${first} tag is empty`,
          edit: (plan) => {
            const values = valuesOf(target(plan))
            values.tags = { ...tagged(), [first]: '' }
            delete values.tags_all
          },
        },
      ],
    }
  },
}

// ---------------------------------------------------------------------------------------------
// EC2 instance types

const INSTANCE_SIZE = String.raw`(?:nano|micro|small|medium|large|\d*xlarge|metal(?:-\d+xl)?|\*)`
const INSTANCE_TYPE = new RegExp(String.raw`(?<![\w.-])([a-z][a-z0-9-]*\d[a-z0-9-]*\.${INSTANCE_SIZE})(?![\w-]|\.\w)`, 'gi')
const INSTANCE_FAMILY = /\b([a-z][a-z0-9-]*\d[a-z0-9-]*)\s+(?:family|families|instances? family)\b/gi

/** A family on its own ("t3 and t4g instances"): letters, a generation digit, options; not ec2 or s3. */
const BARE_FAMILY = /^(?!ec2$|s3$)[a-z]{1,3}\d[a-z0-9-]*$/i

function instanceTypes(text: string): string[] {
  const found = [...text.matchAll(INSTANCE_TYPE)].map((match) => (match[1] ?? '').toLowerCase())
  for (const match of text.matchAll(INSTANCE_FAMILY)) found.push(`${(match[1] ?? '').toLowerCase()}.*`)
  if (found.length === 0 && /\binstances?\b|instance[\s_-]?types?/i.test(text)) {
    for (const word of text.split(/[\s,;]+/)) if (BARE_FAMILY.test(word)) found.push(`${word.toLowerCase()}.*`)
  }
  return [...new Set(found)]
}

/** "t3.*" is a family: every size of t3. */
function typeMatcher(types: readonly string[], subject: string): string {
  const exact = types.filter((type) => !type.endsWith('*'))
  const prefixes = types.filter((type) => type.endsWith('*')).map((type) => type.slice(0, -1))
  const parts = [`${subject} in ${celStringList(exact)}`]
  if (prefixes.length > 0) parts.push(`${celStringList(prefixes)}.exists(p, ${subject}.startsWith(p))`)
  return `(${parts.join(' || ')})`
}

function typeOutside(types: readonly string[]): string {
  const inside = (candidate: string): boolean => types.some((type) => (type.endsWith('*') ? candidate.startsWith(type.slice(0, -1)) : candidate === type))
  return ['x1e.32xlarge', 'p4d.24xlarge', 'm5.large', 't2.nano'].find((candidate) => !inside(candidate)) ?? 'z9.metal'
}

function typeInside(types: readonly string[]): string {
  const first = types[0] ?? 't3.micro'
  return first.endsWith('*') ? `${first.slice(0, -1)}micro` : first
}

const instanceTypesTemplate: RuleTemplate = {
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
  recognize(clause) {
    if (!mentions(clause, /\bec2\b|\binstances?\b|aws_instance|launch templates?|instance[\s_-]?types?/)) return NONE
    if (mentions(clause, /\brds\b|\bdb\b|database|aurora/) || mentions(clause, TAG_WORDS)) return NONE
    // "no instance larger than t3.large" compares sizes: an allowlist of t3.large would misread it.
    if (mentions(clause, /\b(larger|bigger|smaller|greater|more|less|above|below|over|under|up to|at most|at least|maximum|minimum)\b/)) return NONE
    const types = instanceTypes(clause.text)
    if (types.length === 0) {
      return mentions(clause, /instance[\s_-]?types?|instance sizes?/) ? { score: 1.5, parameters: {}, missing: ['instanceTypes'] } : NONE
    }
    const deny = clause.negated && !mentions(clause, /\b(only|other than|except|anything but|besides)\b/)
    return { score: 2, parameters: deny ? { instanceTypes: types, deny: true } : { instanceTypes: types }, missing: [] }
  },
  rule(parameters) {
    const types = textList(parameters, 'instanceTypes')
    const deny = flag(parameters, 'deny')
    const instanceType = stringOf(value('r', 'instance_type'))
    const matched = typeMatcher(types, instanceType)
    const offending = deny ? matched : `!${matched}`
    const offends = [
      // An instance launched from a launch template takes its type from there: that template is judged instead.
      `(${typeOf('r')} == 'aws_instance' && !(${instanceType} == '' && size(${listOf(value('r', 'launch_template'))}) > 0) && ${offending})`,
      `(${typeOf('r')} == 'aws_launch_template' && ${instanceType} != '' && ${offending})`,
    ].join(' || ')
    const listed = types.join(', ')
    return planRule({
      name: slug(['ec2-instance-types', deny ? 'not' : 'only', ...types.map((type) => type.replace('*', 'all'))]),
      description: deny
        ? `EC2 instances and launch templates must not use ${listed}.`
        : `EC2 instances (and launch templates that set one) must use one of ${listed}; an aws_instance without a known instance_type and without a launch template fails.`,
      severity: 'medium',
      message: deny ? `EC2 instance types ${listed} are not allowed` : `EC2 instances must use ${listed}`,
      remediation: deny ? `Change instance_type away from ${listed}.` : `Set instance_type to one of ${listed} on aws_instance and aws_launch_template.`,
      findings: [{ variable: 'wrong_type', offends, message: deny ? 'forbidden instance types' : 'instance types not allowed', detail: `' (' + ${instanceType} + ')'` }],
    })
  },
  samples(parameters) {
    const types = textList(parameters, 'instanceTypes')
    const deny = flag(parameters, 'deny')
    const goodType = deny ? typeOutside(types) : typeInside(types)
    const badType = deny ? typeInside(types) : typeOutside(types)
    return {
      good: [(plan) => void resourcesOfType(plan, ['aws_instance', 'aws_launch_template']).forEach((resource) => (valuesOf(resource).instance_type = goodType))],
      bad: [
        { description: `an instance of type ${badType}`, edit: (plan) => void (valuesOf(firstOrNew(plan, ['aws_instance'], 'large')).instance_type = badType) },
        { description: `a launch template of type ${badType}`, edit: (plan) => void addResource(plan, 'aws_launch_template', 'large', { instance_type: badType }) },
      ],
    }
  },
}

// ---------------------------------------------------------------------------------------------
// RDS

type RdsCheck = 'storage-encrypted' | 'not-public'

const rds: RuleTemplate = {
  id: 'terraform-rds-protection',
  title: 'RDS databases encrypted and not publicly accessible',
  platform: 'terraform',
  category: 'terraform',
  kinds: ['aws_db_instance', 'aws_rds_cluster', 'aws_rds_cluster_instance'],
  phrasings: ['RDS instances must be encrypted', 'databases must not be publicly accessible', 'RDS storage must be encrypted and not public', 'db instances must be secure'],
  parameters: [{ name: 'checks', question: 'what must hold for RDS: storage-encrypted, not-public, or both?', required: true, example: ['storage-encrypted', 'not-public'] }],
  recognize(clause) {
    if (!mentions(clause, /\brds\b|\bdb instances?\b|database instances?|\bdatabases?\b|aws_db_instance|aws_rds_cluster|aurora/)) return NONE
    const checks: RdsCheck[] = []
    if (mentions(clause, ENCRYPTION_WORDS)) checks.push('storage-encrypted')
    if (mentions(clause, /\bpublic|internet|exposed|reachable|\bprivate\b/)) checks.push('not-public')
    if (checks.length === 0) {
      if (!mentions(clause, SECURE_WORDS) || mentions(clause, TAG_WORDS)) return NONE
      checks.push('storage-encrypted', 'not-public')
    }
    return { score: 2, parameters: { checks }, missing: [] }
  },
  rule(parameters) {
    const checks = textList(parameters, 'checks')
    const findings: Finding[] = []
    const said: string[] = []
    const remediation: string[] = []
    if (checks.includes('storage-encrypted')) {
      // A read replica inherits encryption from its source: unknown at plan time, not unencrypted.
      const replica = `(${typeOf('r')} == 'aws_db_instance' && ${stringOf(value('r', 'replicate_source_db'))} != '' && ${value('r', 'storage_encrypted')}.orValue(null) == null)`
      findings.push({
        variable: 'unencrypted_databases',
        offends: `${typeOf('r')} in ['aws_db_instance', 'aws_rds_cluster'] && ${value('r', 'storage_encrypted')}.orValue(null) != true && !${replica}`,
        message: 'databases without storage_encrypted = true',
      })
      said.push('encrypted')
      remediation.push('Set storage_encrypted = true (and optionally kms_key_id) on aws_db_instance and aws_rds_cluster; an existing unencrypted database must be restored from an encrypted snapshot copy.')
    }
    if (checks.includes('not-public')) {
      findings.push({
        variable: 'public_databases',
        offends: `${typeOf('r')} in ['aws_db_instance', 'aws_rds_cluster_instance'] && ${value('r', 'publicly_accessible')}.orValue(null) == true`,
        message: 'databases with publicly_accessible = true',
      })
      said.push('not publicly accessible')
      remediation.push('Set publicly_accessible = false (the default) on aws_db_instance and aws_rds_cluster_instance and reach the database from inside the VPC.')
    }
    return planRule({
      name: slug(['rds', ...said.flatMap((words) => words.split(' '))]),
      description: `RDS databases must be ${said.join(' and ')}. storage_encrypted is judged on aws_db_instance and aws_rds_cluster (missing fails, except on read replicas, which inherit it); publicly_accessible on aws_db_instance and aws_rds_cluster_instance (missing passes: the default is false).`,
      severity: 'high',
      message: `RDS databases must be ${said.join(' and ')}`,
      remediation: remediation.join(' '),
      findings,
    })
  },
  samples(parameters) {
    const checks = textList(parameters, 'checks')
    const good: TemplateSamples['good'] = []
    const bad: TemplateSamples['bad'] = []
    if (checks.includes('storage-encrypted')) {
      good.push((plan) => void resourcesOfType(plan, ['aws_db_instance', 'aws_rds_cluster']).forEach((resource) => (valuesOf(resource).storage_encrypted = true)))
      bad.push({ description: 'a database with storage_encrypted = false', edit: (plan) => void (valuesOf(firstOrNew(plan, ['aws_db_instance'], 'plain')).storage_encrypted = false) })
      bad.push({ description: 'a database without storage_encrypted', edit: (plan) => void delete valuesOf(firstOrNew(plan, ['aws_db_instance'], 'plain')).storage_encrypted })
    }
    if (checks.includes('not-public')) {
      good.push((plan) => void resourcesOfType(plan, ['aws_db_instance', 'aws_rds_cluster_instance']).forEach((resource) => (valuesOf(resource).publicly_accessible = false)))
      bad.push({ description: 'a database with publicly_accessible = true', edit: (plan) => void (valuesOf(firstOrNew(plan, ['aws_db_instance'], 'public')).publicly_accessible = true) })
    }
    return { good, bad }
  },
}

export const TERRAFORM_TEMPLATES: readonly RuleTemplate[] = [s3Buckets, securityGroups, requiredTags, instanceTypesTemplate, rds]
