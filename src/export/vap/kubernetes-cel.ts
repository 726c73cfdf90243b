import { callParts, identifierName, parseCel, selectParts, visitCel, type CelAstNode } from './cel-syntax.js'

/**
 * What the Kubernetes API server's CEL environment offers a ValidatingAdmissionPolicy, per the
 * apiserver's base environment (k8s.io/apiserver/pkg/cel/environment/base.go): standard CEL, the
 * strings extension (version 2), sets, optionals, two-variable comprehensions, and the Kubernetes
 * libraries for lists, regular expressions, URLs, quantities, IP addresses and CIDRs, semver.
 * Verdict offers more (Kyverno's and cel-go's other extensions); an expression that uses any of
 * that cannot run in the API server, so the rule is refused, naming the function.
 *
 * Each entry is the Kubernetes minor version that introduced it (1.30 for everything the first
 * admissionregistration.k8s.io/v1 API server already had).
 */
const BASE = 30

/** Functions called without a receiver: `size(x)`, `quantity('1Gi')`. */
const GLOBAL_FUNCTIONS: Readonly<Record<string, number>> = {
  size: BASE,
  int: BASE,
  uint: BASE,
  double: BASE,
  string: BASE,
  bytes: BASE,
  bool: BASE,
  dyn: BASE,
  type: BASE,
  duration: BASE,
  timestamp: BASE,
  matches: BASE,
  has: BASE,
  url: BASE,
  isURL: BASE,
  quantity: BASE,
  isQuantity: BASE,
  ip: BASE,
  isIP: BASE,
  cidr: BASE,
  isCIDR: BASE,
  semver: 33,
  isSemver: 33,
}

/** Functions of a library namespace: `sets.contains(a, b)`. */
const NAMESPACED_FUNCTIONS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  sets: { contains: BASE, equivalent: BASE, intersects: BASE },
  strings: { quote: BASE },
  optional: { of: BASE, ofNonZeroValue: BASE, none: BASE },
  ip: { isCanonical: BASE },
}

/** Functions called on a value: `s.startsWith('a')`, `q.isGreaterThan(other)`. */
const MEMBER_FUNCTIONS: Readonly<Record<string, number>> = {
  // standard
  contains: BASE,
  startsWith: BASE,
  endsWith: BASE,
  matches: BASE,
  size: BASE,
  getDate: BASE,
  getDayOfMonth: BASE,
  getDayOfWeek: BASE,
  getDayOfYear: BASE,
  getFullYear: BASE,
  getHours: BASE,
  getMilliseconds: BASE,
  getMinutes: BASE,
  getMonth: BASE,
  getSeconds: BASE,
  // standard macros (the two-variable forms are checked apart)
  all: BASE,
  exists: BASE,
  exists_one: BASE,
  map: BASE,
  filter: BASE,
  // strings extension, version 2
  charAt: BASE,
  indexOf: BASE,
  lastIndexOf: BASE,
  lowerAscii: BASE,
  upperAscii: BASE,
  replace: BASE,
  split: BASE,
  substring: BASE,
  trim: BASE,
  join: BASE,
  format: BASE,
  // Kubernetes lists
  isSorted: BASE,
  sum: BASE,
  min: BASE,
  max: BASE,
  // Kubernetes regex
  find: BASE,
  findAll: BASE,
  // Kubernetes URLs
  getScheme: BASE,
  getHost: BASE,
  getHostname: BASE,
  getPort: BASE,
  getEscapedPath: BASE,
  getQuery: BASE,
  // Kubernetes quantity (isGreaterThan, isLessThan and compareTo serve semver too)
  sign: BASE,
  isGreaterThan: BASE,
  isLessThan: BASE,
  compareTo: BASE,
  asApproximateFloat: BASE,
  isInteger: BASE,
  asInteger: BASE,
  add: BASE,
  sub: BASE,
  // Kubernetes IP and CIDR
  family: BASE,
  isUnspecified: BASE,
  isLoopback: BASE,
  isLinkLocalMulticast: BASE,
  isLinkLocalUnicast: BASE,
  isGlobalUnicast: BASE,
  containsIP: BASE,
  containsCIDR: BASE,
  ip: BASE,
  masked: BASE,
  prefixLength: BASE,
  // Kubernetes semver
  major: 33,
  minor: 33,
  patch: 33,
  // optionals
  hasValue: BASE,
  value: BASE,
  or: BASE,
  orValue: BASE,
  optMap: BASE,
  optFlatMap: BASE,
  // two-variable comprehensions
  existsOne: 32,
  transformList: 32,
  transformMap: 32,
  transformMapEntry: 32,
}

/** all/exists/exists_one with two iteration variables came with the two-variable comprehensions. */
const TWO_VARIABLE_FORMS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one'])

/** Variables a ValidatingAdmissionPolicy expression may read, and type names it may write. */
const KUBERNETES_IDENTIFIERS: ReadonlySet<string> = new Set([
  'object',
  'oldObject',
  'request',
  'params',
  'namespaceObject',
  'variables',
  'authorizer',
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'list',
  'map',
  'null_type',
  'type',
])

/** Identifiers Verdict knows that the API server does not: Kyverno's cluster data. */
const VERDICT_ONLY_IDENTIFIERS: Readonly<Record<string, string>> = {
  resource: "Kyverno's resource library (cluster data)",
  image: "Kyverno's image library (registry data)",
}

/**
 * The request fields Verdict fills (see engine/evaluate/prepared-input.ts); the API server fills
 * more (resource, requestKind, options, an empty subResource...). Where Verdict has no field its
 * expression errors and the API server's would not, so reading any other field is refused.
 */
const REQUEST_FIELDS: ReadonlySet<string> = new Set(['uid', 'kind', 'name', 'namespace', 'operation', 'userInfo', 'dryRun'])

