import { celString, type PodSecurityVersion } from '../index.js'
import type { Variable } from '../../model/rule.js'
import { PodSecurityUnsupported } from './refusal.js'
import type { PodSecurityExclude } from './pod-security-spec.js'
import { ACTUAL_POD, matchingContainersPod, matchingContainersVariable, POD_LEVEL_EXCLUSION, type PodView } from './pod-views.js'
import type { PsaCheck } from './psa-checks.js'
import { wildcardRegex } from './wildcard-regex.js'

/**
 * Kyverno's excludes (pkg/pss/evaluate.go, ApplyPodSecurityExclusion), over the field errors of
 * field-errors.ts. For each exclude in turn, Kyverno runs the checks on a stand-in pod
 * (pod-views.ts) and, for each field error of the stand-in that the exclude's restrictedField and
 * values let through, removes one error of the pod with the same key: any error of that key for
 * an exclude without images, the same container's for one with images. A check passes when no
 * error is left.
 *
 * Which error a removal takes only matters when one key can be removed both ways: the key of the
 * app containers' runAsNonRoot or seccompProfile, which an exclude without images reaches
 * through its bare "fake" container. Otherwise removals are counted: a key's errors are all gone
 * when the excludes removed at least as many. For those two keys, an exclude without images that
 * comes after every exclude with images is counted too; one that comes first takes the error the
 * library listed first (after the swap Go's removal makes); other orders are not imported.
 */

/** The keys an exclude without images reaches through the fake container, per check. */
const FAKE_CONTAINER_KEYS: Readonly<Record<string, string>> = {
  runAsNonRoot: 'spec.containers[*].securityContext.runAsNonRoot',
  seccompProfile_restricted: 'spec.containers[*].securityContext.seccompProfile.type',
}

export function errorsVariable(check: PsaCheck): string {
  return `podSecurity_${check.id}`
}

export function remainingErrorsVariable(check: PsaCheck): string {
  return `podSecurity_${check.id}_remaining`
}

export function matchingVariable(exclude: PodSecurityExclude): string {
  return `podSecurity_exclude${exclude.index}`
}

/** The variables holding the containers each exclude with images matches, shared by every check. */
export function matchingVariables(excludes: readonly PodSecurityExclude[]): Variable[] {
  return excludes.filter((exclude) => exclude.images.length > 0).map((exclude) => matchingContainersVariable(matchingVariable(exclude), exclude.images))
}

/**
 * The variables that leave, for one check, the errors its excludes do not exempt
 * (`remainingErrorsVariable`): the errors of the pod, and of each exclude's stand-in.
 */
export function exclusionVariables(check: PsaCheck, excludes: readonly PodSecurityExclude[], version: PodSecurityVersion, field: string): Variable[] {
  const fieldErrors = check.fieldErrors
  if (!fieldErrors) return []
  const errors = `variables.${errorsVariable(check)}`
  const removals = excludes.map((exclude) => {
    const view: PodView = exclude.images.length > 0 ? matchingContainersPod(matchingVariable(exclude)) : POD_LEVEL_EXCLUSION
    const name = `${errorsVariable(check)}_exclude${exclude.index}`
    const errors = fieldErrors(view, version)
    return { exclude, variable: { name, expression: exclude.restrictedField === '' ? errors : `(${errors})${letThrough(exclude)}` } }
  })
  const byPod = removals.filter(({ exclude }) => exclude.images.length === 0).map(({ variable }) => `variables.${variable.name}`)
  const byContainer = removals.filter(({ exclude }) => exclude.images.length > 0).map(({ variable }) => `variables.${variable.name}`)
  const podRemovals = (key: string): string => sum(byPod.map((list) => `size(${list}.filter(e, e.key == ${key}))`))
  const containerRemovals = (key: string, name: string): string => sum(byContainer.map((list) => `size(${list}.filter(e, e.key == ${key} && e.name == ${name}))`))
  // Whether every error of key `g` is removed: its containers' errors by the excludes with images
  // (each of those removes its own container's), what is left by the excludes without images.
  const keyExempt =
    byContainer.length === 0
      ? `size(${errors}.filter(x, x.key == g)) <= ${podRemovals('g')}`
      : `${errors}.filter(x, x.key == g).map(x, x.name).distinct().map(n, [0, size(${errors}.filter(x, x.key == g && x.name == n)) - ${containerRemovals('g', 'n')}].max()).sum() <= ${podRemovals('g')}`
  // The keys not wholly exempt, bound as `u` once rather than worked out for each error.
  const byKey = (errorLeft: string): string => `[${errors}.map(x, x.key).distinct().filter(g, !(${keyExempt}))].map(u, ${errors}.filter(d, ${errorLeft}))[0]`
  let remaining = byKey('d.key in u')
  const fakeKey = FAKE_CONTAINER_KEYS[check.id]
  if (fakeKey !== undefined && byPod.length > 0 && byContainer.length > 0) {
    const first = firstRemovalByPod(check, excludes, removals, errors, field)
    if (first !== undefined) {
      const taken = `(${podRemovals('d.key')} > 0 && d.name == ${first} ? 1 : 0)`
      const containerLeft = `size(${errors}.filter(x, x.key == d.key && x.name == d.name)) - ${taken} > ${containerRemovals('d.key', 'd.name')}`
      remaining = byKey(`d.key == ${celString(fakeKey)} ? ${containerLeft} : d.key in u`)
    }
  }
  const variables: Variable[] = [{ name: errorsVariable(check), expression: fieldErrors(ACTUAL_POD, version) }, ...removals.map(({ variable }) => variable)]
  if (byPod.length > 0) return [...variables, { name: remainingErrorsVariable(check), expression: remaining }]
  // Excludes with images only, the common case: when no container has two errors of one key, an
  // error is exempt when some exclude's stand-in has it, which native `in` finds without counting.
  const keyed = (name: string): Variable => ({ name: `${name}_keys`, expression: `variables.${name}.map(x, x.key + ${SEPARATOR} + x.name)` })
  const keys = [keyed(errorsVariable(check)), ...removals.map(({ variable }) => keyed(variable.name))]
  const [own, ...theirs] = keys.map(({ name }) => `variables.${name}`)
  const found = theirs.map((list) => `d.key + ${SEPARATOR} + d.name in ${list}`).join(' || ')
  return [
    ...variables,
    ...keys,
    {
      name: remainingErrorsVariable(check),
      expression: `size(${own}.distinct()) == size(${own}) ? ${errors}.filter(d, !(${found})) : ${remaining}`,
    },
  ]
}

