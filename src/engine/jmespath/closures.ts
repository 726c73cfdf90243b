import type { JSONValue } from '@jmespath-community/jmespath'
import { charge } from './budget.js'
import type { ExpressionNode } from './dialect.js'
import { jsonEqual } from './equality.js'
import { JmespathNotFoundError } from './errors.js'
import type { KyvernoInterpreter } from './interpreter.js'
import { hasOwn, isFalsy, isJsonObject, setOwn, type JsonObject, type JsonValue } from './json.js'

/**
 * A parsed expression turned once into nested closures, so that the policies' expressions, run
 * for every admission request, do not dispatch on node types at each step. The closures do what
 * KyvernoInterpreter does, node for node, charging the budget the same units: node kinds that
 * are rare in policies (slices, comparisons other than `==`/`!=`, arithmetic, value
 * projections, `let`) are handed to the interpreter itself.
 *
 * `visit` is the interpreter's visit; `evaluate` its evaluate, with not-found errors along the
 * expression's main path.
 */
export interface ExpressionClosures {
  readonly visit: Closure
  readonly evaluate: Closure
}

type Closure = (value: JsonValue) => JsonValue
type NotFound = (value: JsonValue) => boolean

const compiled = new WeakMap<ExpressionNode, ExpressionClosures>()

export function closuresOf(node: ExpressionNode, interpreter: KyvernoInterpreter): ExpressionClosures {
  let closures = compiled.get(node)
  if (closures === undefined) {
    closures = { visit: visitor(node, interpreter), evaluate: evaluator(node, interpreter) }
    compiled.set(node, closures)
  }
  return closures
}

/** The library's truthiness (undefined counts as false, which a function may return). */
function isFalse(value: JsonValue | undefined): boolean {
  return value === undefined || isFalsy(value)
}

