import type { ArrayNode, LeafNode, MapEntry, MapNode, PatternNode } from './compile-pattern.js'
import { everyScalarHolds, passCheckOf, scalarHolds, type ExpandMap, type PassCheck } from './pass-check.js'

/**
 * The pass check of pass-check.ts as one generated function per pattern, for patterns judged
 * again and again (a ruleset's, not one substituted for a single request). The closures of
 * pass-check.ts share their code between every pattern, so each property read in them sees every
 * field name of every pattern, and V8's lookups there degrade to their slowest, generic form; a
 * function of the pattern's own has a read site per field, which V8 resolves once.
 *
 * No text of the pattern enters the generated source: field names, scalar patterns and checks
 * are handed in as an array and named by their index, so a hostile pattern cannot write code.
 * A pattern past MAX_GENERATED_NODES, or a process that forbids code generation from strings,
 * keeps the closures.
 */
export function generatedPassCheck(root: PatternNode, expand: ExpandMap): PassCheck | undefined {
  const generator = new Generator(expand)
  if (generator.count(root) > MAX_GENERATED_NODES) return undefined
  const entry = generator.node(root)
  const source = [
    "'use strict'",
    ...generator.constants.map((_, index) => `const c${index} = constants[${index}]`),
    ...generator.functions,
    `return n${entry}`,
  ].join('\n')
  try {
    // The source holds only this module's templates and numbers (see above).
    const build = new Function('constants', 'holds', 'everyHolds', source) as (constants: unknown[], holds: typeof scalarHolds, everyHolds: typeof everyScalarHolds) => PassCheck
    return build(generator.constants, scalarHolds, everyScalarHolds)
  } catch {
    // --disallow-code-generation-from-strings, or a source V8 refuses: the closures serve.
    return undefined
  }
}

/** Beyond any real pattern (the Pod Security ones have a few dozen nodes); it bounds the source a pattern can generate. */
const MAX_GENERATED_NODES = 2_000

class Generator {
  readonly constants: unknown[] = []
  readonly functions: string[] = []
  readonly #expand: ExpandMap

  constructor(expand: ExpandMap) {
    this.#expand = expand
  }

  count(node: PatternNode): number {
    if (node.kind === 'leaf') return 1
    if (node.kind === 'array') return 1 + node.items.reduce((sum, item) => sum + this.count(item), 0)
    return 1 + [...node.anchors, ...node.rest].reduce((sum, entry) => sum + this.count(entry.node), 0)
  }

  /** Emits the function checking `node`; returns its number (`n<number>`). */
  node(node: PatternNode): number {
    switch (node.kind) {
      case 'map':
        return node.metadata ? this.#emit(`return c${this.#constant(passCheckOf(node, this.#expand))}(r, ints)`) : this.#map(node)
      case 'array':
        return this.#array(node)
      case 'leaf':
        return this.#emit(`return ${this.#leafTest('r', node)}`)
    }
  }

  #constant(value: unknown): number {
    this.constants.push(value)
    return this.constants.length - 1
  }

  /** Children are emitted while a body is written, so they come first; declarations are hoisted. */
  #emit(body: string): number {
    this.functions.push(`function n${this.functions.length}(r, ints) {\n${body}\n}`)
    return this.functions.length - 1
  }

  #map(node: MapNode): number {
    const lines = ["if (typeof r !== 'object' || r === null || Array.isArray(r)) return false", 'let v']
    for (const entry of [...node.anchors, ...node.rest]) lines.push(...this.#entry(entry))
    lines.push('return true')
    return this.#emit(lines.join('\n'))
  }

  #entry(entry: MapEntry): string[] {
    const field = `c${this.#constant(entry.field)}`
    const read = entry.inheritedName ? `v = Object.hasOwn(r, ${field}) ? r[${field}] : undefined` : `v = r[${field}]`
    switch (entry.kind) {
      case 'condition':
        return [read, `if (v === undefined || !(${this.#test('v', entry.node)})) return false`]
      case 'global':
      case 'equality':
        return [read, `if (v !== undefined && !(${this.#test('v', entry.node)})) return false`]
      case 'negation':
        return [read, 'if (v !== undefined) return false']
      case 'existence': {
        const patterns = entry.node.kind === 'array' ? entry.node.items : [entry.node]
        const tests = patterns.map((pattern) => `if (!v.some((item) => n${this.node(pattern)}(item, ints))) return false`)
        return [read, 'if (v !== undefined) {', 'if (!Array.isArray(v)) return false', ...tests, '}']
      }
      default:
        if (entry.star) return [read, 'if (v === undefined || v === null) return false']
        return [read, `if (!(${this.#test('v', entry.node)})) return false`]
    }
  }

  /** An expression testing `value` against `node`: a leaf inline, anything else through its function. */
  #test(value: string, node: PatternNode): string {
    return node.kind === 'leaf' ? this.#leafTest(value, node) : `n${this.node(node)}(${value}, ints)`
  }

  #leafTest(value: string, node: LeafNode): string {
    const scalar = `c${this.#constant(node.scalar)}`
    return `Array.isArray(${value}) ? everyHolds(${value}, ${scalar}, ints) : holds(${value}, ${scalar}, ints)`
  }

  #array(node: ArrayNode): number {
    const first = node.items[0]
    if (first === undefined) return this.#emit('return false')
    if (first.kind === 'leaf') return this.#emit(`return Array.isArray(r) && everyHolds(r, c${this.#constant(first.scalar)}, ints)`)
    if (first.kind === 'map') {
      const item = this.node(first)
      return this.#emit(['if (!Array.isArray(r)) return false', `for (let i = 0; i < r.length; i++) if (!n${item}(r[i], ints)) return false`, 'return true'].join('\n'))
    }
    const items = node.items.map((item) => this.node(item))
    return this.#emit(`return Array.isArray(r) && r.length >= ${items.length} && ${items.map((item, index) => `n${item}(r[${index}], ints)`).join(' && ')}`)
  }
}
