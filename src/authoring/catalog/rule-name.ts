/**
 * A rule name made of parameter values ("images-only-from-registry-acme-io"): lowercase letters,
 * digits and dashes, at most 63 characters, as a DNS label, so it reads well in results and in
 * `kubectl` denial messages. `fallback` when nothing of the parts survives.
 */
export function ruleNameFrom(parts: ReadonlyArray<string | number>, fallback = 'rule'): string {
  return (
    parts
      .join('-')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63)
      .replace(/-+$/, '') || fallback
  )
}
