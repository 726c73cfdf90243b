import { Optional } from '@marcbachmann/cel-js'
import type { PathSegment } from '../autogen/pod-template-path.js'
import type { CelAstNode } from '../cel/macro-api.js'
import { fromCelValue } from '../cel/values.js'
import { celSource, iterationItems, type ExpressionTracer } from './expression-tracer.js'
import type { RawFinding } from './field-finding.js'
import { elementsOf, type Locals, type Traced } from './traced-value.js'

type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>='

/** `a op b` read from b's side. */
const MIRRORED: Readonly<Record<Comparison, Comparison>> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' }
/** What must hold for `a op b` to be false. */
const NEGATED: Readonly<Record<Comparison, Comparison>> = { '==': '!=', '!=': '==', '<': '>=', '<=': '>', '>': '<=', '>=': '<' }
const COMPARISONS: ReadonlySet<string> = new Set(Object.keys(MIRRORED))

const STRING_TESTS: Readonly<Record<string, string>> = { startsWith: 'start with', endsWith: 'end with', contains: 'contain', matches: 'match' }

/**
 * Which fields of the judged object make a boolean expression come out other than wanted, and
 * what the expression asks of each: the leaves of its boolean structure that read a field
 * (comparisons, membership, has(), string tests, boolean fields), reached through &&, ||, !,
 * the comprehension macros, rule variables, and `size(filtered) == 0` (every element the filter
 * kept must stop matching). Leaves that read no field give nothing.
 *
 * Where an expression leaves a choice (`a || b` false: either may change), one is named: a plain
 * check rather than an exception (`!(isReplica && ...)`), a type guard or a test of what the
 * object is (its type or kind), and of equals the rightmost, where checks usually follow their
 * guards (`isWindows || check`); the other choices about that same field are merged into its
 * requirement ("must not be set or be one of ...").
 */
export class FieldFinder {
  readonly #tracer: ExpressionTracer

  constructor(tracer: ExpressionTracer) {
    this.#tracer = tracer
  }

  /** Findings that would turn `node` into `want`; empty when it already is, errs, or nothing is known. */
  find(node: CelAstNode, want: boolean, locals: Locals | undefined): RawFinding[] {
    const holds = this.#tracer.truth(node, locals)
    if (holds === undefined || holds === want) return []
    const variable = this.#tracer.variableRead(node, locals)
    if (variable) return this.find(variable, want, undefined)
    if (COMPARISONS.has(node.op)) return this.#comparison(node, node.op as Comparison, want, locals)
    switch (node.op) {
      case '!_':
        return this.find(node.args as CelAstNode, !want, locals)
      case '&&':
      case '||': {
        const operands = chainOf(node.op, node)
        // `a && b` wanted true (or `a || b` wanted false): every operand that is off must change.
        if ((node.op === '&&') === want) return operands.flatMap((operand) => this.find(operand, want, locals))
        return this.#alternatives(operands, want, locals)
      }
      case '?:': {
        const [condition, then, otherwise] = node.args as [CelAstNode, CelAstNode, CelAstNode]
        const taken = this.#tracer.truth(condition, locals)
        return taken === undefined ? [] : this.find(taken ? then : otherwise, want, locals)
      }
      case 'in':
        return this.#membership(node.args as [CelAstNode, CelAstNode], want, locals)
      case 'call':
        return this.#call(node, want, locals)
      case 'rcall':
        return this.#receiverCall(node, want, locals)
      default:
        return this.#booleanField(node, want, locals)
    }
  }

