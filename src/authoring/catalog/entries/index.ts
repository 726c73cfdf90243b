import type { NamedRequirement } from '../named-requirement.js'
import { GENERIC_JSON_ENTRIES } from './generic-json.js'
import { METADATA_AND_NETWORKING_ENTRIES } from './metadata-and-networking.js'
import { POD_SECURITY_ENTRIES } from './pod-security.js'
import { TERRAFORM_ENTRIES } from './terraform.js'
import { WORKLOAD_PRACTICES_ENTRIES } from './workload-practices.js'

/** Every named requirement written as data, in the catalog's order. Each area adds its entries here. */
export const CATALOG_ENTRIES: readonly NamedRequirement[] = [
  ...POD_SECURITY_ENTRIES,
  ...WORKLOAD_PRACTICES_ENTRIES,
  ...METADATA_AND_NETWORKING_ENTRIES,
  ...TERRAFORM_ENTRIES,
  ...GENERIC_JSON_ENTRIES,
]
