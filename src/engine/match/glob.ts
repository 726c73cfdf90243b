const compiled = new Map<string, RegExp>()

/** Shell-style glob over a whole string: `*` any run, `?` one character; everything else literal. */
export function matchesGlob(value: string, pattern: string): boolean {
  if (pattern === '*') return true
  if (!pattern.includes('*') && !pattern.includes('?')) return value === pattern
  let regex = compiled.get(pattern)
  if (!regex) {
    const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
    regex = new RegExp(`^${body}$`, 's')
    compiled.set(pattern, regex)
  }
  return regex.test(value)
}

export function matchesAnyGlob(value: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesGlob(value, pattern))
}