export interface KubernetesCelCheck {
  /** Why the API server could not run the expression as Verdict does; absent when it can. */
  problem?: string
  /** The Kubernetes minor version (1.x) whose API server has everything the expression uses. */
  minimumMinor: number
}

/**
 * Whether an expression runs in the API server exactly as in Verdict: only functions and variables
 * the API server has, only request fields Verdict fills too, and no list or map literal mixing
 * element types (Verdict accepts `[1, 'a']`, the API server refuses the policy).
 */
export function checkKubernetesCel(source: string): KubernetesCelCheck {
  const root = parseCel(source)
  if (!root) return { problem: 'does not parse', minimumMinor: BASE }
  let minimumMinor = BASE
  let problem: string | undefined
  const need = (minor: number): void => {
    minimumMinor = Math.max(minimumMinor, minor)
  }
  visitCel(root, ({ node, ancestors, bound }) => {
    if (problem !== undefined) return
    const name = identifierName(node)
    if (name !== undefined) {
      const parent = ancestors[0]
      // The receiver of a namespaced call (`sets.contains`) is a namespace, not a variable.
      if (parent && isNamespaceReceiver(parent, node)) return
      if (bound.has(name) || KUBERNETES_IDENTIFIERS.has(name)) {
        if (name === 'request' && !bound.has(name)) problem = requestProblem(parent)
        return
      }
      const only = VERDICT_ONLY_IDENTIFIERS[name]
      problem = only ? `uses \`${name}\`, ${only}, which the Kubernetes API server does not have` : `reads \`${name}\`, which the Kubernetes API server does not define`
      return
    }
    const call = callParts(node)
    if (call) {
      problem = callProblem(call, need)
      return
    }
    if (node.op === 'list' || node.op === 'map') problem = literalProblem(node, ancestors[0])
  })
  return problem === undefined ? { minimumMinor } : { problem, minimumMinor }
}

function isNamespaceReceiver(parent: CelAstNode, node: CelAstNode): boolean {
  const call = callParts(parent)
  const name = identifierName(node)
  return call !== undefined && call.receiver === node && name !== undefined && (name in NAMESPACED_FUNCTIONS || name === 'cel')
}

function callProblem(call: { name: string; receiver: CelAstNode | undefined; args: CelAstNode[] }, need: (minor: number) => void): string | undefined {
  const { name, receiver, args } = call
  if (receiver === undefined) {
    const minor = GLOBAL_FUNCTIONS[name]
    if (minor === undefined) return `calls ${name}(), which the Kubernetes API server does not have (a Verdict or Kyverno function)`
    need(minor)
    return undefined
  }
  const namespace = identifierName(receiver)
  if (namespace === 'cel') return `calls cel.${name}(), which the Kubernetes API server does not have`
  if (namespace !== undefined && namespace in NAMESPACED_FUNCTIONS) {
    const minor = NAMESPACED_FUNCTIONS[namespace]?.[name]
    // `ip.isCanonical` names the IP library; `ip` is no variable, so any other ip.f() is not either.
    if (minor === undefined) return `calls ${namespace}.${name}(), which the Kubernetes API server does not have`
    need(minor)
    return undefined
  }
  if (namespace !== undefined && !KUBERNETES_IDENTIFIERS.has(namespace) && isLibraryNamespace(namespace)) {
    return `calls ${namespace}.${name}(), which the Kubernetes API server does not have (a Verdict or Kyverno function)`
  }
  const minor = MEMBER_FUNCTIONS[name]
  if (minor === undefined) return `calls .${name}(), which the Kubernetes API server does not have (a Verdict or cel-go extension function)`
  need(minor)
  if (TWO_VARIABLE_FORMS.has(name) && args.length === 3) need(32)
  return undefined
}

/** Namespaces of Verdict's and Kyverno's libraries (json.decode, lists.range, time.now, math.greatest...). */
function isLibraryNamespace(name: string): boolean {
  return ['json', 'lists', 'time', 'math', 'base64', 'document', 'http', 'globalContext', 'generator', 'yaml', 'x509', 'gzip', 'random', 'image', 'resource'].includes(name)
}

function requestProblem(parent: CelAstNode | undefined): string | undefined {
  const select = parent ? selectParts(parent) : undefined
  if (!select) return undefined
  if (REQUEST_FIELDS.has(select.field)) return undefined
  return `reads request.${select.field}, which Verdict does not fill (its expression errors there) while the API server does`
}

/** The type of a literal element, or undefined when it is not a literal. */
function literalType(node: CelAstNode): string | undefined {
  if (node.op !== 'value') return undefined
  const value = node.args
  if (value === null) return 'null'
  if (typeof value === 'bigint') return 'int'
  if (typeof value === 'number') return 'double'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  return typeof value
}

/** `[1, 'a']` or `{'a': 1, 'b': 'x'}`; format()'s argument list is exempt, as in the API server. */
function literalProblem(node: CelAstNode, parent: CelAstNode | undefined): string | undefined {
  const call = parent ? callParts(parent) : undefined
  if (call?.name === 'format') return undefined
  const groups: CelAstNode[][] = []
  if (node.op === 'list') groups.push(node.args as CelAstNode[])
  else {
    const entries = (node.args as unknown[]).filter(Array.isArray) as unknown as CelAstNode[][]
    groups.push(entries.map((entry) => entry[0] as CelAstNode), entries.map((entry) => entry[1] as CelAstNode))
  }
  for (const group of groups) {
    const types = new Set(group.map(literalType).filter((type) => type !== undefined))
    if (types.size > 1) {
      return `has a ${node.op} literal mixing ${[...types].sort().join(' and ')}, which the Kubernetes API server refuses (its literals must be of one type)`
    }
  }
  return undefined
}
