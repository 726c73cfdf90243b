import type { Rule, Variable } from '../../engine/index.js'
import { ruleNameFrom } from '../catalog/rule-name.js'
import { terraformDocumentCondition, terraformResourceVariables } from '../documents/terraform-resources.js'
import { celList, celScalar, celString, optionalPath, presentTest } from './cel-text.js'
import type { Condition, ContainerSet, ElementField, Predicate, Requirement, ValueRef } from './requirement.js'
import { stateRequirement } from './state-requirement.js'

/**
 * Compiles a requirement to one CEL rule. Every test is written so that a value the rule cannot
 * find is judged by `missing` (what the author said an absent value means), never passed by
 * accident: a path that does not exist reads as absent, and absent fails unless the author said
 * otherwise.
 */
export function compileRequirement(requirement: Requirement): Rule {
  const statement = stateRequirement(requirement)
  const variables: Variable[] = []
  const usesContainers = [...requirement.values, ...requirement.conditions.map((c) => c.value), ...requirement.exemptions.map((c) => c.value)].find((ref) => ref.scope === 'container')
  if (usesContainers) variables.push({ name: 'containers', expression: containersExpression(usesContainers.containers) })
  const elementRef = requirement.values.find((ref) => ref.scope === 'element')
  if (elementRef?.list) variables.push({ name: 'elements', expression: elementsExpression(elementRef.list) })
  const terraform = requirement.subject.platform === 'terraform'
  if (terraform) variables.push(...terraformResourceVariables(requirement.subject.kinds))
  const holderKeys = keysToLocate(requirement)
  if (holderKeys.length > 0) variables.push({ name: 'holders', expression: `document.holders(object, ${celList(holderKeys)})` })

  const located = holderKeys.length > 0
  const correlated = correlatedConditions(requirement)
  const uncorrelated: Requirement = { ...requirement, conditions: requirement.conditions.filter((condition) => !correlated.has(condition)), exemptions: requirement.exemptions.filter((condition) => !correlated.has(condition)) }
  const test = (ref: ValueRef, item: string): string => valueTest(ref, item, requirement.predicate, requirement.missing, located, elementGuards(ref, requirement, correlated))
  const tests = requirement.values.map((ref) => quantified(ref, uncorrelated, located, (item) => test(ref, item)))
  // "every container must set one of livenessProbe or readinessProbe": one of the values, in each container on its own.
  const [first] = requirement.values
  const eachItem = requirement.combine === 'any' && requirement.values.length > 1 && first !== undefined && first.scope !== 'object' && requirement.values.every((ref) => ref.scope === first.scope && JSON.stringify(ref.containers) === JSON.stringify(first.containers))
  const anyInEach = eachItem ? quantified(first, uncorrelated, located, (item) => requirement.values.map((ref) => `(${test(ref, item)})`).join(' || ')) : undefined
  const body = anyInEach ?? (tests.length === 1 ? (tests[0] ?? 'true') : tests.map((one) => `(${one})`).join(requirement.combine === 'any' ? ' || ' : ' && '))
  const objectGuards = guardsAt('object', uncorrelated, 'object')
  const expression = objectGuards ? `!(${objectGuards}) || (${body})` : body

  const rule: Rule = {
    name: ruleName(requirement),
    description: statement,
    severity: 'medium',
    validate: { cel: [{ expression, message: statement }] },
    message: statement,
    remediation: `Change the document so that: ${lowerFirst(statement)}`,
  }
  if (variables.length > 0) rule.variables = variables
  if (requirement.subject.platform === 'kubernetes' && requirement.subject.kinds.length > 0) rule.match = { kinds: [...requirement.subject.kinds] }
  // No kind named: fields of the pod spec judge Pods (and, through autogen, the pod templates of controllers).
  if (requirement.subject.platform === 'kubernetes' && requirement.subject.kinds.length === 0 && requirement.values.some((ref) => ref.scope === 'container' || ref.variants[0]?.segments[0] === 'spec')) rule.match = { kinds: ['Pod'] }
  if (terraform) rule.match = { conditions: [{ name: 'terraform-document', expression: terraformDocumentCondition }] }
  return rule
}