  /** Any one of the operands could change: the likeliest check, with the other ways to fix that same field. */
  #alternatives(operands: readonly CelAstNode[], want: boolean, locals: Locals | undefined): RawFinding[] {
    return chooseAmong(
      operands.map((operand, index) => ({ rank: rankOf(operand), index, found: this.find(operand, want, locals) })),
      'last',
    )
  }

  #comparison(node: CelAstNode, op: Comparison, want: boolean, locals: Locals | undefined): RawFinding[] {
    const [leftNode, rightNode] = node.args as [CelAstNode, CelAstNode]
    const left = this.#tracer.tryTrace(leftNode, locals)
    const right = this.#tracer.tryTrace(rightNode, locals)
    if (!left || !right) return []
    let field: Traced
    let bound: unknown
    let required: Comparison
    if (readsField(left)) [field, bound, required] = [left, right.value, op]
    else if (readsField(right)) [field, bound, required] = [right, left.value, MIRRORED[op]]
    else return this.#opaqueLeaf(node, want, locals)
    if (!want) required = NEGATED[required]
    if (field.sizeOf) return this.#size(field.sizeOf, required, bound)
    if (field.typeOf) return typeFinding(field.typeOf, required === '==' ? [sourceOf(field === left ? rightNode : leftNode)] : undefined)
    // `x.orValue('') != ''` on a missing x: what is asked is that x be set.
    if (field.missing && required === '!=' && sameValue(bound, field.value)) return [{ path: field.path ?? [], requirement: 'must be set' }]
    const expected = required === '==' && bound !== null ? bound : required === '!=' && typeof bound === 'boolean' ? !bound : undefined
    return [finding(field, comparisonRequirement(required, bound), expected)]
  }

  /** `size(list) op n`: emptiness in words; a filtered list empties by each kept element no longer matching. */
  #size(target: Traced, op: Comparison, bound: unknown): RawFinding[] {
    if (typeof bound !== 'bigint') return []
    const n = Number(bound)
    const mustBeEmpty = (op === '==' && n === 0) || (op === '<' && n === 1) || (op === '<=' && n === 0)
    if (mustBeEmpty && target.keptBy) {
      const { predicate, scopes } = target.keptBy
      const found = scopes.flatMap((scope) => this.find(predicate, false, scope))
      if (found.length > 0) return found
      return elementsOf(target).flatMap((element) => (element.path ? [{ path: element.path, requirement: `must not satisfy ${quoted(predicate)}` }] : []))
    }
    const unit = typeof target.value === 'string' ? 'characters' : Array.isArray(target.value) ? 'items' : 'entries'
    const mustHaveSome = (op === '!=' && n === 0) || (op === '>' && n === 0) || (op === '>=' && n === 1)
    // A count of the items a filter keeps is a requirement on the list filtered.
    const filtered = target.keptBy?.source
    if (target.path === undefined && filtered?.path !== undefined && target.keptBy) {
      const predicate = quoted(target.keptBy.predicate)
      const requirement = mustBeEmpty
        ? `must have no items that satisfy ${predicate}`
        : mustHaveSome
          ? `must have an item that satisfies ${predicate}`
          : `must have ${COUNT_WORDS[op]} ${counted(n, 'items')} that ${n === 1 ? 'satisfies' : 'satisfy'} ${predicate}`
      return [{ path: filtered.path, requirement }]
    }
    if (target.path === undefined) return []
    const requirement = mustBeEmpty ? 'must be empty' : mustHaveSome ? 'must not be empty' : `must have ${COUNT_WORDS[op]} ${counted(n, unit)}`
    return [finding(target, requirement, undefined)]
  }

  #membership([elementNode, containerNode]: [CelAstNode, CelAstNode], want: boolean, locals: Locals | undefined): RawFinding[] {
    const element = this.#tracer.tryTrace(elementNode, locals)
    const container = this.#tracer.tryTrace(containerNode, locals)
    if (!element || !container) return []
    if (element.typeOf && want && containerNode.op === 'list') return typeFinding(element.typeOf, (containerNode.args as CelAstNode[]).map(sourceOf))
    if (element.path && Array.isArray(container.value)) {
      const values = container.value as unknown[]
      if (values.length === 0) return []
      const listed = values.map(show).join(', ')
      const expected = want && values.length === 1 ? values[0] : undefined
      return [finding(element, want ? `must be one of ${listed}` : `must not be one of ${listed}`, expected)]
    }
    if (!container.path) return []
    if (Array.isArray(container.value) || container.missing) {
      return [finding(container, `must ${want ? '' : 'not '}contain ${show(element.value)}`, undefined)]
    }
    if (typeof element.value === 'string' && isMap(container.value)) {
      const entry = { value: entryOf(container.value, element.value), path: [...container.path, element.value] }
      return [want ? { path: entry.path, requirement: 'must be set' } : finding(entry, 'must not be set', undefined)]
    }
    return []
  }

  #call(node: CelAstNode, want: boolean, locals: Locals | undefined): RawFinding[] {
    const [name, args] = node.args as [string, CelAstNode[]]
    const [argument] = args
    if (name !== 'has' || args.length !== 1 || argument?.op !== '.') return this.#opaqueLeaf(node, want, locals)
    const [operand, field] = argument.args as [CelAstNode, string]
    const target = this.#tracer.tryTrace(operand, locals)
    if (target?.path === undefined) return []
    const entry = { value: isMap(target.value) ? entryOf(target.value, field) : undefined, path: [...target.path, field] }
    return [want ? { path: entry.path, requirement: 'must be set' } : finding(entry, 'must not be set', undefined)]
  }

  #receiverCall(node: CelAstNode, want: boolean, locals: Locals | undefined): RawFinding[] {
    const [name, receiverNode, args] = node.args as [string, CelAstNode, CelAstNode[]]
    if ((name === 'all' || name === 'exists') && args.length === 2 && (args[0] as CelAstNode).op === 'id') {
      return this.#quantifier(name, receiverNode, (args[0] as CelAstNode).args as string, args[1] as CelAstNode, want, locals)
    }
    const test = STRING_TESTS[name]
    if (test && args.length === 1) {
      const receiver = this.#tracer.tryTrace(receiverNode, locals)
      const argument = this.#tracer.tryTrace(args[0] as CelAstNode, locals)
      if (receiver?.path && typeof argument?.value === 'string') {
        return [finding(receiver, `must ${want ? '' : 'not '}${test} ${show(argument.value)}`, undefined)]
      }
    }
    if (name === 'hasValue' && args.length === 0) {
      const receiver = this.#tracer.tryTrace(receiverNode, locals)
      if (receiver?.path) return [want ? { path: receiver.path, requirement: 'must be set' } : finding(receiver, 'must not be set', undefined)]
    }
    return this.#booleanField(node, want, locals)
  }

  /**
   * `list.all(x, p)` wanted true: every element where p is false, explained; `list.exists(x, p)`
   * wanted false: every element where p holds. An element whose p names no field is still named.
   */
  #quantifier(name: 'all' | 'exists', receiverNode: CelAstNode, variable: string, body: CelAstNode, want: boolean, locals: Locals | undefined): RawFinding[] {
    const list = this.#tracer.tryTrace(receiverNode, locals)
    if (!list) return []
    if (name === 'exists' && want) {
      // A list of the document wants an item that matches (often a new one); a list the expression
      // assembled (`[tags, tags_all]`) offers alternatives: the first one that can be explained is named.
      if (list.path) return [{ path: list.path, requirement: `must have an item that satisfies ${quoted(body)}` }]
      const options = (iterationItems(list) ?? []).map((element, index) => ({
        rank: 0,
        index,
        found: this.find(body, true, { name: variable, value: element, outer: locals }),
      }))
      return chooseAmong(options, 'first')
    }
    if (name === 'all' && !want) return []
    const offending = name === 'all' ? false : true
    return (iterationItems(list) ?? []).flatMap((element) => {
      const scope: Locals = { name: variable, value: element, outer: locals }
      if (this.#tracer.truth(body, scope) !== offending) return []
      const found = this.find(body, !offending, scope)
      if (found.length > 0 || !element.path) return found
      return [{ path: element.path, requirement: `must ${offending ? 'not ' : ''}satisfy ${quoted(body)}` }]
    })
  }

  /** A boolean read straight from a field (`object.spec.hostNetwork`, `x.?enabled.orValue(false)`). */
  #booleanField(node: CelAstNode, want: boolean, locals: Locals | undefined): RawFinding[] {
    const value = this.#tracer.tryTrace(node, locals)
    if (value?.path && typeof value.value === 'boolean') return [finding(value, `must be ${want}`, want)]
    return this.#opaqueLeaf(node, want, locals)
  }

  /** A check cel-js computed from a field (`quantity(c.resources.limits.memory).isLessThan(...)`): the field and the check. */
  #opaqueLeaf(node: CelAstNode, want: boolean, locals: Locals | undefined): RawFinding[] {
    const subject = this.#subjectOf(node, locals)
    if (!subject?.path) return []
    return [finding(subject, `must ${want ? '' : 'not '}satisfy ${quoted(node)}`, undefined)]
  }

  /** The first field the node reads, outermost selection first (`a.b.c` rather than `a.b`). */
  #subjectOf(node: CelAstNode, locals: Locals | undefined): Traced | undefined {
    if (SELECTIONS.has(node.op) || (node.op === 'rcall' && (node.args as [string])[0] === 'orValue')) {
      const value = this.#tracer.tryTrace(node, locals)
      if (value?.path && value.path.length > 0) return value
    }
    for (const child of childrenOf(node)) {
      const found = this.#subjectOf(child, locals)
      if (found) return found
    }
    return undefined
  }
}

