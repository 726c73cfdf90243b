import type { NamedRequirement } from '../named-requirement.js'
import { METADATA_AND_NETWORKING_ENTRIES } from './metadata-and-networking.js'
import { POD_SECURITY_ENTRIES } from './pod-security.js'

/** Every named requirement written as data. Each area adds its entries here. */
export const CATALOG_ENTRIES: readonly NamedRequirement[] = [...POD_SECURITY_ENTRIES, ...METADATA_AND_NETWORKING_ENTRIES]
