/**
 * An object from the Kubernetes client as the API server sent it. The typed list calls return
 * class instances with Date fields, the watch raw JSON; caches keep this one form, so that CEL and
 * JMESPath see the same object whichever way it arrived. List items come without apiVersion and
 * kind, which are filled in from `type`.
 */
export function plainJson(object: object, type: { apiVersion: string; kind: string }): Record<string, unknown> {
  // Dates back to the API server's own form (metav1.Time: whole seconds), as the watch sends them.
  const plain = JSON.parse(
    JSON.stringify(object, function (this: Record<string, unknown>, key: string, value: unknown) {
      const original = this[key]
      return original instanceof Date ? `${original.toISOString().slice(0, 19)}Z` : value
    }),
  ) as Record<string, unknown>
  return { ...type, ...plain }
}
