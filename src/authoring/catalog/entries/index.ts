import type { NamedRequirement } from '../named-requirement.js'
import { POD_SECURITY_ENTRIES } from './pod-security.js'
import { WORKLOAD_PRACTICES_ENTRIES } from './workload-practices.js'

/** Every named requirement written as data. Each area adds its entries here. */
export const CATALOG_ENTRIES: readonly NamedRequirement[] = [...POD_SECURITY_ENTRIES, ...WORKLOAD_PRACTICES_ENTRIES]
