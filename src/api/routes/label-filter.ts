import { InvalidRequestError } from '../../services/service-errors.js'

/**
 * `?label=team=a&label=tier=web` into `{team: 'a', tier: 'web'}`. The keys are the caller's, so
 * the map has no prototype: `__proto__=x` is a label named `__proto__`, not a prototype change
 * that would leave the filter empty and list everything, and `constructor` is just a key.
 */
export function parseLabelFilter(value: string | string[] | undefined): Record<string, string> {
  const entries = value === undefined ? [] : Array.isArray(value) ? value : [value]
  const filter = Object.create(null) as Record<string, string>
  for (const entry of entries) {
    const at = entry.indexOf('=')
    if (at <= 0) throw new InvalidRequestError(`query.label: ${JSON.stringify(entry)} is not key=value`)
    filter[entry.slice(0, at)] = entry.slice(at + 1)
  }
  return filter
}