/** The path up to the deepest list both paths go through (`spec.tolerations[]` for `spec.tolerations[].effect` and `...[].tolerationSeconds`). */
function sharedListPrefix(a: readonly string[], b: readonly string[]): string[] | undefined {
  let shared: string[] | undefined
  for (let index = 0; index < Math.min(a.length, b.length) && a[index] === b[index]; index += 1) if (a[index] === '[]') shared = a.slice(0, index + 1)
  return shared
}

/** Conditions and exemptions on the same list elements as every value: judged on each element. */
function correlatedConditions(requirement: Requirement): Set<Condition> {
  const correlated = new Set<Condition>()
  for (const condition of [...requirement.conditions, ...requirement.exemptions]) {
    const [variant] = condition.value.variants
    if (!variant || condition.value.variants.length !== 1 || requirement.values.length === 0) continue
    const together = requirement.values.every((ref) => ref.scope === condition.value.scope && ref.variants.every((own) => sharedListPrefix(own.segments, variant.segments) !== undefined))
    if (together) correlated.add(condition)
  }
  return correlated
}

function elementGuards(ref: ValueRef, requirement: Requirement, correlated: ReadonlySet<Condition>): ElementGuard[] {
  const guards: ElementGuard[] = []
  for (const condition of correlated) {
    const segments = condition.value.variants[0]?.segments ?? []
    const exemption = requirement.exemptions.includes(condition)
    // Each variant of the value shares the list with the condition; the first one's prefix places the guard.
    const prefix = sharedListPrefix(ref.variants[0]?.segments ?? [], segments)
    if (!prefix) continue
    guards.push({
      prefix,
      applies: (element) => {
        const holds = pathTest(element, segments.slice(prefix.length), (value) => predicateTest(condition.predicate, value, 1), condition.missing === 'pass' ? 'true' : 'false', { depth: 20 })
        return exemption ? `!${holds}` : holds
      },
    })
  }
  return guards
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}

function ruleName(requirement: Requirement): string {
  const field = requirement.values.map((ref) => ref.variants[0]?.segments.at(-1) ?? ref.label).join('-')
  return ruleNameFrom([field, predicateWord(requirement.predicate)], 'requirement')
}

function predicateWord(predicate: Predicate): string {
  switch (predicate.op) {
    case 'set':
      return 'required'
    case 'unset':
      return 'not-allowed'
    case 'equals':
      return `is-${String(predicate.value)}`
    case 'oneOf':
      return 'allowed-values'
    case 'noneOf':
      return 'denied-values'
    case 'compare':
      return 'bounds'
    case 'format':
      return predicate.format
    default:
      return predicate.op.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
  }
}

function containersExpression(set: ContainerSet | undefined): string {
  const spec = optionalPath('object', set?.podSpec ?? ['spec'])
  const lists = [`${spec}.?containers.orValue([])`]
  if (set?.init !== false) lists.push(`${spec}.?initContainers.orValue([])`)
  if (set?.ephemeral !== false) lists.push(`${spec}.?ephemeralContainers.orValue([])`)
  return lists.join(' + ')
}

/** A list's elements, or a map's values ("jobs" in a workflow is a map of name to job). */
function elementsExpression(list: readonly string[]): string {
  const at = `${optionalPath('object', list)}.orValue([])`
  return `type(${at}) == map ? ${at}.map(k, ${at}[k]) : (type(${at}) == list ? ${at} : [])`
}

/**
 * Where the values of a generic document's requirement are looked for when its paths start at
 * no particular place: the first keys of their paths, found by `document.holders` at the top or
 * in the collections below it. Empty (paths from the top) for other platforms, for values in
 * named lists, and when the author said "top level".
 */
