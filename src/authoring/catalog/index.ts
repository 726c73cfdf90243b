import type { RuleTemplate } from './rule-template.js'
import type { NamedRequirement } from './named-requirement.js'
import { METADATA_AND_NETWORKING_ENTRIES } from './entries/metadata-and-networking.js'
import { POD_SECURITY_ENTRIES } from './entries/pod-security.js'
import { templateOf } from './entry-template.js'
import { VOCABULARY_OF_ENTRIES } from './vocabulary/index.js'
import { GENERIC_JSON_ENTRIES } from './entries/generic-json.js'
import { TERRAFORM_ENTRIES } from './entries/terraform.js'
import { WORKLOAD_PRACTICES_ENTRIES } from './entries/workload-practices.js'

export type * from './rule-template.js'

/** The templates named requirements (entries/) are, with the shared vocabulary. */
export function templatesOf(entries: readonly NamedRequirement[]): RuleTemplate[] {
  return entries.map((entry) => templateOf(entry, VOCABULARY_OF_ENTRIES))
}

/** The Pod Security Standards controls and the two profiles (recommendations tell the controls apart). */
export const POD_SECURITY_TEMPLATES: readonly RuleTemplate[] = templatesOf(POD_SECURITY_ENTRIES)

/** The workload best practices (entries/workload-practices.ts) as templates. */
export const WORKLOAD_TEMPLATES: readonly RuleTemplate[] = templatesOf(WORKLOAD_PRACTICES_ENTRIES)

/** Labels, annotations, namespace, Service types, Ingress hosts and TLS, replicas, HPA, PodDisruptionBudgets. */
export const METADATA_AND_NETWORKING_TEMPLATES: readonly RuleTemplate[] = templatesOf(METADATA_AND_NETWORKING_ENTRIES)

/** The Terraform plan requirements (entries/terraform.ts). */
export const TERRAFORM_TEMPLATES: readonly RuleTemplate[] = templatesOf(TERRAFORM_ENTRIES)

/** The requirements on one field of any JSON document (entries/generic-json.ts). */
export const GENERIC_JSON_TEMPLATES: readonly RuleTemplate[] = templatesOf(GENERIC_JSON_ENTRIES)

/** Every template, in a fixed order: ties and listings are deterministic. */
export const CATALOG: readonly RuleTemplate[] = [
  ...POD_SECURITY_TEMPLATES,
  ...WORKLOAD_TEMPLATES,
  ...METADATA_AND_NETWORKING_TEMPLATES,
  ...TERRAFORM_TEMPLATES,
  ...GENERIC_JSON_TEMPLATES,
]

const byId = new Map(CATALOG.map((template) => [template.id, template]))
if (byId.size !== CATALOG.length) throw new Error('two catalog templates share an id')

export function templateById(id: string): RuleTemplate | undefined {
  return byId.get(id)
}

/** Every word the catalog's titles, phrasings and questions use: what instructions are made of. */
export const CATALOG_WORDS: ReadonlySet<string> = new Set(
  CATALOG.flatMap((template) => [template.title, ...template.phrasings, ...template.parameters.map((parameter) => parameter.question)])
    .join(' ')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0),
)

/** Words instructions are made of: typos are corrected towards these. */
export const VOCABULARY: ReadonlySet<string> = new Set(
  [
    ...CATALOG.flatMap((template) => [...template.phrasings, template.title]),
    'containers container pods pod images image registry registries labels label annotations annotation required require requires must should need needs',
    'deployments deployment statefulsets daemonsets replicas namespaces namespace services service ingress ingresses secrets privileged',
  ]
    .join(' ')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length >= 5),
)
