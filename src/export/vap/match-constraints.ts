import type { LabelSelector } from '../../engine/model/label-selector.js'
import type { Match, MatchFilter, ResourceFilter, Subject } from '../../engine/model/match.js'
import type { MatchResources, NamedExpression, ResourceRule, VapOperation } from './admission-policy-types.js'
import { globsCel, labelSelectorCel, labelsOf } from './match-cel.js'
import { rewriteForPodTemplate, NotRewritable, TEMPLATE_PATH, type TemplateForm } from './pod-template-view.js'
import { CannotGenerate } from './refusal.js'
import { kindsSelect, neverAdmittedRules, resourceRulesOf, resourceTargetsOfKinds, type ResourceTarget } from './resource-rules.js'

/** Which object a match is judged on: the object itself, or (autogen) a controller's pod template. */
export type MatchView = { form: 'object' } | { form: TemplateForm; controllers: readonly string[] }

/** The pod controllers autogen reaches, with the resource each is requested as. */
export const CONTROLLER_RESOURCES: Readonly<Record<string, { group: string; resource: string }>> = {
  Deployment: { group: 'apps', resource: 'deployments' },
  ReplicaSet: { group: 'apps', resource: 'replicasets' },
  StatefulSet: { group: 'apps', resource: 'statefulsets' },
  DaemonSet: { group: 'apps', resource: 'daemonsets' },
  Job: { group: 'batch', resource: 'jobs' },
  ReplicationController: { group: '', resource: 'replicationcontrollers' },
  CronJob: { group: 'batch', resource: 'cronjobs' },
}

export interface TranslatedMatch {
  resources: MatchResources
  conditions: NamedExpression[]
}

export interface TranslateOptions {
  /** Operations when the match names none: CREATE and UPDATE for a rule, any for a policy. */
  defaultOperations: VapOperation[]
  /** Whether the match is a policy's (its CEL conditions are not judged by Verdict) or a rule's. */
  level: 'rule' | 'policy'
}

const ALTERNATIVE_FIELDS: ReadonlySet<string> = new Set(['kinds', 'operations', 'names'])

/**
 * A Verdict match as matchConstraints (or a binding's matchResources) and matchConditions, judged
 * on the view's object. Kinds, operations and exact names become resource rules (one per
 * alternative of `any`), selectors the selectors; what those cannot say exactly becomes a match
 * condition; what neither can is refused, naming the field. Answers undefined when the match can
 * never select the view (a template view of a match that names no Pod).
 */
export function translateMatch(match: Match | undefined, view: MatchView, field: string, options: TranslateOptions): TranslatedMatch | undefined {
  const source: Match = match ?? {}
  if (source.all) throw new CannotGenerate(`${field}.all`, 'a match with `all` (several conjunctive filters) is not generated: write its parts in one filter')
  const subject = subjectOf(source, options)
  const alternatives = alternativesOf(source, field, view)
  if (alternatives.length === 0) return undefined

  const resources: MatchResources = {}
  const conditions: NamedExpression[] = []
  const positive = alternatives.flatMap((alternative) => resourceRulesOf(alternative.targets, alternative.operations ?? options.defaultOperations, alternative.names))
  // A binding for every resource must not drop the subresource requests its policy matches (pods/exec).
  if (options.level === 'policy') for (const rule of positive) if (rule.resources.length === 1 && rule.resources[0] === '*') rule.resources.push('*/*')
  if (options.level === 'rule' || positive.some((rule) => !isEverything(rule))) resources.resourceRules = positive
  const excluded = excludeRulesOf(source.exclude, `${field}.exclude`, view)
  // A rule for every resource: Verdict's webhook still never judges leases and events.
  if (options.level === 'rule' && positive.some((rule) => rule.resources.includes('*') && rule.apiGroups.some((group) => ['*', '', 'coordination.k8s.io', 'events.k8s.io'].includes(group)))) {
    excluded.push(...neverAdmittedRules())
  }
  if (excluded.length > 0) resources.excludeResourceRules = excluded
  if (source.namespaceSelector) resources.namespaceSelector = source.namespaceSelector
  if (source.labelSelector) conditions.push(...labelConditions(source.labelSelector, view, subject, resources, alternatives))
  const mayBeNamespace = alternatives.some((alternative) => kindsSelect(alternative.kinds, '', 'v1', 'Namespace'))
  if (source.namespaces) conditions.push({ name: 'verdict-namespaces', expression: globsCel(namespaceOf(view, subject, mayBeNamespace), source.namespaces) })
  if (source.excludeNamespaces) {
    const namespace = namespaceOf(view, subject, mayBeNamespace)
    conditions.push({ name: 'verdict-exclude-namespaces', expression: `${namespace} == '' || !${globsCel(namespace, source.excludeNamespaces)}` })
  }
  const globNames = alternatives[0]?.globNames
  if (globNames) conditions.push({ name: 'verdict-names', expression: globsCel(nameOf(view, subject), globNames) })
  if (source.annotations && Object.keys(source.annotations).length > 0) conditions.push({ name: 'verdict-annotations', expression: annotationsCel(view, subject, source.annotations) })
  if (source.subjects) conditions.push({ name: 'verdict-subjects', expression: subjectsCel(source.subjects) })
  if (alternatives.some((alternative) => alternative.versioned)) resources.matchPolicy = 'Exact'
  if (view.form !== 'object') conditions.unshift({ name: 'verdict-pod-template', expression: templatePresent(subject, view.form) })
  if (options.level === 'rule') conditions.push(...userConditions(source, view, field))
  return { resources, conditions }
}

