/** One thing wrong with a ruleset or policy definition, located by its field path. */
export interface DefinitionProblem {
  /** e.g. `spec.rules[2].validate.cel[0].expression` */
  path: string
  message: string
}

/** Joins a base path and a JSON pointer into the dotted/indexed form users read in error messages. */
export function fieldPath(base: string, pointer: string): string {
  let path = base
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (/^\d+$/.test(segment)) path += `[${segment}]`
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) path += path ? `.${segment}` : segment
    else path += `[${JSON.stringify(segment)}]`
  }
  return path
}
