import type { Rule, Severity } from '../../../engine/index.js'
import { terraformDocumentCondition, terraformResourceVariables } from '../../documents/terraform-resources.js'
import { mapIn, planResources } from '../../samples/document-parts.js'
import { mentions, type Clause } from '../../text/clause.js'
import { portRanges } from '../../text/extract.js'
import { holds } from '../entry-template.js'
import type { JsonValue, ValueTest } from '../named-requirement.js'
import { celString, celStringList } from '../pod-rule.js'
import { ruleNameFrom } from '../rule-name.js'
import type { Options, Values, Vocabulary } from '../vocabulary.js'
import { optionText as text } from '../vocabulary.js'

/**
 * The pieces Terraform entries (entries/terraform.ts) name: rules on documents as `terraform show
 * -json` writes them, readers of what authors call resources, ports and tags, and places in a
 * sample plan.
 *
 * A plan rule judges every managed resource of its types, in the root module and in child modules
 * (see documents/terraform-resources.ts), and names the failing ones by `address`: a whole plan,
 * one planned_values resource, or one resource_changes entry (judged on `change.after`; deleted
 * resources skipped). Documents that are not Terraform documents are skipped, not passed.
 */

type Json = Record<string, unknown>

// ---------------------------------------------------------------------------------------------
// CEL over plans

/** An attribute as a list: plans write null for unset blocks, and a block list is what `.exists` needs. */
function listOf(optional: string): string {
  return `(type(${optional}.orValue(null)) == list ? ${optional}.orValue([]) : [])`
}

/** An attribute as a string; `fallback` is a CEL string literal. */
function stringOf(optional: string, fallback = "''"): string {
  return `(type(${optional}.orValue(null)) == string ? ${optional}.orValue('') : ${fallback})`
}

function numberOf(optional: string, fallback: number): string {
  return `(type(${optional}.orValue(null)) in [int, uint, double] ? int(${optional}.orValue(0)) : ${fallback})`
}

const addressOf = (resource: string): string => stringOf(`${resource}.?address`, celString('unknown address'))

/**
 * Shorthands a plan rule's CEL may use (`$name(arguments)`), for values a plan writes loosely:
 * - `$string(x)`, `$string(x, 'fallback')`: the optional `x` as a string, '' (or the fallback) when unset or not a string;
 * - `$list(x)`: the optional `x` as a list, [] when unset or not a list (plans write null for unset blocks);
 * - `$type(r)`: a resource's type as a string;
 * - `$base(r)`: a resource's address without its count/for_each index, which is what
 *   configuration references name.
 */
const SHORTHANDS: Record<string, (argument: string, fallback?: string) => string> = {
  string: (argument, fallback) => stringOf(argument, fallback),
  list: (argument) => listOf(argument),
  type: (argument) => stringOf(`${argument}.?type`),
  base: (argument) => `${addressOf(argument)}.find('^[^\\\\[]*')`,
}