interface Alternative {
  kinds: string[] | undefined
  operations: VapOperation[] | undefined
  names: string[] | undefined
  /** Names with `*` or `?`, which resourceNames cannot say: a match condition does (top level only). */
  globNames: string[] | undefined
  versioned: boolean
  targets: ResourceTarget[]
}

/** The alternatives of the positive part: the top-level filter with each entry of `any` (or alone). */
function alternativesOf(match: Match, field: string, view: MatchView): Alternative[] {
  const entries: { filter: ResourceFilter; field: string }[] = match.any ? match.any.map((filter, i) => ({ filter, field: `${field}.any[${i}]` })) : [{ filter: {}, field }]
  const out: Alternative[] = []
  for (const entry of entries) {
    for (const key of Object.keys(entry.filter)) {
      if (!ALTERNATIVE_FIELDS.has(key)) throw new CannotGenerate(`${entry.field}.${key}`, `\`${key}\` inside one alternative of \`any\` has no ValidatingAdmissionPolicy equivalent (resource rules carry kinds, operations and names only)`)
    }
    const kinds = either(match.kinds, entry.filter.kinds, `${entry.field}.kinds`)
    const operations = either(match.operations, entry.filter.operations, `${entry.field}.operations`)
    const allNames = either(match.names, entry.filter.names, `${entry.field}.names`)
    const hasGlob = allNames?.some((name) => name.includes('*') || name.includes('?')) ?? false
    if (hasGlob && entry.filter.names) throw new CannotGenerate(`${entry.field}.names`, 'name globs inside one alternative of `any` have no ValidatingAdmissionPolicy equivalent (resourceNames are exact names)')
    if (view.form !== 'object') {
      checkNoDirectMatch(kinds, view.controllers, `${entry.field}.kinds`)
      if (!kindsSelect(kinds, '', 'v1', 'Pod')) continue
    }
    const targets = view.form === 'object' ? resourceTargetsOfKinds(kinds, `${entry.field}.kinds`) : controllerTargets(view.controllers)
    out.push({
      kinds,
      operations: operations as VapOperation[] | undefined,
      names: hasGlob ? undefined : allNames,
      globNames: hasGlob ? allNames : undefined,
      versioned: targets.some((target) => target.versioned),
      targets,
    })
  }
  return out
}

function either<T>(top: T | undefined, alternative: T | undefined, field: string): T | undefined {
  if (top !== undefined && alternative !== undefined) throw new CannotGenerate(field, 'is given both at the top of the match and inside `any`; the generator does not intersect them')
  return alternative ?? top
}

/**
 * Verdict judges a controller by its own match first and by its pod template only when that
 * fails; a ValidatingAdmissionPolicy cannot say "only when the other did not match".
 */
function checkNoDirectMatch(kinds: readonly string[] | undefined, controllers: readonly string[], field: string): void {
  for (const controller of controllers) {
    const resource = CONTROLLER_RESOURCES[controller]
    if (resource && kindsSelect(kinds, resource.group, 'v1', controller)) {
      throw new CannotGenerate(field, `matches ${controller} itself and, by autogen, its pod template: Verdict judges the template only when the ${controller} does not match, which a ValidatingAdmissionPolicy cannot express (switch autogen off or name Pods only)`)
    }
  }
}

