/**
 * How an audit route's name parameter selects names: `*` selects all, a name with `*` or `?`
 * is a glob (`*` any run of characters, `?` exactly one), anything else is an exact name.
 */
export type NameSelector = { kind: 'all' } | { kind: 'exact'; name: string } | { kind: 'like'; pattern: string }

export function nameSelector(name: string): NameSelector {
  if (/^\*+$/.test(name)) return { kind: 'all' }
  if (!/[*?]/.test(name)) return { kind: 'exact', name }
  return { kind: 'like', pattern: globToLike(name) }
}

/** A LIKE pattern (escape character `\`) matching exactly what the glob matches. */
export function globToLike(glob: string): string {
  let pattern = ''
  for (const char of glob) {
    if (char === '*') pattern += '%'
    else if (char === '?') pattern += '_'
    else if (char === '%' || char === '_' || char === '\\') pattern += `\\${char}`
    else pattern += char
  }
  return pattern
}

/**
 * The SQL condition on `column` of an audit table for a selector, its parameter appended to
 * `params`. `all` yields TRUE so the time-ordered index serves the query.
 */
export function nameCondition(column: string, selector: NameSelector, params: unknown[]): string {
  if (selector.kind === 'all') return 'TRUE'
  if (selector.kind === 'exact') {
    params.push(selector.name)
    return `${column} = $${params.length}`
  }
  params.push(selector.pattern)
  return `${column} LIKE $${params.length} ESCAPE '\\'`
}

/** The same selection on an audit counter table, where the name '' holds the count of every name. */
export function counterNameCondition(selector: NameSelector, params: unknown[]): string {
  if (selector.kind === 'all') return "name = ''"
  if (selector.kind === 'exact') {
    params.push(selector.name)
    return `name = $${params.length}`
  }
  params.push(selector.pattern)
  return `name LIKE $${params.length} ESCAPE '\\' AND name <> ''`
}
