import type { Environment } from '@marcbachmann/cel-js'

/**
 * Functions such as `strings.quote(s)`, `ip.isCanonical(s)` and `sets.contains(a, b)` parse as
 * method calls on an identifier. cel-js resolves that identifier as a variable, so each namespace
 * is a constant of its own opaque type and the functions are methods of that type (the pattern
 * cel-js itself uses for `cel.bind` and `optional.of`). An iteration variable of the same name
 * still shadows the constant inside its comprehension.
 *
 * Returns the namespace's type name, to be used as the receiver in function signatures.
 */
export function registerNamespace(env: Environment, name: string): string {
  const typeName = `verdict.${name[0]?.toUpperCase() ?? ''}${name.slice(1)}Namespace`
  const Namespace = { [typeName]: class {} }[typeName] as new () => object
  env.registerType(typeName, { ctor: Namespace, fields: {} })
  env.registerConstant(name, typeName, new Namespace())
  return typeName
}
