export {
  ANNOTATIONS,
  exceptionReachesPolicy,
  generateValidatingAdmissionPolicies,
  type ExceptionScope,
  type GenerateOptions,
  type GeneratedForm,
  type GeneratedVap,
  type VapGeneration,
} from './generate-vap.js'
export type { Refusal } from './refusal.js'
export { sameBindingSpec, sameVapSpec } from './api-server-defaults.js'
export { keptInClusterRefusals } from './kept-in-cluster.js'
export { vapYaml } from './vap-yaml.js'
export type * from './admission-policy-types.js'