/** CEL with its shorthands expanded; string literals are left as written. */
export function expandPlanCel(cel: string): string {
  let out = ''
  let at = 0
  while (at < cel.length) {
    const char = cel[at] ?? ''
    if (char === "'" || char === '"') {
      const end = literalEnd(cel, at)
      out += cel.slice(at, end)
      at = end
      continue
    }
    const shorthand = /^\$([a-z]+)\(/.exec(cel.slice(at))
    if (!shorthand) {
      out += char
      at += 1
      continue
    }
    const expand = SHORTHANDS[shorthand[1] ?? '']
    if (!expand) throw new Error(`unknown CEL shorthand $${shorthand[1]} in a plan rule`)
    const start = at + shorthand[0].length
    const [argumentsText, end] = argumentsUntilClose(cel, start)
    const [argument = '', fallback] = argumentsText.map((each) => expandPlanCel(each.trim()))
    out += expand(argument, fallback)
    at = end + 1
  }
  return out
}

/** Where the string literal starting at `start` ends (after its closing quote). */
function literalEnd(cel: string, start: number): number {
  const quote = cel[start]
  let at = start + 1
  while (at < cel.length && cel[at] !== quote) at += cel[at] === '\\' ? 2 : 1
  return at + 1
}

/** The top-level comma-separated arguments from `start` to the closing parenthesis, and its index. */
function argumentsUntilClose(cel: string, start: number): [string[], number] {
  const parts: string[] = []
  let depth = 0
  let from = start
  let at = start
  while (at < cel.length) {
    const char = cel[at]
    if (char === "'" || char === '"') {
      at = literalEnd(cel, at)
      continue
    }
    if (char === '(' || char === '[' || char === '{') depth += 1
    else if (char === ')' || char === ']' || char === '}') {
      if (depth === 0) {
        parts.push(cel.slice(from, at))
        return [parts, at]
      }
      depth -= 1
    } else if (char === ',' && depth === 0) {
      parts.push(cel.slice(from, at))
      from = at + 1
    }
    at += 1
  }
  throw new Error(`an unclosed CEL shorthand in a plan rule: ${cel.slice(start - 10, start + 40)}`)
}

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
  variables: Array<{ name: string; expression: string }>
}

