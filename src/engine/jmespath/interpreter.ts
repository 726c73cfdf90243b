import { TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath'
import { charge } from './budget.js'
import type { ExpressionNode } from './dialect.js'
import { jsonEqual } from './equality.js'
import { JmespathNotFoundError } from './errors.js'
import type { JmespathFunction } from './functions/function.js'
import { hasOwn, isFalsy, isJsonObject, setOwn, type JsonObject, type JsonValue } from './json.js'

/**
 * The library's tree interpreter, adjusted to Kyverno's JMESPath (go-jmespath as Kyverno forks it).
 *
 * The library exports its interpreter as a ready instance whose functions are global; a subclass
 * of that instance's class gets its own runtime (function table), so Kyverno's functions are
 * registered here without touching the library's global one. The library's `visit` recurses
 * through `this.visit`, so the overrides below apply at every level:
 *
 * - fields are read from own properties only (the library reads `value[name]`, so
 *   `metadata.constructor` would return a JavaScript function);
 * - `a.b` evaluates `b` even when `a` is null, and a multi-select of null is null, as in Go
 *   (`a.to_string(@)` is "null" when `a` is null); but when `a` is missing the chain stops
 *   there, as go-jmespath's not-found error stops it (`resources.keys(@)` never calls keys);
 * - `==` and `!=` use a metered deep equality, and `{key: ...}` builds objects safely;
 * - slices apply to lists only (the library also slices strings);
 * - every node visited is charged to the budget.
 *
 * `evaluate` adds Kyverno's not-found errors: along the expression's main path (fields,
 * sub-expressions, indexes and the right side of `&&`), a field missing from an object throws
 * JmespathNotFoundError. Everywhere else (function arguments, `||`, `!`, comparisons,
 * projections, filters, pipes, multi-selects) go-jmespath swallows that error and reads null,
 * which is what the library's own evaluation returns.
 */

type LibraryInterpreter = typeof TreeInterpreter
type VisitArgument = Parameters<LibraryInterpreter['visit']>[1]
type VisitResult = ReturnType<LibraryInterpreter['visit']>

// The library exports only the instance; its class is the instance's constructor.
const LibraryInterpreterClass = TreeInterpreter.constructor as new () => LibraryInterpreter

export class KyvernoInterpreter extends LibraryInterpreterClass {
  constructor(functions: readonly JmespathFunction[], removed: readonly string[]) {
    super()
    const table = this.runtime._functionTable
    for (const name of removed) delete table[name]
    for (const fn of functions) {
      this.runtime.registerFunction(fn.name, (args) => fn.call(args as JsonValue[]) as JSONValue, [...fn.signature], { override: true })
    }
    for (const entry of Object.values(table)) {
      const call = entry._func
      entry._func = (args: JSONValue[]) => {
        chargeShallow(args)
        const result = call(args)
        chargeShallow(result)
        return result
      }
    }
  }

  override visit(node: ExpressionNode, value: VisitArgument): VisitResult {
    charge(1)
    switch (node.type) {
      case 'Field':
        return isJsonObject(value) && hasOwn(value, node.name) ? ((value as JsonObject)[node.name] as JSONValue) : null
      case 'Subexpression': {
        const left = this.visit(node.left, value) as JSONValue
        // go-jmespath stops a chain at a missing field (its not-found error ends the chain wherever it is swallowed).
        if (left === null && this.#notFound(node.left, value as JsonValue)) return null
        return this.visit(node.right, left)
      }
      case 'Comparator':
        if (node.name === 'EQ' || node.name === 'NE') {
          const equal = jsonEqual(this.visit(node.left, value) as JsonValue, this.visit(node.right, value) as JsonValue)
          return node.name === 'EQ' ? equal : !equal
        }
        return super.visit(node, value)
      case 'MultiSelectList':
        if (value === null) return null
        return node.children.map((child) => this.visit(child, value) as JSONValue)
      case 'MultiSelectHash': {
        if (value === null) return null
        const collected: JsonObject = {}
        for (const pair of node.children) setOwn(collected, pair.name, this.visit(pair.value, value) as JsonValue)
        return collected as JSONValue
      }
      case 'Slice':
        // Slicing strings is a community extension; go-jmespath slices lists only.
        return typeof value === 'string' ? null : super.visit(node, value)
      case 'Flatten': {
        const result = super.visit(node, value)
        if (Array.isArray(result)) charge(result.length)
        return result
      }
      default:
        return super.visit(node, value)
    }
  }

  /** Whether `node` over `value` came out null because a field it reads is missing, not null. */
  #notFound(node: ExpressionNode, value: JsonValue): boolean {
    switch (node.type) {
      case 'Field':
        return isJsonObject(value) && !hasOwn(value, node.name)
      case 'Subexpression': {
        const left = this.visit(node.left, value as JSONValue) as JsonValue
        if (left === null) return this.#notFound(node.left, value)
        return this.#notFound(node.right, left)
      }
      default:
        return false
    }
  }

  /** Evaluates with Kyverno's not-found errors along the main path (see the file comment). */
  evaluate(node: ExpressionNode, value: JsonValue): JsonValue {
    charge(1)
    switch (node.type) {
      case 'Field':
        if (!isJsonObject(value)) return null
        if (!hasOwn(value, node.name)) throw new JmespathNotFoundError(node.name)
        return value[node.name] as JsonValue
      case 'Subexpression':
      case 'IndexExpression':
        return this.evaluate(node.right, this.evaluate(node.left, value))
      case 'AndExpression': {
        const left = this.visit(node.left, value as JSONValue) as JsonValue
        return isFalsy(left) ? left : this.evaluate(node.right, value)
      }
      default:
        return this.visit(node, value as JSONValue) as JsonValue
    }
  }
}

/** Charges what a function received or returned, one level deep (deep walks charge themselves). */
function chargeShallow(value: unknown): void {
  if (typeof value === 'string') charge(1 + (value.length >> 6))
  else if (Array.isArray(value)) {
    charge(1 + value.length)
    for (const item of value) if (typeof item === 'string') charge(item.length >> 6)
  } else if (isJsonObject(value)) charge(1 + Object.keys(value).length)
  else charge(1)
}
