import { containersOf, firstContainerOf, mapIn, metadataOf, podSpecsOf } from '../../samples/document-parts.js'
import type { Vocabulary } from '../vocabulary.js'

type Json = Record<string, unknown>

/** The pod spec of a Pod or of a controller's pod template. */
export function podSpecOf(document: Json): Json {
  const [spec] = podSpecsOf(document)
  if (!spec) throw new Error(`a ${String(document.kind)} sample has no pod spec`)
  return spec
}

/** The first init container, added when the sample has none. */
export function firstInitContainerOf(document: Json): Json {
  const [init] = containersOf(document, ['initContainers'])
  if (init) return init
  const created: Json = { name: 'init', image: 'registry.example.com/payments/init:1.0.0', securityContext: {} }
  podSpecOf(document).initContainers = [created]
  return created
}

/**
 * The metadata of the pod itself: a Pod's own, a controller's pod template's. Annotations that
 * configure containers (AppArmor) only count there; the engine's autogen reads the template's.
 */
export function podMetadataOf(document: Json): Json {
  if (document.kind === 'Pod') return metadataOf(document)
  const spec = mapIn(document, 'spec')
  const template = document.kind === 'CronJob' ? mapIn(mapIn(mapIn(spec, 'jobTemplate'), 'spec'), 'template') : mapIn(spec, 'template')
  return mapIn(template, 'metadata')
}

/** Places in any sample document that entries' edits name (`at`); a place may be several objects (every container). */
export const PLACES: Vocabulary = {
  places: {
    document: (document) => document,
    metadata: metadataOf,
    /** The object's spec (Services, Ingresses, autoscalers, budgets), created if missing. */
    spec: (document) => mapIn(document, 'spec'),
    'pod-metadata': podMetadataOf,
    'pod-spec': podSpecOf,
    'pod-security-context': (document) => mapIn(podSpecOf(document), 'securityContext'),
    'first-container': firstContainerOf,
    'first-init-container': firstInitContainerOf,
    /** Every container of the pod, init and ephemeral ones included: an edit applies to each. */
    'every-container': (document) => containersOf(document),
    // Probes exist on app containers only; resources and ports on app and init ones.
    'app-containers': (document) => containersOf(document, ['containers']),
    'app-and-init-containers': (document) => containersOf(document, ['containers', 'initContainers']),
  },
}