function keysToLocate(requirement: Requirement): string[] {
  if (requirement.subject.platform !== 'generic') return []
  if (requirement.values.some((ref) => ref.scope !== 'object')) return []
  if (/\b(top[- ]level|at the root|root of the)\b/i.test(requirement.sentence)) return []
  const keys = new Set<string>()
  for (const ref of requirement.values) for (const variant of ref.variants) if (variant.segments[0] && variant.segments[0] !== '[]') keys.add(variant.segments[0])
  return [...keys]
}

/** The requirement's guards (conditions hold, no exemption holds) for values of one scope. */
function guardsAt(scope: 'object' | 'item', requirement: Requirement, item: string): string {
  // Generic conditions sit beside the values they guard (see conditionTest); Terraform's are on each resource.
  const atTop = (condition: Condition): boolean => condition.value.scope === 'object' && requirement.subject.platform === 'kubernetes'
  const inScope = (condition: Condition): boolean => (scope === 'object') === atTop(condition)
  const parts = [
    ...requirement.conditions.filter(inScope).map((condition) => conditionTest(condition, item, requirement.subject.platform)),
    ...requirement.exemptions.filter(inScope).map((condition) => `!(${conditionTest(condition, item, requirement.subject.platform)})`),
  ]
  return parts.join(' && ')
}

/** A condition on a generic document is read at the top when its field is there ("if environment is prod"), else beside the value. */
function conditionTest(condition: Condition, item: string, platform: Requirement['subject']['platform']): string {
  // A Terraform condition is on the resource judged ("if tags.environment is production").
  if (condition.value.scope !== 'object' || platform === 'terraform') return valueTest(condition.value, item, condition.predicate, condition.missing)
  if (platform !== 'generic' || item === 'object') return valueTest(condition.value, 'object', condition.predicate, condition.missing)
  const first = condition.value.variants.map((variant) => variant.segments[0]).filter((key): key is string => key !== undefined && key !== '[]')
  const base = first.length > 0 ? `(${celList(first)}.exists(k, k in object) ? object : ${item})` : item
  return valueTest(condition.value, base, condition.predicate, condition.missing)
}

/** The test over every item the value belongs to, with the item-level guards. */
function quantified(ref: ValueRef, requirement: Requirement, located: boolean, test: (item: string) => string): string {
  const guarded = (item: string): string => {
    const guards = guardsAt('item', requirement, item)
    return guards ? `!(${guards}) || (${test(item)})` : test(item)
  }
  switch (ref.scope) {
    case 'container':
      return `variables.containers.all(c, ${guarded('c')})`
    case 'element':
      return `variables.elements.all(e, ${guarded('e')})`
    case 'resource':
      return `variables.resources.all(r, ${guarded('r.values')})`
    default:
      if (located) return `variables.holders.all(h, ${guarded('h')})`
      // In a plan every value belongs to a resource: a value read at the object's level is read on each one.
      if (requirement.subject.platform === 'terraform') return `variables.resources.all(r, ${guarded('r.values')})`
      return guarded('object')
  }
}

/**
 * The predicate over the value `ref` names under `item`: the first variant found is judged; a
 * path with `[]` judges every element on the way; none found is `missing`.
 */
export function valueTest(ref: ValueRef, item: string, predicate: Predicate, missing: 'pass' | 'fail', located = false, guards: readonly ElementGuard[] = []): string {
  const whenMissing = missing === 'pass' ? 'true' : 'false'
  if (predicate.op === 'compareField') return compareFieldTest(ref, item, predicate, whenMissing, located)
  let chain = whenMissing
  const variants = [...ref.variants].reverse()
  const fallback = ref.containers?.podLevelFallback
  if (fallback) chain = pathTest('object', fallback, (value) => predicateTest(predicate, value, 1), chain, { guards })
  // A name guessed from words that lands on an object ("upstream" for "the upstream timeout") is not the value: the next name is tried.
  const skipMaps = ref.weak === true && SCALAR_PREDICATES.has(predicate.op)
  for (const variant of variants) chain = pathTest(item, variant.segments, (value) => predicateTest(predicate, value, variant.scale ?? 1), chain, { blocks: ref.scope === 'resource', skipMaps, guards })
  return chain
}

