export {
  ANNOTATIONS,
  generateValidatingAdmissionPolicies,
  type GenerateOptions,
  type GeneratedForm,
  type GeneratedVap,
  type VapGeneration,
} from './generate-vap.js'
export type { Refusal } from './refusal.js'
export type * from './admission-policy-types.js'