/** Between a key and a container name in the strings that stand for both: keys are paths that never hold it, so no two errors' strings meet. */
const SEPARATOR = "'\\u0001'"

/**
 * When an exclude without images comes first among a fake-container check's excludes and some
 * with images follow, the name of the app container whose error it removes (CEL); undefined when
 * every exclude without images comes after those with images, where counting is exact.
 */
function firstRemovalByPod(
  check: PsaCheck,
  excludes: readonly PodSecurityExclude[],
  removals: readonly { exclude: PodSecurityExclude; variable: Variable }[],
  errors: string,
  field: string,
): string | undefined {
  const podPositions = excludes.flatMap((exclude, position) => (exclude.images.length === 0 ? [position] : []))
  const containerPositions = excludes.flatMap((exclude, position) => (exclude.images.length > 0 ? [position] : []))
  if (Math.max(...containerPositions) < Math.min(...podPositions)) return undefined
  const [onlyPod] = podPositions
  if (podPositions.length !== 1 || onlyPod !== 0) {
    const named = excludes.map((exclude) => `${field}[${exclude.index}]`).join(', ')
    throw new PodSecurityUnsupported(
      `${named}: excludes of ${check.control} with and without images in this order exempt errors that depend on the order Kyverno removes them in; ` +
        'put the excludes without images last, or a single one first',
    )
  }
  const fakeKey = celString(FAKE_CONTAINER_KEYS[check.id] ?? '')
  // Go removes an error by moving the last one into its place: when the pod-level runAsNonRoot
  // error goes first, the error listed last moves to the front before the fake container's removal.
  const podKey = celString('spec.securityContext.runAsNonRoot')
  const podRemoved = `variables.${removals[0]?.variable.name ?? ''}.exists(e, e.key == ${podKey})`
  const order = check.id === 'runAsNonRoot' ? `(size(${errors}) > 1 && ${errors}[0].key == ${podKey} && ${podRemoved} ? [${errors}[size(${errors}) - 1]] + ${errors}.slice(1, size(${errors}) - 1) : ${errors})` : errors
  return `${order}.filter(x, x.key == ${fakeKey})[0].name`
}

/** The filter of an exclude's restrictedField and values, which decide which of the stand-in's errors remove one. */
function letThrough(exclude: PodSecurityExclude): string {
  return `.filter(e, e.key == ${celString(exclude.restrictedField)} && e.bad.all(v, v.matches(${celString(wildcardRegex(exclude.values))})))`
}

function sum(terms: readonly string[]): string {
  return terms.length === 0 ? '0' : terms.length === 1 ? (terms[0] ?? '0') : `(${terms.join(' + ')})`
}