const SELECTIONS: ReadonlySet<string> = new Set(['.', '.?', '[]', '[?]', 'id'])

/** Operands of a chain of one operator: `a || b || c` parses as `(a || b) || c`. */
function chainOf(op: string, node: CelAstNode): CelAstNode[] {
  if (node.op !== op) return [node]
  return (node.args as CelAstNode[]).flatMap((operand) => chainOf(op, operand))
}

/**
 * How likely changing an operand is the fix: 0 a plain check, 1 a compound, 2 an exception
 * (`!(isReplica && ...)`) or a type guard (`type(x) == string`), 3 a test of what the object is
 * (`r.type == 'aws_s3_bucket'`, a kind or mode): never the remediation.
 */
function rankOf(node: CelAstNode): number {
  if (node.op === '!_') {
    const inner = node.args as CelAstNode
    return inner.op === '&&' || inner.op === '||' ? 2 : rankOf(inner)
  }
  if (node.op === '==' || node.op === 'in') {
    if ((node.args as CelAstNode[]).some(readsDiscriminator)) return 3
  }
  if (COMPARISONS.has(node.op) || node.op === 'in') {
    const isTypeCall = (side: CelAstNode) => side.op === 'call' && (side.args as [string])[0] === 'type'
    return (node.args as CelAstNode[]).some(isTypeCall) ? 2 : 0
  }
  if (node.op === '&&' || node.op === '||' || node.op === '?:') return 1
  return 0
}

