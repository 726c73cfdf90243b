const ELLIPSIS = '\u2026'

/**
 * At most `limit` characters, the last one an ellipsis when text was cut. Counted in code points,
 * as the Kubernetes API server counts warning length (runes), and never splitting a surrogate pair.
 */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text
  const points = Array.from(text)
  if (points.length <= limit) return text
  return `${points.slice(0, Math.max(0, limit - 1)).join('')}${ELLIPSIS}`
}
