import * as yaml from 'js-yaml'
import type { GeneratedVap } from './generate-vap.js'

/**
 * Each policy followed by its binding, as one multi-document YAML stream `kubectl apply -f -` and
 * `verdict import` read. Expressions stay on one line each, in double quotes when quoted, so CEL's
 * single-quoted strings read as written.
 */
export function vapYaml(policies: readonly GeneratedVap[]): string {
  return policies
    .flatMap((generated) => [generated.policy, generated.binding])
    .map((manifest) => yaml.dump(manifest, { noRefs: true, lineWidth: -1, quoteStyle: 'double' }).trimEnd())
    .join('\n---\n')
}
