import * as yaml from 'js-yaml'
import type { GeneratedVap } from './generate-vap.js'

/** Each policy followed by its binding, as one multi-document YAML stream `kubectl apply -f -` and `verdict import` read. */
export function vapYaml(policies: readonly GeneratedVap[]): string {
  return policies
    .flatMap((generated) => [generated.policy, generated.binding])
    .map((manifest) => yaml.dump(manifest, { noRefs: true, lineWidth: -1 }).trimEnd())
    .join('\n---\n')
}
