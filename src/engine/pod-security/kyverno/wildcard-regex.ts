/**
 * Kyverno's wildcard patterns (IGLOU-EU/go-wildcard v1, as engine/pattern/wildcard.ts matches
 * them: `*` any run of characters, `?` exactly one, everything else literal, the whole string)
 * as one RE2 pattern for CEL's `matches`, true when any of the patterns matches. An empty
 * pattern matches only the empty string.
 */
export function wildcardRegex(patterns: readonly string[]): string {
  return `^(?s:${patterns.map(patternRegex).join('|')})$`
}

function patternRegex(pattern: string): string {
  let regex = ''
  for (const character of pattern) {
    if (character === '*') regex += '.*'
    else if (character === '?') regex += '.'
    else regex += /[\\^$.|?*+()[\]{}]/.test(character) ? `\\${character}` : character
  }
  return `(?:${regex})`
}