function visitor(node: ExpressionNode, interpreter: KyvernoInterpreter): Closure {
  const child = (next: ExpressionNode): Closure => visitor(next, interpreter)
  switch (node.type) {
    case 'Field': {
      const name = node.name
      return (value) => {
        charge(1)
        return isJsonObject(value) && hasOwn(value, name) ? (value[name] as JsonValue) : null
      }
    }
    case 'Subexpression': {
      const left = child(node.left)
      const right = child(node.right)
      const leftNotFound = notFound(node.left, interpreter)
      return (value) => {
        charge(1)
        const base = left(value)
        // go-jmespath stops a chain at a missing field (see interpreter.ts).
        if (base === null && leftNotFound(value)) return null
        return right(base)
      }
    }
    case 'IndexExpression':
    case 'Pipe': {
      const left = child(node.left)
      const right = child(node.right)
      return (value) => {
        charge(1)
        return right(left(value))
      }
    }
    case 'Index': {
      const index = node.value
      return (value) => {
        charge(1)
        if (!Array.isArray(value)) return null
        return value[index < 0 ? value.length + index : index] ?? null
      }
    }
    case 'Projection': {
      const left = child(node.left)
      const right = child(node.right)
      const allowString = node.left.type === 'IndexExpression' && node.left.right.type === 'Slice'
      return (value) => {
        charge(1)
        const base = left(value)
        if (allowString && typeof base === 'string') return right(base)
        if (!Array.isArray(base)) return null
        const collected: JsonValue[] = []
        for (const element of base) {
          const current = right(element)
          if (current !== null) collected.push(current)
        }
        return collected
      }
    }
    case 'FilterProjection': {
      const left = child(node.left)
      const right = child(node.right)
      const condition = child(node.condition)
      return (value) => {
        charge(1)
        const base = left(value)
        if (!Array.isArray(base)) return null
        const collected: JsonValue[] = []
        for (const element of base) {
          if (isFalse(condition(element))) continue
          const current = right(element)
          if (current !== null) collected.push(current)
        }
        return collected
      }
    }
    case 'Flatten': {
      const inner = child(node.child)
      return (value) => {
        charge(1)
        const original = inner(value)
        if (!Array.isArray(original)) return null
        // Array.prototype.flat is several times slower than this loop in V8 (JSON arrays have no holes).
        const result: JsonValue[] = []
        for (const item of original) {
          if (Array.isArray(item)) for (const inner of item) result.push(inner)
          else result.push(item)
        }
        charge(result.length)
        return result
      }
    }
    case 'MultiSelectList': {
      const children = node.children.map(child)
      return (value) => {
        charge(1)
        if (value === null) return null
        return children.map((select) => select(value))
      }
    }
    case 'MultiSelectHash': {
      const pairs = node.children.map((pair) => ({ name: pair.name, value: child(pair.value) }))
      return (value) => {
        charge(1)
        if (value === null) return null
        const collected: JsonObject = {}
        for (const pair of pairs) setOwn(collected, pair.name, pair.value(value))
        return collected
      }
    }
    case 'OrExpression': {
      const left = child(node.left)
      const right = child(node.right)
      return (value) => {
        charge(1)
        const result = left(value)
        return isFalse(result) ? right(value) : result
      }
    }
    case 'AndExpression': {
      const left = child(node.left)
      const right = child(node.right)
      return (value) => {
        charge(1)
        const result = left(value)
        return isFalse(result) ? result : right(value)
      }
    }
    case 'NotExpression': {
      const inner = child(node.child)
      return (value) => {
        charge(1)
        return isFalse(inner(value))
      }
    }
    case 'Literal': {
      const literal = node.value as JsonValue
      return () => {
        charge(1)
        return literal
      }
    }
    case 'Current':
    case 'Identity':
      return (value) => {
        charge(1)
        return value
      }
    case 'Comparator': {
      if (node.name !== 'EQ' && node.name !== 'NE') break
      const left = child(node.left)
      const right = child(node.right)
      const negated = node.name === 'NE'
      return (value) => {
        charge(1)
        const equal = jsonEqual(left(value), right(value))
        return negated ? !equal : equal
      }
    }
    case 'Function': {
      // Expression references stay nodes: the functions that take them call the interpreter.
      const name = node.name
      const args = node.children.map(child)
      return (value) => {
        charge(1)
        const resolved = args.map((arg) => arg(value))
        return interpreter.runtime.callFunction(name, resolved as JSONValue[]) as JsonValue
      }
    }
    default:
      break
  }
  return (value) => interpreter.visit(node, value as JSONValue) as JsonValue
}

/** The interpreter's #notFound: whether `node` came out null because a field it reads is missing. */
function notFound(node: ExpressionNode, interpreter: KyvernoInterpreter): NotFound {
  switch (node.type) {
    case 'Field': {
      const name = node.name
      return (value) => isJsonObject(value) && !hasOwn(value, name)
    }
    case 'Subexpression': {
      const left = visitor(node.left, interpreter)
      const leftNotFound = notFound(node.left, interpreter)
      const rightNotFound = notFound(node.right, interpreter)
      return (value) => {
        const base = left(value)
        return base === null ? leftNotFound(value) : rightNotFound(base)
      }
    }
    default:
      return () => false
  }
}

function evaluator(node: ExpressionNode, interpreter: KyvernoInterpreter): Closure {
  switch (node.type) {
    case 'Field': {
      const name = node.name
      return (value) => {
        charge(1)
        if (!isJsonObject(value)) return null
        if (!hasOwn(value, name)) throw new JmespathNotFoundError(name)
        return value[name] as JsonValue
      }
    }
    case 'Subexpression':
    case 'IndexExpression': {
      const left = evaluator(node.left, interpreter)
      const right = evaluator(node.right, interpreter)
      return (value) => {
        charge(1)
        return right(left(value))
      }
    }
    case 'AndExpression': {
      const left = visitor(node.left, interpreter)
      const right = evaluator(node.right, interpreter)
      return (value) => {
        charge(1)
        const result = left(value)
        return isFalsy(result) ? result : right(value)
      }
    }
    default: {
      const visit = visitor(node, interpreter)
      return (value) => {
        charge(1)
        return visit(value)
      }
    }
  }
}
