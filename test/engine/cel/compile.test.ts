import { describe, expect, it } from 'vitest'
import { CelCompileError, CelEvaluationError, compileCel, toCelValue, type CelActivation } from '../../../src/engine/cel/index.js'
import { evalCel, evalError } from './helpers.js'

function compileError(expression: string): CelCompileError {
  try {
    compileCel(expression)
  } catch (error) {
    if (error instanceof CelCompileError) return error
    throw error
  }
  throw new Error(`expected ${expression} not to compile`)
}

describe('compileCel', () => {
  it('keeps the source and evaluates against an activation', () => {
    const program = compileCel('object.spec.replicas > 1')
    expect(program.source).toBe('object.spec.replicas > 1')
    expect(program.evaluate({ object: toCelValue({ spec: { replicas: 3 } }) })).toBe(true)
    expect(program.evaluate({ object: toCelValue({ spec: { replicas: 1 } }) })).toBe(false)
  })

  it('declares every Kubernetes variable', () => {
    const activation = { object: 1, oldObject: 2, request: 3, namespaceObject: 4, params: 5, variables: 6, authorizer: 7 }
    expect(evalCel('object + oldObject + request + namespaceObject + params + variables + authorizer', activation)).toBe(28n)
  })

  it('parses optional field selection', () => {
    expect(evalCel("object.metadata.?labels[?'app'].orValue('none')", { object: { metadata: {} } })).toBe('none')
    expect(evalCel("object.metadata.?labels[?'app'].orValue('none')", { object: { metadata: { labels: { app: 'web' } } } })).toBe('web')
  })

  it('accepts mixed-type list literals', () => {
    expect(evalCel("[1, 'a', true].size()")).toBe(3n)
  })

  it('reports a syntax error with its line and column', () => {
    const error = compileError('object.a &&\n  (object.b ||')
    expect(error.expression).toBe('object.a &&\n  (object.b ||')
    expect(error.line).toBe(2)
    expect(error.column).toBe(15)
    expect(error.message).toMatch(/^2:15: /)
  })

  it('reports an unknown variable at its position', () => {
    const error = compileError('object.a == objet.b')
    expect(error.summary).toBe('Unknown variable: objet')
    expect([error.line, error.column]).toEqual([1, 13])
    expect(error.message).toContain('1:13: Unknown variable: objet')
  })

  it('reports an unknown function and a wrong argument count', () => {
    expect(compileError('nosuch(object)').summary).toBe("found no matching overload for 'nosuch(dyn)'")
    expect(compileError("'a'.startsWith('a', 'b')").summary).toBe("found no matching overload for 'string.startsWith(string, string)'")
  })

  it('reports an argument of the wrong type', () => {
    expect(compileError("1 + 'a'").summary).toBe("no such overload: int + string")
    expect(compileError("size(1)").summary).toBe("found no matching overload for 'size(int)'")
  })
})

describe('evaluation errors', () => {
  it('names the missing key', () => {
    const error = evalError('object.spec.nope.x', { object: { spec: {} } })
    expect(error).toBeInstanceOf(CelEvaluationError)
    expect((error as CelEvaluationError).expression).toBe('object.spec.nope.x')
    expect(error.message).toBe('No such key: nope (at 1:13)')
  })

  it('reports a type mismatch', () => {
    const error = evalError("object.name + 1", { object: { name: 'web' } })
    expect(error).toBeInstanceOf(CelEvaluationError)
    expect(error.message).toBe('no such overload: string + int (at 1:1)')
  })

  it('reports a missing variable in the activation', () => {
    expect(evalError('oldObject.x').message).toBe('Unknown variable: oldObject (at 1:1)')
  })

  it('reports a division by zero', () => {
    expect(evalError('object.a / object.b', { object: { a: 1, b: 0 } }).message).toBe('division by zero (at 1:1)')
  })
})

describe('lazy variables', () => {
  it('evaluates variables.x through a getter and never calls an unused one', () => {
    const calls: string[] = []
    const variables: Record<string, unknown> = {}
    const activation: CelActivation = { object: toCelValue({ spec: { replicas: 3 } }), variables }
    const define = (name: string, expression: string): void => {
      const program = compileCel(expression)
      Object.defineProperty(variables, name, {
        enumerable: true,
        configurable: true,
        get() {
          calls.push(name)
          const value = program.evaluate(activation)
          Object.defineProperty(variables, name, { value, enumerable: true })
          return value
        },
      })
    }
    define('replicas', 'object.spec.replicas')
    define('double', 'variables.replicas * 2')
    define('unused', 'object.spec.nope.x')

    expect(compileCel('variables.double + variables.replicas').evaluate(activation)).toBe(9n)
    expect(compileCel('has(variables.double)').evaluate(activation)).toBe(true)
    expect(calls).toEqual(['double', 'replicas'])
  })
})
