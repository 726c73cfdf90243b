import { InvalidRequestError } from '../../services/service-errors.js'

/** `?label=team=a&label=tier=web` into `{team: 'a', tier: 'web'}`. */
export function parseLabelFilter(value: string | string[] | undefined): Record<string, string> {
  const entries = value === undefined ? [] : Array.isArray(value) ? value : [value]
  const filter: Record<string, string> = {}
  for (const entry of entries) {
    const at = entry.indexOf('=')
    if (at <= 0) throw new InvalidRequestError(`query.label: ${JSON.stringify(entry)} is not key=value`)
    filter[entry.slice(0, at)] = entry.slice(at + 1)
  }
  return filter
}