/** Predicates about a single value: an object found where one is expected is not it. */
const SCALAR_PREDICATES: ReadonlySet<Predicate['op']> = new Set(['equals', 'oneOf', 'noneOf', 'compare', 'format', 'notMatching', 'startsWith', 'endsWith', 'notStartsWith', 'notEndsWith', 'contains', 'notContains'])

/**
 * A condition about the same list element as the value: "any toleration with effect NoExecute
 * must set tolerationSeconds" judges each toleration by its own effect, not the object by all of them.
 * `prefix` is the path up to and including that list's `[]`; `applies` says, for one element,
 * whether the requirement applies to it.
 */
export interface ElementGuard {
  prefix: readonly string[]
  applies: (element: string) => string
}

interface PathOptions {
  depth?: number
  /** Terraform blocks: a list of one map read as the map. */
  blocks?: boolean
  /** An object found where a scalar is wanted is not the value. */
  skipMaps?: boolean
  guards?: readonly ElementGuard[]
  /** The segments already walked, to place the guards. */
  walked?: readonly string[]
}

/**
 * `test` over the value at `segments` under `base`, `otherwise` when it is absent. `[]` in the
 * path means every element of the list there (absent or empty list: nothing to judge, true).
 */
function pathTest(base: string, segments: readonly string[], test: (value: string) => string, otherwise: string, options: PathOptions = {}): string {
  const { depth = 0, blocks = false, skipMaps = false, guards = [], walked = [] } = options
  const star = segments.indexOf('[]')
  if (star >= 0) {
    // Every element of a list, or every value of a map (a workflow's `jobs`); none: nothing to judge.
    const list = `${optionalPath(base, segments.slice(0, star))}.orValue([])`
    const variable = `x${depth}`
    const prefix = [...walked, ...segments.slice(0, star + 1)]
    const next: PathOptions = { depth: depth + 1, blocks, skipMaps, guards, walked: prefix }
    const here = guards.filter((guard) => samePath(guard.prefix, prefix))
    const guarded = (element: string, inner: string): string => (here.length === 0 ? inner : `!(${here.map((guard) => guard.applies(element)).join(' && ')}) || ${inner}`)
    const inner = guarded(variable, pathTest(variable, segments.slice(star + 1), test, otherwise, next))
    const overMap = guarded(`${list}[k${depth}]`, pathTest(`${list}[k${depth}]`, segments.slice(star + 1), test, otherwise, next))
    return `(type(${list}) == list ? ${list}.all(${variable}, ${inner}) : (type(${list}) == map ? ${list}.all(k${depth}, ${overMap}) : ${otherwise}))`
  }
  if (segments.length === 0) return test(base)
  // A Terraform block is a list of one map (metadata_options = [{http_tokens = ...}]): its fields are read inside.
  if (blocks && segments.length > 1 && depth < 4) {
    const head = optionalPath(base, segments.slice(0, 1))
    const variable = `b${depth}`
    const next: PathOptions = { depth: depth + 1, blocks, skipMaps, guards, walked: [...walked, ...segments.slice(0, 1)] }
    const inside = pathTest(variable, segments.slice(1), test, otherwise, next)
    const asMap = pathTest(`${head}.value()`, segments.slice(1), test, otherwise, next)
    return `(type(${head}.orValue(null)) == list ? (size(${head}.value()) == 0 ? ${otherwise} : ${head}.value().all(${variable}, ${inside})) : (type(${head}.orValue(null)) == map ? ${asMap} : ${otherwise}))`
  }
  const optional = optionalPath(base, segments)
  const present = skipMaps ? `${presentTest(optional)} && type(${optional}.value()) != map` : presentTest(optional)
  return `(${present} ? ${test(`${optional}.value()`)} : ${otherwise})`
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index])
}

const NUMBER = (value: string): string => `(type(${value}) in [int, uint, double] || (type(${value}) == string && ${value}.matches('^-?[0-9]+(\\\\.[0-9]+)?$')))`
const AS_NUMBER = (value: string, scale: number): string => `(double(${value})${scale === 1 ? '' : ` * ${Number.isInteger(scale) ? `${scale}.0` : String(scale)}`})`
const IS_STRING = (value: string): string => `type(${value}) == string`

