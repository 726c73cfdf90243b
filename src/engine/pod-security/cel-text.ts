/**
 * Building blocks of the checks' CEL. `celString` and `celStringList` quote exactly as the
 * authoring catalog's pod-rule.ts does, so the catalog's rules read the same whichever module
 * built them.
 */

/** A CEL string literal (single-quoted, escaped). */
export function celString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`
}

/** A CEL list of string literals. */
export function celStringList(values: readonly string[]): string {
  return `[${values.map(celString).join(', ')}]`
}

/**
 * Every container of the pod, init and ephemeral ones included: Kubernetes runs them with the same
 * privileges, and the standard restricts them all. Checks read it as `variables.containers`.
 * (The catalog binds the same list as pod-rule.ts's ALL_CONTAINERS.)
 */
export const CONTAINERS_VARIABLE = {
  name: 'containers',
  expression: ['containers', 'initContainers', 'ephemeralContainers'].map((list) => listOf(`object.spec.?${list}`)).join(' + '),
}

/** The Linux-only restricted checks do not apply to pods declared as Windows (from v1.25, see WINDOWS_EXEMPTION_VERSION). */
export const UNLESS_WINDOWS = "object.spec.?os.?name.orValue('') == 'windows' || "

/** `c`'s value of a securityContext field (path parts), else the pod's, else `fallback` (CEL): the value the container runs with. */
export function effectiveField(path: readonly string[], fallback: string): string {
  const optional = path.map((part) => `.?${part}`).join('')
  return `c.?securityContext${optional}.orValue(object.spec.?securityContext${optional}.orValue(${fallback}))`
}

/**
 * Go reads a field written as null as absent; CEL would read null. These keep the two in step for
 * the checks that read fields as written (see reading.ts), whose verdicts must match Kubernetes'.
 */
export function present(optional: string): string {
  return `${optional}.orValue(null) != null`
}

/** A list field as Go reads it: absent or null is empty. */
export function listOf(optional: string): string {
  return `(${optional}.orValue(null) == null ? [] : ${optional}.orValue([]))`
}

/** A string field as Go reads it: absent or null is ''. */
export function stringOf(optional: string): string {
  return `(${optional}.orValue(null) == null ? '' : ${optional}.orValue(''))`
}

/** A map field as Go reads it: absent or null is empty. */
export function mapOf(optional: string): string {
  return `(${optional}.orValue(null) == null ? {} : ${optional}.orValue({}))`
}

export type PortRange = readonly [number, number]

/** A CEL test of whether `value` (an int expression) falls in any of the port ranges. */
export function portTest(value: string, ranges: readonly PortRange[]): string {
  const tests = ranges.map(([from, to]) => (from === to ? `${value} == ${from}` : `(${value} >= ${from} && ${value} <= ${to})`))
  return tests.length === 0 ? 'false' : `(${tests.join(' || ')})`
}

/** Port ranges as authors write them: "80", "30000-32767". */
export function portStrings(ranges: readonly PortRange[]): string[] {
  return [...new Set(ranges.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)))]
}

/** "a, b or c". */
export function joinWords(words: readonly string[], conjunction: string): string {
  if (words.length <= 1) return words.join('')
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1] ?? ''}`
}