const DISCRIMINATORS: ReadonlySet<string> = new Set(['type', 'kind', 'apiVersion', 'mode'])

/** Whether the expression selects a field that says what the object is (`x.?type`, `object.kind`). */
function readsDiscriminator(node: CelAstNode): boolean {
  if ((node.op === '.' || node.op === '.?') && DISCRIMINATORS.has((node.args as [CelAstNode, string])[1])) return true
  // `type(x) == string ? x : ''` wraps the field in a guard; a call is a computation (`type(r)`).
  if (node.op === 'call' || node.op === 'value' || node.op === 'id') return false
  return childrenOf(node).some(readsDiscriminator)
}

interface Option {
  /** See rankOf; lower is likelier the fix. */
  rank: number
  index: number
  found: RawFinding[]
}

/**
 * Of alternatives that would each fix the expression, the likeliest (lowest rank, then the last
 * or first written), merged with the alternatives about the same single field ("must not be set
 * or be one of ...").
 */
function chooseAmong(options: readonly Option[], prefer: 'first' | 'last'): RawFinding[] {
  const viable = options.filter((option) => option.found.length > 0)
  const best = viable.reduce<Option | undefined>((chosen, option) => {
    if (!chosen || option.rank < chosen.rank) return option
    return option.rank === chosen.rank && prefer === 'last' ? option : chosen
  }, undefined)
  if (!best) return []
  const [single] = best.found
  if (best.found.length !== 1 || !single) return best.found
  const sameField = viable.filter((option) => option.found.length === 1 && samePathAs(option.found[0], single)).map((option) => option.found[0] as RawFinding)
  if (sameField.length < 2) return best.found
  const withValue = sameField.find((finding) => finding.actual !== undefined)
  const merged: RawFinding = { path: single.path, requirement: joinRequirements([...new Set(sameField.map((finding) => finding.requirement))]) }
  if (withValue) merged.actual = withValue.actual
  const expected = sameField.map((finding) => finding.expected)
  if (expected[0] !== undefined && expected.every((value) => value === expected[0])) merged.expected = expected[0]
  return [merged]
}