/** Predicates about one piece of text: a list found there ("allowedOrigins must be https") is judged element by element. */
const TEXT_PREDICATES: ReadonlySet<Predicate['op']> = new Set(['format', 'notMatching', 'startsWith', 'endsWith', 'notStartsWith', 'notEndsWith', 'cidrPrefix'])

function compareNumbers(left: number, cmp: string, right: number): boolean {
  return cmp === '>=' ? left >= right : cmp === '>' ? left > right : cmp === '<=' ? left <= right : left < right
}

function predicateTest(predicate: Predicate, value: string, scale: number): string {
  if (TEXT_PREDICATES.has(predicate.op)) return `(type(${value}) == list ? ${value}.all(t, ${scalarTest(predicate, 't', scale)}) : ${scalarTest(predicate, value, scale)})`
  return scalarTest(predicate, value, scale)
}

function scalarTest(predicate: Predicate, value: string, scale: number): string {
  switch (predicate.op) {
    case 'set':
      return 'true'
    case 'unset':
      return 'false'
    case 'equals':
      return equalsTest(value, predicate.value)
    // A list value ("methods limited to GET, POST") is judged element by element.
    case 'oneOf': {
      const anyOf = (item: string): string => `(${predicate.values.map((expected) => equalsTest(item, expected)).join(' || ')})`
      return `(type(${value}) == list ? ${value}.all(v, ${anyOf('v')}) : ${anyOf(value)})`
    }
    case 'noneOf': {
      const anyOf = (item: string): string => `(${noneOfValues(predicate.values).map((expected) => equalsTest(item, expected)).join(' || ')})`
      return `(type(${value}) == list ? !${value}.exists(v, ${anyOf('v')}) : !${anyOf(value)})`
    }
    case 'compare':
      return `(${predicate.bounds.map((bound) => (bound.display?.trim().endsWith('%') ? percentTest(value, bound.cmp, Number(bound.value)) : compareTest(value, bound.cmp, bound.value, scale, bound.seconds === true))).join(' && ')})`
    case 'format':
      return `(${IS_STRING(value)} && ${value}.matches(${celString(predicate.pattern)}))`
    case 'notMatching':
      return `!(${IS_STRING(value)} && ${value}.matches(${celString(predicate.pattern)}))`
    case 'startsWith':
      return `(${IS_STRING(value)} && ${celList(predicate.values)}.exists(p, ${value}.startsWith(p)))`
    case 'endsWith':
      return `(${IS_STRING(value)} && ${celList(predicate.values)}.exists(p, ${value}.endsWith(p)))`
    case 'notStartsWith':
      return `!(${IS_STRING(value)} && ${celList(predicate.values)}.exists(p, ${value}.startsWith(p)))`
    case 'notEndsWith':
      return `!(${IS_STRING(value)} && ${celList(predicate.values)}.exists(p, ${value}.endsWith(p)))`
    // Text holds a piece of text; a list holds an element ("0" written in a sentence is the number 0 in a list).
    case 'contains':
      return `(${IS_STRING(value)} ? ${celList(predicate.values)}.all(p, ${value}.contains(p)) : (type(${value}) == list && ${listHolds(value, predicate.values, 'all')}))`
    case 'notContains':
      return `(${IS_STRING(value)} ? !${celList(predicate.values)}.exists(p, ${value}.contains(p)) : !(type(${value}) == list && ${listHolds(value, predicate.values, 'exists')}))`
    case 'listNoneOf':
      return `(type(${value}) == list ? !${value}.exists(x, x in ${celList(predicate.values)}) : !(${value} in ${celList(predicate.values)}))`
    case 'keysNoneStartWith':
      return `(type(${value}) == map ? !${value}.exists(k, ${celList(predicate.values)}.exists(p, string(k).startsWith(p))) : true)`
    case 'listNoneMatching':
      return `(type(${value}) == list ? !${value}.exists(x, type(x) == string && x.matches(${celString(predicate.pattern)})) : !(${IS_STRING(value)} && ${value}.matches(${celString(predicate.pattern)})))`
    case 'listAllOf':
      if (predicate.capabilityNames) return `(type(${value}) == list && ${celList(predicate.values.map((name) => capabilityName(String(name))))}.all(x, ${value}.exists(e, type(e) == string && ${celCapabilityName('e')} == x)))`
      return `(type(${value}) == list && ${celList(predicate.values)}.all(x, x in ${value}))`
    case 'listOnly':
      return `(type(${value}) == list ? ${value}.all(x, x in ${celList(predicate.values)}) : ${value} in ${celList(predicate.values)})`
    case 'imageRegistry':
      return `(${IS_STRING(value)} && ${celList(predicate.registries.map((registry) => registry.replace(/\/+$/, '') + '/'))}.exists(p, ${normalizedImage(value)}.startsWith(p)))`
    case 'imageRegistryDenied':
      return `!(${IS_STRING(value)} && ${celList(predicate.registries.map((registry) => registry.replace(/\/+$/, '') + '/'))}.exists(p, ${normalizedImage(value)}.startsWith(p)))`
    case 'imageTag':
      return imageTagTest(value, predicate.requirement)
    case 'cidrPrefix': {
      const allowed = Array.from({ length: 129 }, (_, bits) => bits).filter((bits) => compareNumbers(bits, predicate.cmp, predicate.bits))
      return `(${IS_STRING(value)} && ${value}.matches(${celString(`^[^/]+/(${allowed.join('|')})$`)}))`
    }
    case 'hasElement': {
      const holds = predicate.where.map((field) => {
        const word = field.segments.length === 1 ? field.segments[0] : undefined
        // An element "with no key" holds where the key is absent; any other test needs the field there.
        const absent = field.predicate.op === 'unset' ? 'true' : 'false'
        const keyTest = keyPresentTest('e', field)
        if (keyTest) return keyTest
        if (!field.loose || word === undefined) return pathTest('e', field.segments, (inner) => predicateTest(field.predicate, inner, 1), absent, { depth: 30 })
        const capitalised = word.charAt(0).toUpperCase() + word.slice(1)
        const named = [`k == ${celString(word)}`, ...['-', '_'].map((joint) => `k.endsWith(${celString(joint + word)})`), `k.endsWith(${celString(capitalised)})`].join(' || ')
        return `e.exists(k, (${named}) && ${predicateTest(field.predicate, 'e[k]', 1)})`
      })
      const some = `(type(${value}) == list && ${value}.exists(e, type(e) == map && ${holds.join(' && ')}))`
      return predicate.negated ? `!${some}` : some
    }
    case 'namesElement': {
      // The element named is looked up from the object's root: a container's mount names a volume of its pod.
      const list = `${optionalPath('object', predicate.list)}.orValue([])`
      const holds = predicate.where.map((field) => keyPresentTest('n', field) ?? pathTest('n', field.segments, (inner) => predicateTest(field.predicate, inner, 1), field.predicate.op === 'unset' ? 'true' : 'false', { depth: 40 }))
      return `(type(${list}) == list && ${list}.exists(n, type(n) == map && n.?name.orValue(null) == ${value} && ${holds.join(' && ')}))`
    }
    case 'compareField':
      return 'true'
  }
}

