/**
 * JSON with every object's keys sorted (and undefined members left out), so two equal values give
 * equal text whatever their key order: the API server hands custom resources back with their keys
 * sorted, and jsonb reorders them too.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  )
}
