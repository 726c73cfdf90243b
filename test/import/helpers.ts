import * as yaml from 'js-yaml'

/**
 * Parses inline multi-document YAML written indented inside a template literal: the common
 * indentation is removed first so tests can keep their YAML aligned with the code.
 */
export function docs(text: string): unknown[] {
  const lines = text.replace(/^\n/, '').split('\n')
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0)
  const indent = Math.min(...indents)
  const body = lines.map((line) => line.slice(indent)).join('\n')
  return yaml.loadAll(body).filter((doc) => doc !== null && doc !== undefined)
}
