import { isPodController } from '../autogen/pod-controllers.js'
import { podFromController } from '../autogen/pod-from-controller.js'
import { clusterBindings, toCelValue } from '../cel/index.js'
import { groupVersionKindOf } from '../match/kind-selector.js'
import type { Labels } from '../match/label-selector.js'
import type { MatchTarget } from '../match/match-target.js'
import type { TargetPredicate } from '../match/matches-filter.js'
import type { Operation } from '../model/match.js'
import type { EvaluationInput } from './evaluation-input.js'
import type { PrepareOptions } from './prepare-options.js'

const NO_VARIABLES: Readonly<Record<string, unknown>> = Object.freeze({})

/** A resource ready for rules, with what matching needs; its CEL values are converted when a rule first reads them. */
export interface Subject {
  target: MatchTarget
  /**
   * CEL bindings shared by every rule: object, oldObject, request, namespaceObject, params, no
   * variables, and `resource` and `image`, which answer from the input's cluster data.
   */
  readonly bindings: Readonly<Record<string, unknown>>
  /** Values of input-only variables (see CompiledNamedProgram.shareKey), by expression. */
  readonly sharedVariables: Map<string, unknown>
  /** The same object and oldObject as JSON (numbers as numbers), for JMESPath and patterns. */
  json: { object: unknown; oldObject: unknown }
  /** Kyverno's request context for this subject, built by the first classic rule that judges it (see classic/request-context.ts). */
  classicContext?: unknown
}

/**
 * A subject whose CEL bindings are built on first use: pattern and classic rules read JSON, so a
 * ruleset without CEL never pays for converting the document (the larger part of preparing it).
 */
class PreparedSubject implements Subject {
  readonly target: MatchTarget
  readonly json: { object: unknown; oldObject: unknown }
  classicContext?: unknown
  #bindings: Readonly<Record<string, unknown>> | undefined
  #sharedVariables: Map<string, unknown> | undefined
  readonly #buildBindings: () => Readonly<Record<string, unknown>>

  constructor(target: MatchTarget, json: { object: unknown; oldObject: unknown }, buildBindings: () => Readonly<Record<string, unknown>>) {
    this.target = target
    this.json = json
    this.classicContext = undefined
    this.#bindings = undefined
    this.#sharedVariables = undefined
    this.#buildBindings = buildBindings
  }