/** "must be X" and "must start with Y" -> "must be X or start with Y". */
function joinRequirements(requirements: readonly string[]): string {
  const prefix = ['its key must ', 'must '].find((candidate) => requirements.every((requirement) => requirement.startsWith(candidate)))
  return prefix === undefined ? requirements.join(' or ') : prefix + requirements.map((requirement) => requirement.slice(prefix.length)).join(' or ')
}

function samePathAs(a: RawFinding | undefined, b: RawFinding | undefined): boolean {
  return a !== undefined && b !== undefined && a.path.length === b.path.length && a.path.every((segment, index) => segment === b.path[index])
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (a instanceof Optional && !a.hasValue() && b === null)
}

/** `type(x) == string`, `type(x) in [int, double]`: x must be of one of the types named. */
function typeFinding(field: Traced, typeNames: readonly string[] | undefined): RawFinding[] {
  if (!field.path || !typeNames || typeNames.length === 0) return []
  const types = typeNames.length === 1 ? `a ${typeNames[0]}` : `of type ${typeNames.slice(0, -1).join(', ')} or ${typeNames[typeNames.length - 1]}`
  return [finding(field, field.missing || field.value === null ? `must be set to ${types.startsWith('a ') ? types : `a value ${types}`}` : `must be ${types}`, undefined)]
}

/** CEL source for a requirement; a long expression would bury the path, so it is named rather than quoted. */
function quoted(node: CelAstNode): string {
  const source = sourceOf(node)
  return source.length <= MAX_QUOTED ? `\`${source}\`` : "the rule's condition"
}

const MAX_QUOTED = 120

const COUNT_WORDS: Readonly<Record<Comparison, string>> = { '==': 'exactly', '!=': 'other than', '<': 'fewer than', '<=': 'at most', '>': 'more than', '>=': 'at least' }

/** "1 item", "2 items". */
function counted(n: number, plural: string): string {
  return `${n} ${n === 1 ? plural.slice(0, -1).replace(/ie$/, 'y') : plural}`
}

function readsField(value: Traced): boolean {
  return value.path !== undefined || value.sizeOf?.path !== undefined || value.sizeOf?.keptBy !== undefined || value.typeOf?.path !== undefined
}

function comparisonRequirement(op: Comparison, bound: unknown): string {
  if (bound === null) return op === '==' ? 'must not be set' : op === '!=' ? 'must be set' : `must be ${op} null`
  const shown = show(bound)
  switch (op) {
    case '==':
      return `must be ${shown}`
    case '!=':
      return `must not be ${shown}`
    case '<':
      return `must be less than ${shown}`
    case '<=':
      return `must be at most ${shown}`
    case '>':
      return `must be greater than ${shown}`
    default:
      return `must be at least ${shown}`
  }
}

/** A finding for a traced field; the value found is left out when the field is missing. */
function finding(
  field: { value: unknown; path?: readonly PathSegment[] | undefined; missing?: boolean | undefined; key?: boolean | undefined },
  requirement: string,
  expected: unknown,
): RawFinding {
  // A map key that fails a check: the entry is the field, and it is the key that must change (or go).
  if (field.key) return { path: field.path ?? [], requirement: `its key ${requirement}` }
  const out: RawFinding = { path: field.path ?? [], requirement }
  const actual = field.value instanceof Optional ? (field.value.hasValue() ? field.value.value() : undefined) : field.value
  if (!field.missing && actual !== undefined) out.actual = actual
  if (expected !== undefined) out.expected = expected
  return out
}

function show(value: unknown): string {
  return JSON.stringify(fromCelValue(value)) ?? String(value)
}

function isMap(value: unknown): value is Record<string, unknown> | Map<unknown, unknown> {
  return value instanceof Map || (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Optional))
}

function entryOf(map: Record<string, unknown> | Map<unknown, unknown>, key: string): unknown {
  if (map instanceof Map) return map.get(key)
  return Object.hasOwn(map, key) ? map[key] : undefined
}

function sourceOf(node: CelAstNode): string {
  return celSource(node)
}

function childrenOf(node: CelAstNode): CelAstNode[] {
  const children: CelAstNode[] = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item)
    else if (value !== null && typeof value === 'object' && 'op' in value && 'args' in value) children.push(value as CelAstNode)
  }
  if (node.op !== 'value') visit(node.args)
  return children
}