/** `emptyDir: {}` is there: a key present (not null) counts as set, whatever it holds. */
function keyPresentTest(element: string, field: ElementField): string | undefined {
  if (!field.keyPresent || (field.predicate.op !== 'set' && field.predicate.op !== 'unset')) return undefined
  return `(${optionalPath(element, field.segments)}.orValue(null) ${field.predicate.op === 'set' ? '!=' : '=='} null)`
}

/** A capability as the runtime reads it: upper case, without the `CAP_` prefix (`cap_net_raw` is `NET_RAW`). */
function capabilityName(name: string): string {
  const upper = name.toUpperCase()
  return upper.startsWith('CAP_') ? upper.slice(4) : upper
}

function celCapabilityName(value: string): string {
  return `(${value}.upperAscii().startsWith('CAP_') ? ${value}.upperAscii().substring(4) : ${value}.upperAscii())`
}

/** Whether a list holds all (or any) of the written values, each compared as the number it may spell. */
function listHolds(list: string, values: readonly string[], each: 'all' | 'exists'): string {
  const tests = values.map((expected) => {
    const asNumber = /^-?\d+(\.\d+)?$/.test(expected) ? ` || ${equalsTest('e', Number(expected))}` : ''
    return `${list}.exists(e, ${equalsTest('e', expected)}${asNumber})`
  })
  return `(${tests.join(each === 'all' ? ' && ' : ' || ')})`
}