/** One validation over every finding, so the message lists every offending resource at once. */
function planRule(options: PlanRuleOptions): Rule {
  const variables = [
    // Resources wherever `terraform show -json` puts them: one resource, a resource_changes entry, or a whole plan.
    ...terraformResourceVariables([]),
    ...options.variables,
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

// -- reading an entry's options

function optionalText(options: Options, name: string): string | undefined {
  const value = options[name]
  return typeof value === 'string' ? value : undefined
}

function objects(value: JsonValue | undefined): Options[] {
  return Array.isArray(value) ? (value as readonly JsonValue[]).filter((item): item is Options => item !== null && typeof item === 'object' && !Array.isArray(item)) : []
}

/** Words of a name: strings and numbers, lists (a placeholder's) flattened. */
function nameWords(value: JsonValue | undefined): string[] {
  if (Array.isArray(value)) return (value as readonly JsonValue[]).flatMap(nameWords)
  return typeof value === 'string' || typeof value === 'number' ? [String(value)] : []
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? (value as readonly JsonValue[]).map(String) : []
}

// ---------------------------------------------------------------------------------------------
// Readers

/** Ports authors name by their service. */
const NAMED_PORTS: Record<string, string> = { ssh: '22', rdp: '3389', telnet: '23', ftp: '21', smb: '445', mysql: '3306', postgres: '5432', postgresql: '5432', mssql: '1433', redis: '6379', mongodb: '27017', http: '80', https: '443' }

/** Ports ("22", "8000-8080") after the word "port", and services named by their port ("ssh"). */
function portsFrom(clause: Clause): string[] {
  const found: string[] = []
  const clauseText = clause.text
  const portWord = /\bports?\b/i.exec(clauseText)
  if (portWord) {
    for (const [from, to] of portRanges(clauseText.slice(portWord.index))) found.push(from === to ? String(from) : `${from}-${to}`)
  }
  for (const [name, port] of Object.entries(NAMED_PORTS)) if (mentions(clause, name)) found.push(port)
  return [...new Set(found)]
}

const INSTANCE_SIZE = String.raw`(?:nano|micro|small|medium|large|\d*xlarge|metal(?:-\d+xl)?|\*)`
const INSTANCE_TYPE = new RegExp(String.raw`(?<![\w.-])([a-z][a-z0-9-]*\d[a-z0-9-]*\.${INSTANCE_SIZE})(?![\w-]|\.\w)`, 'gi')
const INSTANCE_FAMILY = /\b([a-z][a-z0-9-]*\d[a-z0-9-]*)\s+(?:family|families|instances? family)\b/gi

/** A family on its own ("t3 and t4g instances"): letters, a generation digit, options; not ec2 or s3. */
const BARE_FAMILY = /^(?!ec2$|s3$)[a-z]{1,3}\d[a-z0-9-]*$/i

/** EC2 instance types ("t3.micro") and families ("t3 family", "t3.*"), a family written `t3.*`. */
function instanceTypes(clauseText: string): string[] {
  const found = [...clauseText.matchAll(INSTANCE_TYPE)].map((match) => (match[1] ?? '').toLowerCase())
  for (const match of clauseText.matchAll(INSTANCE_FAMILY)) found.push(`${(match[1] ?? '').toLowerCase()}.*`)
  if (found.length === 0 && /\binstances?\b|instance[\s_-]?types?/i.test(clauseText)) {
    for (const word of clauseText.split(/[\s,;]+/)) if (BARE_FAMILY.test(word)) found.push(`${word.toLowerCase()}.*`)
  }
  return [...new Set(found)]
}

const TAG_LIST_STOP = new Set(
  'must should shall need needs have has be are is with the a an and or of for all every each any resource resources required require present set on in to include including key keys named called value values tag tags tagged non-empty nonempty always also both their its on'.split(' '),
)

function isTagKey(word: string): boolean {
  const bare = word.replace(/^["'`]|["'`]$/g, '')
  return /^[A-Za-z0-9_.:/=+@-]+$/.test(bare) && !TAG_LIST_STOP.has(bare.toLowerCase()) && !/^aws_/.test(bare)
}

/** Tag keys around the word "tag(s)", in the order written. */
function tagKeys(clauseText: string): string[] {
  const found: string[] = []
  const split = clauseText.split(/[\s,;]+|\s\/\s/).map((word) => word.replace(/^[(:]+|[):.!?]+$/g, ''))
  const take = (index: number, step: 1 | -1): string[] => {
    const taken: string[] = []
    for (let at = index; at >= 0 && at < split.length; at += step) {
      const word = split[at] ?? ''
      if (/^(and|or|the|a|an|with|named|called|keys?|both)$/i.test(word)) continue
      if (!isTagKey(word)) break
      taken.push(word.replace(/^["'`]|["'`]$/g, ''))
    }
    return taken
  }
  // "tags owner and team" and "owner and team tags": the keys follow or precede the word, in the order written.
  split.forEach((word, index) => {
    if (/^tag(s|ged)?$/i.test(word)) found.push(...take(index - 1, -1).reverse(), ...take(index + 1, 1))
    // "tag every resource with Team": the keys follow a later "with".
    else if (/^with$/i.test(word) && split.slice(0, index).some((before) => /^tag(s|ged)?$/i.test(before))) found.push(...take(index + 1, 1))
  })
  return [...new Set(found)]
}

const nonEmpty = (found: string[]): string[] | undefined => (found.length > 0 ? found : undefined)

// ---------------------------------------------------------------------------------------------
// Values computed from parameters

/** `[from, to]` pairs from "22", "8000-8080"; numbers stay numbers in parameters when they can. */
function portList(parameters: Values, name: string): Array<[number, number]> {
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

const ALL_PROTOCOLS = ['-1', 'all']
const PORT_PROTOCOLS = ['tcp', 'udp', '6', '17', 'sctp', '132']

/**
 * Over an ingress rule `block` (a security group's ingress block, or a rule resource's values):
 * open to the world, and on the ports the rule is about.
 */
function exposes(block: string, style: 'block' | 'vpc', ports: ReadonlyArray<[number, number]>, allowed: ReadonlyArray<[number, number]>): string {
  const sources =
    style === 'vpc' ? `[${block}.?cidr_ipv4.orValue(null), ${block}.?cidr_ipv6.orValue(null)]` : `(${listOf(`${block}.?cidr_blocks`)} + ${listOf(`${block}.?ipv6_cidr_blocks`)})`
  const world = `${sources}.exists(c, type(c) == string && c.endsWith('/0'))`
  const protocol = `${stringOf(`${block}.?${style === 'vpc' ? 'ip_protocol' : 'protocol'}`, celString('-1'))}.lowerAscii()`
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

/** An ingress block of a sample security group. */
function ingressBlock(port: number, cidrs: string[]): Json {
  return { from_port: port, to_port: port, protocol: 'tcp', cidr_blocks: cidrs, ipv6_cidr_blocks: [], description: 'sample', prefix_list_ids: [], security_groups: [], self: false }
}

function textList(parameters: Values, name: string): string[] {
  const found = parameters[name]
  if (typeof found === 'string') return [found]
  return Array.isArray(found) ? found.map(String) : []
}

// ---------------------------------------------------------------------------------------------
// Samples

function resourcesOfType(plan: Json, types: readonly string[]): Json[] {
  return planResources(plan).filter((resource) => types.length === 0 || types.includes(String(resource.type)))
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

function objectOption(options: Options, name: string): Json {
  const value = options[name]
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (structuredClone(value) as Json) : {}
}

/** The values of the first resource of the types (any type when none), or of a new one of the first type. */
function firstResource(plan: Json, options: Options): Json {
  const types = strings(options.types)
  const found = resourcesOfType(plan, types)[0] ?? addResource(plan, types[0] ?? 'aws_instance', text(options, 'name'), objectOption(options, 'values'))
  return valuesOf(found)
}

function bucketName(resource: Json): string {
  const values = valuesOf(resource)
  if (typeof values.bucket !== 'string' || values.bucket === '') values.bucket = `${String(resource.name ?? 'sample')}-bucket`
  return values.bucket as string
}

// ---------------------------------------------------------------------------------------------

export const TERRAFORM_VOCABULARY: Vocabulary = {
  words: {
    'terraform-encryption': /encrypt|\bsse\b|\bkms\b|server[\s-]side/,
    /** "Secure buckets" asks for every check the requirement has. */
    'terraform-secure': /\b(secure|secured|hardened|locked down|compliant|safe)\b/,
    'terraform-tags': /\btag(s|ged|ging)?\b/,
  },
  readers: {
    'network-ports': (clause) => nonEmpty(portsFrom(clause)),
    'instance-types': (clause) => nonEmpty(instanceTypes(clause.text)),
    /** An empty list when the clause names none (entries mark it `emptyIsMissing`). */
    'tag-keys': (clause) => tagKeys(clause.text),
    /** Every match of `re` in the clause as written ("aws_instance"). */
    'text-matches': (clause, options) => nonEmpty(clause.text.match(new RegExp(text(options, 're'), 'g')) ?? []),
  },
  values: {
    /**
     * For rules on security groups' ingress from the whole internet: `scope` (" on port 22",
     * " on ports other than 80, 443", or nothing), `closing` (what to close, for the remediation),
     * `name-ports`, the CEL tests `group-exposed` (over an ingress block `b`), `rule-exposed` and
     * `vpc-exposed` (over a rule resource `r`), and for samples `bad-port` (one the rule rejects)
     * and `good-ingress` (a compliant ingress list that opens to the world a port the rule allows).
     */
    'open-ingress': (parameters) => {
      const ports = portList(parameters, 'ports')
      const allowed = portList(parameters, 'allowedPorts')
      const scope = allowed.length > 0 ? ` on ports other than ${portText(allowed).join(', ')}` : ports.length > 0 ? ` on port ${portText(ports).join(', ')}` : ''
      const inside = (port: number, ranges: ReadonlyArray<[number, number]>): boolean => ranges.some(([from, to]) => from <= port && port <= to)
      // A port the rule lets the world reach, to show it is judged precisely: an allowed one, or one not listed.
      const openPort = allowed[0]?.[0] ?? (ports.length > 0 ? [443, 8443, 80, 8080, 9443].find((port) => !inside(port, ports)) : undefined)
      const badPort = allowed.length > 0 ? ([22, 3389, 8080, 1].find((port) => !inside(port, allowed)) ?? 0) : (ports[0]?.[0] ?? 22)
      return {
        scope,
        closing: scope ? `${scope}, or close those ports` : '',
        'name-ports': allowed.length > 0 ? ['except', ...portText(allowed)] : portText(ports),
        'group-exposed': exposes('b', 'block', ports, allowed),
        'rule-exposed': exposes('r.?values.orValue({})', 'block', ports, allowed),
        'vpc-exposed': exposes('r.?values.orValue({})', 'vpc', ports, allowed),
        'bad-port': badPort,
        'good-ingress': [ingressBlock(443, ['10.0.0.0/8']), ...(openPort !== undefined ? [ingressBlock(openPort, ['0.0.0.0/0'])] : [])] as JsonValue,
      }
    },
    /**
     * For a list parameter (`parameter`) of values where `x*` is every value starting with x (the
     * t3.* family), allowed or, when the flag `deny` names is on, forbidden: `matched`, the CEL
     * test that `subject` is listed; `name-values` (`*` read "all"); `good-value` and `bad-value`
     * for samples: the first listed (a family completed with `family-example`), or the first
     * `outside` candidate no listed value takes (else `fallback`).
     */
    'listed-patterns': (parameters, options) => {
      const listed = textList(parameters, text(options, 'parameter'))
      const deny = parameters[text(options, 'deny')] === true
      const subject = text(options, 'subject')
      const exact = listed.filter((value) => !value.endsWith('*'))
      const prefixes = listed.filter((value) => value.endsWith('*')).map((value) => value.slice(0, -1))
      const parts = [`${subject} in ${celStringList(exact)}`]
      if (prefixes.length > 0) parts.push(`${celStringList(prefixes)}.exists(p, ${subject}.startsWith(p))`)
      const takes = (candidate: string): boolean => listed.some((value) => (value.endsWith('*') ? candidate.startsWith(value.slice(0, -1)) : candidate === value))
      const outside = strings(options.outside).find((candidate) => !takes(candidate)) ?? text(options, 'fallback')
      const first = listed[0] ?? text(options, 'default')
      const inside = first.endsWith('*') ? `${first.slice(0, -1)}${text(options, 'family-example')}` : first
      return {
        listed,
        matched: `(${parts.join(' || ')})`,
        'name-values': listed.map((value) => value.replace('*', 'all')),
        'good-value': deny ? outside : inside,
        'bad-value': deny ? inside : outside,
      }
    },
    /**
     * For rules on required tags: `tags`, `tag-list` (a CEL list of them), `resources` (what the
     * rule judges: "resource", "resource of type aws_instance"), `scope` (its message's subject),
     * `of-types` (a CEL condition on `r`'s type, or nothing), `quoted` tags, and for samples
     * `types`, `first` (the tag a bad sample drops), `tagged` (every tag set to "sample") and
     * `first-empty` (the same, the first tag empty).
     */
    'required-tags': (parameters) => {
      const tags = textList(parameters, 'tags')
      const types = textList(parameters, 'resourceTypes')
      const first = tags[0] ?? 'owner'
      const tagged = Object.fromEntries(tags.map((tag) => [tag, 'sample']))
      return {
        tags,
        'tag-list': celStringList(tags),
        resources: types.length > 0 ? `resource of type ${types.join(', ')}` : 'resource',
        scope: types.length > 0 ? types.join(', ') : 'resources',
        'of-types': types.length > 0 ? ` && $type(r) in ${celStringList(types)}` : '',
        quoted: tags.map((tag) => `"${tag}"`),
        types,
        first,
        tagged,
        'first-empty': { ...tagged, [first]: '' },
      }
    },
  },
  rules: {
    /**
     * A rule over a plan's resources. The entry gives its `name` (first words), `severity`,
     * `description`, `message` and, or else its parts do, `remediation`. Each of the `parts`
     * whose `when` holds adds `findings` (a CEL `offends` over a resource `r`, its message, an
     * optional `detail` after each address), the `variables` they use, the name's next words
     * (`name`), a sentence appended to the description, a remediation, a severity replacing the
     * entry's. CEL may use the shorthands of expandPlanCel. Words the description and message say
     * of the parts are the entry's values (`{{said|and}}`, made by `items`).
     */
    'plan-rule': (parameters, options) => {
      const parts = objects(options.parts).filter((part) => part.when === undefined || holds(part.when as ValueTest, parameters as Values))
      const name = [...nameWords(options.name), ...parts.flatMap((part) => nameWords(part.name))]
      const severity = parts.reduce((found, part) => optionalText(part, 'severity') ?? found, text(options, 'severity'))
      return planRule({
        name: ruleNameFrom(name, 'terraform-rule'),
        description: text(options, 'description') + parts.map((part) => optionalText(part, 'description') ?? '').join(''),
        severity: severity as Severity,
        message: text(options, 'message'),
        remediation: optionalText(options, 'remediation') ?? parts.flatMap((part) => optionalText(part, 'remediation') ?? []).join(' '),
        variables: parts.flatMap((part) => objects(part.variables).map((variable) => ({ name: text(variable, 'name'), expression: expandPlanCel(text(variable, 'expression')) }))),
        findings: parts.flatMap((part) =>
          objects(part.findings).map((finding) => {
            const detail = optionalText(finding, 'detail')
            return { variable: text(finding, 'variable'), offends: expandPlanCel(text(finding, 'offends')), message: text(finding, 'message'), ...(detail !== undefined ? { detail: expandPlanCel(detail) } : {}) }
          }),
        ),
      })
    },
  },
  places: {
    /** The values of every planned resource of the `types` (of every resource when none). */
    resources: (plan, options) => resourcesOfType(plan, strings(options.types)).map(valuesOf),
    /** The values of the first resource of the `types`, or of a new one (`name`, `values`) of the first type. */
    'first-resource': firstResource,
    /** The values of a new resource (`type`, `name`, `values`) in the root module. */
    'new-resource': (plan, options) => valuesOf(addResource(plan, text(options, 'type'), text(options, 'name'), objectOption(options, 'values'))),
    /** The values of every S3 bucket, its `bucket` name set when the plan does not know it. */
    'named-buckets': (plan) =>
      resourcesOfType(plan, ['aws_s3_bucket']).map((bucket) => {
        bucketName(bucket)
        return valuesOf(bucket)
      }),
  },
  edits: {
    /** A resource of `type` (with `values`) for every bucket no such resource names: a companion such as its public access block. */
    'bucket-companions': (_parameters, options) => (plan) => {
      const type = text(options, 'type')
      const named = new Set(resourcesOfType(plan, [type]).map((companion) => valuesOf(companion).bucket))
      for (const bucket of resourcesOfType(plan, ['aws_s3_bucket'])) {
        const name = bucketName(bucket)
        if (!named.has(name)) addResource(plan, type, `${String(bucket.name)}${text(options, 'suffix')}`, { bucket: name, ...objectOption(options, 'values') })
      }
    },
    /**
     * The first resource of `types` (a new one with the `tags` when none) with every tag of `tags`
     * it lacks, but without `without`, and without tags_all: it lacks one required tag.
     */
    'drop-tag': (_parameters, options) => (plan) => {
      const values = firstResource(plan, { types: options.types ?? [], name: text(options, 'name'), values: { tags: options.tags ?? {} } })
      const remaining = { ...objectOption(options, 'tags'), ...(typeof values.tags === 'object' && values.tags !== null ? (values.tags as Json) : {}) }
      delete remaining[text(options, 'without')]
      values.tags = remaining
      delete values.tags_all
    },
  },
}
