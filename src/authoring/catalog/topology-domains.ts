/**
 * The failure domains pods are spread over, and the well-known node label Kubernetes gives each
 * (the `topologyKey` a spread constraint or an anti-affinity names): "spread over nodes and
 * zones" means `kubernetes.io/hostname` and `topology.kubernetes.io/zone`. A domain not listed
 * here is not understood.
 */
export interface TopologyDomain {
  /** How authors name it, lowercased and singular. */
  readonly names: readonly string[]
  readonly topologyKey: string
}

export const TOPOLOGY_DOMAINS: readonly TopologyDomain[] = [
  { names: ['node', 'host', 'hostname', 'machine'], topologyKey: 'kubernetes.io/hostname' },
  { names: ['zone', 'availability zone'], topologyKey: 'topology.kubernetes.io/zone' },
  { names: ['region'], topologyKey: 'topology.kubernetes.io/region' },
]

/** The topology key a domain's name says ("zones", "availability zones"), or undefined. */
export function topologyKeyOf(name: string): string | undefined {
  const wanted = name.trim().toLowerCase().replace(/\s+/g, ' ').replace(/s$/, '')
  return TOPOLOGY_DOMAINS.find((domain) => domain.names.includes(wanted))?.topologyKey
}