/** A count of 0 and "0%" say the same where a field takes either (maxUnavailable). */
function noneOfValues(values: ReadonlyArray<string | number | boolean>): Array<string | number | boolean> {
  return values.includes(0) && !values.includes('0%') ? [...values, '0%'] : [...values]
}

/**
 * "europe-*", "us-*": a name prefix written as a glob, compared without case (cloud providers
 * write regions either way: EUROPE-WEST2). A lone "*" or "*.example.com" stays literal (CORS
 * origins, TLS hosts).
 */
const PREFIX_GLOB = /^[A-Za-z0-9][\w.]*[-_]\*$/

function equalsTest(value: string, expected: string | number | boolean): string {
  if (typeof expected === 'string' && PREFIX_GLOB.test(expected)) {
    return `(${value} == ${celString(expected)} || (${IS_STRING(value)} && ${value}.lowerAscii().startsWith(${celString(expected.slice(0, -1).toLowerCase())})))`
  }
  if (typeof expected === 'number') return `(${NUMBER(value)} && double(${value}) == ${Number.isInteger(expected) ? `${expected}.0` : String(expected)})`
  if (typeof expected === 'boolean') return `(${value} == ${celScalar(expected)} || ${value} == ${celString(String(expected))})`
  return `(${value} == ${celString(expected)})`
}

const QUANTITY = /^\d+(\.\d+)?(m|k|Ki|Mi|Gi|Ti|Pi|M|G|T|P|E|Ei)$/

function compareTest(value: string, cmp: string, bound: number | string, scale: number, seconds = false): string {
  if (typeof bound === 'string' && (QUANTITY.test(bound) || /^\d+(\.\d+)?$/.test(bound))) {
    return `(isQuantity(string(${value})) && quantity(string(${value})).compareTo(quantity(${celString(bound)})) ${cmp} 0)`
  }
  const number = typeof bound === 'number' ? bound : Number(bound)
  const literal = Number.isInteger(number) ? `${number}.0` : String(number)
  // "no more than four containers", "more than one toleration": a list found where a number is compared is counted.
  const asNumber = `((${NUMBER(value)} && ${AS_NUMBER(value, scale)} ${cmp} ${literal}) || (type(${value}) == list && double(size(${value})) ${cmp} ${literal}))`
  if (!seconds) return asNumber
  // "1500ms", "1h30m" read as the duration they write; "7d" as days, which Go durations lack.
  const asDuration = `(${IS_STRING(value)} && ${value}.matches(${celString(DURATION_TEXT)}) && double(duration(${value}).getMilliseconds()) / 1000.0 ${cmp} ${literal})`
  const asDays = `(${IS_STRING(value)} && ${value}.matches('^[0-9]+d$') && double(int(${value}.substring(0, size(${value}) - 1))) * 86400.0 ${cmp} ${literal})`
  return `(${asNumber} || ${asDuration} || ${asDays})`
}

/**
 * "no higher than 50%": a percentage as Kubernetes writes it ("50%", an int-or-string field). A
 * bare number there is a count, not a share, so it does not meet a bound written in percent.
 */