function controllerTargets(controllers: readonly string[]): ResourceTarget[] {
  const byGroup = new Map<string, string[]>()
  for (const controller of controllers) {
    const resource = CONTROLLER_RESOURCES[controller]
    if (!resource) continue
    byGroup.set(resource.group, [...(byGroup.get(resource.group) ?? []), resource.resource])
  }
  return [...byGroup.entries()].map(([group, resources]) => ({ apiGroups: [group], apiVersions: ['*'], resources, versioned: false }))
}

function isEverything(rule: ResourceRule): boolean {
  return rule.apiGroups.includes('*') && rule.resources.includes('*') && rule.apiVersions.includes('*') && rule.operations.includes('*') && !rule.resourceNames
}

const EXCLUDE_FIELDS: ReadonlySet<string> = new Set(['kinds', 'operations', 'names', 'any'])

/** Exclusions by kind, operation and exact name; anything else in an exclusion is refused. */
function excludeRulesOf(exclude: MatchFilter | undefined, field: string, view: MatchView): ResourceRule[] {
  if (!exclude || Object.values(exclude).every((value) => value === undefined)) return []
  for (const key of Object.keys(exclude)) {
    if (!EXCLUDE_FIELDS.has(key)) throw new CannotGenerate(`${field}.${key}`, `an exclusion by \`${key}\` has no ValidatingAdmissionPolicy equivalent (excludeResourceRules carry kinds, operations and names only)`)
  }
  const entries: { filter: ResourceFilter; field: string }[] = exclude.any ? exclude.any.map((filter, i) => ({ filter, field: `${field}.any[${i}]` })) : [{ filter: {}, field }]
  const rules: ResourceRule[] = []
  for (const entry of entries) {
    for (const key of Object.keys(entry.filter)) {
      if (!ALTERNATIVE_FIELDS.has(key)) throw new CannotGenerate(`${entry.field}.${key}`, `an exclusion by \`${key}\` has no ValidatingAdmissionPolicy equivalent (excludeResourceRules carry kinds, operations and names only)`)
    }
    const kinds = either(exclude.kinds, entry.filter.kinds, `${entry.field}.kinds`)
    const operations = either(exclude.operations, entry.filter.operations, `${entry.field}.operations`) as VapOperation[] | undefined
    const names = either(exclude.names, entry.filter.names, `${entry.field}.names`)
    if (names?.some((name) => name.includes('*') || name.includes('?'))) throw new CannotGenerate(`${entry.field}.names`, 'an exclusion by name globs has no ValidatingAdmissionPolicy equivalent (resourceNames are exact names)')
    let targets: ResourceTarget[]
    if (view.form === 'object') {
      // Excluding every kind excludes subresource requests too, as Verdict's `*` does.
      targets = kinds === undefined || kinds.includes('*') ? [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*', '*/*'], versioned: false }] : resourceTargetsOfKinds(kinds, `${entry.field}.kinds`)
      if (targets.some((target) => target.versioned)) throw new CannotGenerate(`${entry.field}.kinds`, 'an exclusion of one version of a kind is not generated')
    } else {
      // The template is judged as a Pod: an exclusion that names no Pod never applies to it.
      if (!kindsSelect(kinds, '', 'v1', 'Pod')) continue
      targets = controllerTargets(view.controllers)
    }
    rules.push(...resourceRulesOf(targets, operations ?? ['*'], names))
  }
  return rules
}

/** The object the view's identity comes from: the object, or for a DELETE the old object. */
function subjectOf(match: Match, options: TranslateOptions): string {
  const operations = [match.operations, ...(match.any ?? []).map((filter) => filter.operations)].filter((list) => list !== undefined)
  const mayDelete = operations.length === 0 ? options.defaultOperations.some((op) => op === 'DELETE' || op === '*') : operations.some((list) => list.includes('DELETE'))
  return mayDelete ? '(object != null ? object : oldObject)' : 'object'
}

function templateOf(subject: string, form: TemplateForm): string {
  return `${subject}.${TEMPLATE_PATH[form]}`
}

/** Verdict judges a controller without a pod template by nothing at all. */
function templatePresent(subject: string, form: TemplateForm): string {
  const steps = TEMPLATE_PATH[form].split('.')
  return steps.map((_, i) => `has(${subject}.${steps.slice(0, i + 1).join('.')})`).join(' && ')
}

/**
 * The object's labels. objectSelector also selects an UPDATE whose old object has the labels where
 * Verdict reads the new object's only, so a match condition narrows UPDATEs to the new labels.
 * Under autogen the labels are the pod template's: a match condition says it all.
 */
function labelConditions(selector: LabelSelector, view: MatchView, subject: string, resources: MatchResources, alternatives: readonly Alternative[]): NamedExpression[] {
  if (view.form !== 'object') return [{ name: 'verdict-template-labels', expression: labelSelectorCel(labelsOf(templateOf(subject, view.form)), selector) }]
  resources.objectSelector = selector
  const updates = alternatives.some((alternative) => alternative.operations === undefined || alternative.operations.includes('UPDATE'))
  if (!updates) return []
  return [{ name: 'verdict-object-labels', expression: `request.operation != 'UPDATE' || ${labelSelectorCel(labelsOf('object'), selector)}` }]
}

/** The namespace Verdict matches: a Namespace's own name, '' for other cluster-scoped objects; under autogen the controller's. */
function namespaceOf(view: MatchView, subject: string, mayBeNamespace: boolean): string {
  const own = `(has(${subject}.metadata.namespace) ? ${subject}.metadata.namespace : '')`
  if (view.form !== 'object' || !mayBeNamespace) return own
  return `(${subject}.kind == 'Namespace' && !${subject}.apiVersion.contains('/') ? ${subject}.metadata.name : ${own})`
}

/** The name Verdict matches: metadata.name, else generateName; under autogen the controller's, else the template's. */
function nameOf(view: MatchView, subject: string): string {
  const of = (object: string): string => `(has(${object}.metadata.name) ? ${object}.metadata.name : has(${object}.metadata.generateName) ? ${object}.metadata.generateName : '')`
  if (view.form === 'object') return of(subject)
  const template = templateOf(subject, view.form)
  return `(has(${subject}.metadata.name) ? ${subject}.metadata.name : has(${template}.metadata) ? ${of(template)} : '')`
}

/** Every wanted entry matches some annotation, key and value each as a glob. */
function annotationsCel(view: MatchView, subject: string, wanted: Record<string, string>): string {
  const owner = view.form === 'object' ? subject : templateOf(subject, view.form)
  const annotations = `(has(${owner}.metadata) && has(${owner}.metadata.annotations) ? ${owner}.metadata.annotations : {})`
  return Object.entries(wanted)
    .map(([key, value]) => `${annotations}.exists(k, ${globsCel('k', [key])} && ${globsCel(`${annotations}[k]`, [value])})`)
    .join(' && ')
}

/** One subject matches the requester: a user's name, one of its groups, or a service account's username (globs). */
function subjectsCel(subjects: readonly Subject[]): string {
  const parts = subjects.map((subject) => {
    switch (subject.kind) {
      case 'User':
        return globsCel('request.userInfo.username', [subject.name])
      case 'Group':
        return `request.userInfo.groups.exists(g, ${globsCel('g', [subject.name])})`
      case 'ServiceAccount':
        return globsCel('request.userInfo.username', [`system:serviceaccount:${subject.namespace ?? ''}:${subject.name}`])
    }
  })
  return parts.length === 1 ? (parts[0] as string) : parts.map((part) => `(${part})`).join(' || ')
}

/** The rule's own CEL conditions, under autogen reading the template. */
function userConditions(match: Match, view: MatchView, field: string): NamedExpression[] {
  return (match.conditions ?? []).map((condition, i) => {
    let expression = condition.expression
    if (view.form !== 'object') {
      try {
        expression = rewriteForPodTemplate(expression, view.form)
      } catch (error) {
        if (error instanceof NotRewritable) throw new CannotGenerate(`${field}.conditions[${i}].expression`, `under autogen ${error.message}`)
        throw error
      }
    }
    return { name: conditionName(condition.name, i), expression }
  })
}

const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/

/** A matchCondition name must be a qualified name of at most 63 characters; Verdict's may be anything. */
function conditionName(name: string | undefined, index: number): string {
  if (name !== undefined && name.length <= 63 && QUALIFIED_NAME.test(name)) return name
  return `condition-${index}`
}