  get bindings(): Readonly<Record<string, unknown>> {
    return (this.#bindings ??= this.#buildBindings())
  }

  get sharedVariables(): Map<string, unknown> {
    return (this.#sharedVariables ??= new Map())
  }
}

/**
 * One input, prepared once and shared by every rule and ruleset that judges it.
 * The pod view of a controller is built only when an autogen rule first asks for it.
 */
export class PreparedInput {
  readonly subject: Subject
  /** The input as given, for what reads it beside CEL (Kyverno's request context). */
  readonly input: EvaluationInput
  readonly options: PrepareOptions
  /** The object (or oldObject for DELETE) as JSON: what matching and autogen read. */
  readonly #identity: Record<string, unknown>
  #podView: Subject | null | undefined

  constructor(input: EvaluationInput, options: PrepareOptions = {}) {
    this.input = input
    this.options = options
    const operation: Operation = input.request?.operation ?? 'CREATE'
    const json = { object: input.object ?? null, oldObject: input.oldObject ?? null }
    // DELETE requests carry the resource only as oldObject.
    this.#identity = asRecord(json.object) ?? asRecord(json.oldObject) ?? {}
    const target = targetOf(this.#identity, operation, labelsOf(asRecord(input.namespaceObject)))
    const userInfo = input.request?.userInfo
    if (userInfo) target.user = { username: userInfo.username ?? '', groups: userInfo.groups ?? [] }
    this.subject = new PreparedSubject(target, json, () => {
      const { resource, image } = clusterBindings(input.cluster)
      return {
        object: toCelValue(json.object),
        oldObject: toCelValue(json.oldObject),
        request: requestOf(input, target),
        namespaceObject: toCelValue(input.namespaceObject ?? null),
        params: null,
        variables: NO_VARIABLES,
        resource,
        image,
      }
    })
  }

  /**
   * What a rule or policy judges: the object itself when `matches` selects it, else, when the
   * object is one of `controllers`, its pod template presented as a Pod (autogen) if that matches.
   */
  subjectMatching(matches: TargetPredicate, controllers: ReadonlySet<string>): Subject | undefined {
    if (matches(this.subject.target)) return this.subject
    if (controllers.size === 0 || !isPodController(this.subject.target.gvk, controllers)) return undefined
    const pod = this.podView()
    return pod && matches(pod.target) ? pod : undefined
  }

  /** The controller's pod template as a Pod (see autogen), or undefined when there is none. */
  podView(): Subject | undefined {
    if (this.#podView === undefined) this.#podView = this.#buildPodView() ?? null
    return this.#podView ?? undefined
  }

  #buildPodView(): Subject | undefined {
    const pod = podFromController(this.#identity)
    if (!pod) return undefined
    const controller = this.subject
    const json = controller.json
    const jsonOld = asRecord(json.oldObject)
    const podJson = { object: asRecord(json.object) ? pod : null, oldObject: jsonOld ? (podFromController(jsonOld) ?? null) : null }
    const target: MatchTarget = {
      ...targetOf(pod, controller.target.operation, controller.target.namespaceLabels),
      namespace: controller.target.namespace,
    }
    if (controller.target.user) target.user = controller.target.user
    return new PreparedSubject(target, podJson, () => {
      const bindings = controller.bindings
      const object = asRecord(bindings.object)
      const oldObject = asRecord(bindings.oldObject)
      return {
        ...bindings,
        object: object ? (podFromController(object) ?? null) : null,
        oldObject: oldObject ? (podFromController(oldObject) ?? null) : null,
      }
    })
  }
}

function targetOf(resource: Record<string, unknown>, operation: Operation, namespaceLabels: Labels | undefined): MatchTarget {
  const metadata = asRecord(resource.metadata) ?? {}
  return {
    gvk: groupVersionKindOf(resource.apiVersion, resource.kind),
    name: stringOr(metadata.name, stringOr(metadata.generateName, '')),
    namespace: stringOr(metadata.namespace, ''),
    labels: labelsOf(resource) ?? {},
    annotations: stringMap(asRecord(asRecord(resource.metadata)?.annotations)) ?? {},
    namespaceLabels,
    operation,
  }
}

/** The `request` CEL variable, shaped like an admission.k8s.io/v1 AdmissionRequest (it holds no numbers). */
function requestOf(input: EvaluationInput, target: MatchTarget): Record<string, unknown> {
  const request = input.request ?? {}
  return {
    uid: request.uid ?? '',
    kind: { group: target.gvk.group, version: target.gvk.version, kind: target.gvk.kind },
    name: request.name ?? target.name,
    namespace: request.namespace ?? target.namespace,
    operation: target.operation,
    userInfo: { username: '', groups: [], ...request.userInfo },
    dryRun: request.dryRun ?? false,
    ...(request.subResource === undefined ? {} : { subResource: request.subResource }),
  }
}

function labelsOf(resource: Record<string, unknown> | undefined): Labels | undefined {
  return stringMap(asRecord(asRecord(resource?.metadata)?.labels))
}

/** The string entries of a labels or annotations map: the map itself when all are strings, as in any valid object (nothing writes to it). */
function stringMap(labels: Record<string, unknown> | undefined): Labels | undefined {
  if (!labels) return undefined
  let allStrings = true
  for (const key in labels) {
    if (typeof labels[key] !== 'string' || !Object.hasOwn(labels, key)) {
      allStrings = false
      break
    }
  }
  if (allStrings) return labels as Labels
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(labels)) if (typeof value === 'string') out[key] = value
  return out
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
