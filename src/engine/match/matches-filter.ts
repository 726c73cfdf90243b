import type { MatchFilter, ResourceFilter, Subject } from '../model/match.js'
import { matchesAnyGlob, matchesGlob } from './glob.js'
import { kindMatcher } from './kind-selector.js'
import { matchesLabelSelector } from './label-selector.js'
import type { MatchTarget } from './match-target.js'

export type TargetPredicate = (target: MatchTarget) => boolean

const ALWAYS: TargetPredicate = () => true

/**
 * Every part of the filter that is present must hold. Compiled once per rule into the checks it
 * needs, because matching runs for every rule on every admission request.
 */
export function compileResourceFilter(filter: ResourceFilter): TargetPredicate {
  return allOf(resourceChecks(filter))
}

/** A filter with alternatives (`any`) and further conjunctions (`all`). */
export function compileMatchFilter(filter: MatchFilter): TargetPredicate {
  const checks = resourceChecks(filter)
  if (filter.any) {
    const alternatives = filter.any.map(compileResourceFilter)
    checks.push((target) => alternatives.some((alternative) => alternative(target)))
  }
  for (const part of filter.all ?? []) checks.push(...resourceChecks(part))
  return allOf(checks)
}

function resourceChecks(filter: ResourceFilter): TargetPredicate[] {
  const checks: TargetPredicate[] = []
  const { kinds, operations, names, namespaces, excludeNamespaces, labelSelector, namespaceSelector, annotations, subjects } = filter
  if (kinds) {
    const matchesKinds = kindMatcher(kinds)
    checks.push((target) => matchesKinds(target.gvk))
  }
  if (operations) checks.push((target) => operations.includes(target.operation))
  if (names) checks.push((target) => matchesAnyGlob(target.name, names))
  if (namespaces) checks.push((target) => matchesAnyGlob(namespaceOf(target), namespaces))
  if (excludeNamespaces) {
    checks.push((target) => {
      const namespace = namespaceOf(target)
      return namespace === '' || !matchesAnyGlob(namespace, excludeNamespaces)
    })
  }
  if (labelSelector) checks.push((target) => matchesLabelSelector(target.labels, labelSelector))
  if (namespaceSelector) {
    checks.push((target) => {
      // As in the Kubernetes API server: a Namespace is judged by its own labels, other
      // cluster-scoped resources are never filtered out by a namespace selector.
      if (target.namespace === '') return isNamespace(target) ? matchesLabelSelector(target.labels, namespaceSelector) : true
      return matchesLabelSelector(target.namespaceLabels ?? {}, namespaceSelector)
    })
  }
  if (annotations && Object.keys(annotations).length > 0) checks.push((target) => matchesAnnotations(target.annotations ?? {}, annotations))
  if (subjects) checks.push((target) => target.user !== undefined && subjects.some((subject) => matchesSubject(subject, target.user as NonNullable<MatchTarget['user']>)))
  return checks
}

/** Kyverno's: every wanted entry matches some annotation, key and value each as a glob. */
function matchesAnnotations(actual: Readonly<Record<string, string>>, wanted: Readonly<Record<string, string>>): boolean {
  const entries = Object.entries(actual)
  return Object.entries(wanted).every(([key, value]) => entries.some(([actualKey, actualValue]) => matchesGlob(actualKey, key) && matchesGlob(actualValue, value)))
}

/** A ServiceAccount is its username `system:serviceaccount:<namespace>:<name>`; a Group matches any of the user's groups. */
function matchesSubject(subject: Subject, user: NonNullable<MatchTarget['user']>): boolean {
  switch (subject.kind) {
    case 'ServiceAccount':
      return matchesGlob(user.username, `system:serviceaccount:${subject.namespace ?? ''}:${subject.name}`)
    case 'Group':
      return user.groups.some((group) => matchesGlob(group, subject.name))
    case 'User':
      return matchesGlob(user.username, subject.name)
  }
}

function allOf(checks: TargetPredicate[]): TargetPredicate {
  if (checks.length === 0) return ALWAYS
  if (checks.length === 1) return checks[0] as TargetPredicate
  return (target) => checks.every((check) => check(target))
}

/** A Namespace belongs to itself, as Kyverno and Gatekeeper read it: `namespaces: [prod]` selects Namespace prod. */
function namespaceOf(target: MatchTarget): string {
  return isNamespace(target) ? target.name : target.namespace
}

function isNamespace(target: MatchTarget): boolean {
  return target.gvk.kind === 'Namespace' && target.gvk.group === ''
}