function percentTest(value: string, cmp: string, bound: number): string {
  const literal = Number.isInteger(bound) ? `${bound}.0` : String(bound)
  return `(${IS_STRING(value)} && ${value}.matches('^[0-9]+(\\\\.[0-9]+)?%$') && double(${value}.substring(0, size(${value}) - 1)) ${cmp} ${literal})`
}

/** A duration as Go and CEL write it: "90s", "1500ms", "1h30m". */
const DURATION_TEXT = '^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$'

/** An image reference with its registry made explicit: `nginx` is `docker.io/library/nginx`. */
function normalizedImage(value: string): string {
  const first = `${value}.split('/')[0]`
  const hasHost = `(${value}.contains('/') && (${first}.contains('.') || ${first}.contains(':') || ${first} == 'localhost'))`
  return `(${hasHost} ? ${value} : (${value}.contains('/') ? 'docker.io/' + ${value} : 'docker.io/library/' + ${value}))`
}

function imageTagTest(value: string, requirement: 'tagged-or-digest' | 'digest' | 'not-latest'): string {
  const withoutDigest = `${value}.split('@')[0]`
  const lastPart = `${withoutDigest}.split('/')[size(${withoutDigest}.split('/')) - 1]`
  const hasTag = `${lastPart}.contains(':')`
  const tag = `${lastPart}.split(':')[1]`
  const hasDigest = `${value}.contains('@sha256:')`
  switch (requirement) {
    case 'digest':
      return `(${IS_STRING(value)} && ${hasDigest})`
    case 'tagged-or-digest':
      return `(${IS_STRING(value)} && (${hasDigest} || (${hasTag} && ${tag} != 'latest' && ${tag} != '')))`
    case 'not-latest':
      return `(${IS_STRING(value)} && (${hasDigest} || (${hasTag} && ${tag} != 'latest')))`
  }
}

const NUMERIC_TYPES: ReadonlySet<string> = new Set(['integer', 'number', 'int-or-string', ''])

function compareFieldTest(ref: ValueRef, item: string, predicate: Extract<Predicate, { op: 'compareField' }>, whenMissing: string, located: boolean): string {
  const leftOptional = optionalPath(item, ref.variants[0]?.segments ?? [])
  const rightOptional = optionalPath(predicate.other.scope === 'object' && !located ? 'object' : item, predicate.other.variants[0]?.segments ?? [])
  // A value the schema defaults ("minReplicas defaults to 1") is compared as that default when absent.
  const side = (optional: string, fallback: ValueRef['schemaDefault']): { present: string; value: string } =>
    fallback === undefined ? { present: presentTest(optional), value: `${optional}.value()` } : { present: 'true', value: `(${presentTest(optional)} ? ${optional}.value() : ${celScalar(fallback)})` }
  const left = side(leftOptional, ref.schemaDefault)
  const right = side(rightOptional, predicate.other.schemaDefault)
  const bothQuantities = ref.type === 'quantity' || predicate.other.type === 'quantity'
  const factor = predicate.factor
  const times = factor === undefined ? '' : ` * ${Number.isInteger(factor) ? `${factor}.0` : String(factor)}`
  const compare = factor !== undefined
    ? bothQuantities
      ? `quantity(string(${left.value})).asApproximateFloat() ${predicate.cmp} quantity(string(${right.value})).asApproximateFloat()${times}`
      : `double(${left.value}) ${predicate.cmp} double(${right.value})${times}`
    : bothQuantities
      ? `quantity(string(${left.value})).compareTo(quantity(string(${right.value}))) ${predicate.cmp} 0`
      : (predicate.cmp === '==' || predicate.cmp === '!=') && !NUMERIC_TYPES.has(ref.type ?? '') && !NUMERIC_TYPES.has(predicate.other.type ?? '')
        ? // Two probes, two names: equal or not as a whole, not as numbers.
          `${left.value} ${predicate.cmp} ${right.value}`
        : `double(${left.value}) ${predicate.cmp} double(${right.value})`
  return `(${left.present} && ${right.present} ? ${compare} : ${whenMissing})`
}
