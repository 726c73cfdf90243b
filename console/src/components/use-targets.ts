import type { ApiClient } from '../api/api-client.js'
import type { PolicyDefinition, RulesetDefinition } from '../api/types.js'
import { useLoad, type Loaded } from './use-api.js'

/** Every stored policy and ruleset, as `policies/<name>` and `rulesets/<name>`: what Try it and Timeseries pick from. */
export function useTargets(api: ApiClient): Loaded<string[]> {
  return useLoad(async () => {
    const [{ policies }, { rulesets }] = await Promise.all([
      api.request<{ policies: PolicyDefinition[] }>('/api/policies'),
      api.request<{ rulesets: RulesetDefinition[] }>('/api/rulesets'),
    ])
    return [...policies.map((policy) => `policies/${policy.name}`), ...rulesets.map((ruleset) => `rulesets/${ruleset.name}`)]
  }, 'targets')
}

/** A target as the evaluation and timeseries routes take it: `policies/<name, encoded>`. */
export function targetPath(target: string): string {
  const [kind, ...rest] = target.split('/')
  return `${kind}/${encodeURIComponent(rest.join('/'))}`
}
