const SOURCE_COMMENT = /^#\s*Source:\s*(\S.*?)\s*$/

/**
 * The template `helm template` rendered a document from: it writes `# Source: chart/templates/x.yaml`
 * between the `---` and the document. Looks upward from the document's first line through comments
 * and blank lines, and stops at the separator so another document's comment is never taken.
 */
export function helmSourceOf(lines: readonly string[], documentLine: number): string | undefined {
  for (let index = documentLine - 2; index >= 0; index -= 1) {
    const line = (lines[index] as string).trim()
    const source = SOURCE_COMMENT.exec(line)
    if (source) return source[1]
    if (line.startsWith('---') || (line !== '' && !line.startsWith('#'))) return undefined
  }
  return undefined
}
