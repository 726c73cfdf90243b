import type { CelValidation, Rule, Severity, Variable } from '../../../engine/index.js'
import { mapIn } from '../../samples/document-parts.js'
import { holds } from '../entry-template.js'
import type { JsonValue, ValueTest } from '../named-requirement.js'
import { ALL_CONTAINERS, APP_AND_INIT_CONTAINERS, celString, podRule } from '../pod-rule.js'
import { ruleNameFrom } from '../rule-name.js'
import type { Options, Values, Vocabulary } from '../vocabulary.js'
import { optionText as text, stringsOf } from '../vocabulary.js'

/**
 * The pieces any area's entries may name: a rule every container must satisfy, a rule on the
 * pod, a rule on objects of some kinds; parameters read as numbers or lists, texts chosen by
 * tests on the values, each item of a list joined, lists of the items whose tests hold, values chosen by another value; fields filled
 * where missing, listed values replaced.
 */

type Json = Record<string, unknown>



// ---------------------------------------------------------------------------------------------
// Rules

const APP_CONTAINERS = { name: 'containers', expression: 'object.spec.?containers.orValue([])' }
const CONTAINER_SETS = { all: ALL_CONTAINERS, 'app-and-init': APP_AND_INIT_CONTAINERS, app: APP_CONTAINERS }

/**
 * A rule on Pods (autogen extends it to controllers) from the entry's texts. `name` becomes a
 * DNS label, so parameter values in it read as words (images-only-from-registry-acme-io);
 * `kinds` replaces the kinds matched, `conditions` adds match conditions, `controllers` limits
 * autogen.
 */
function podRuleOf(options: Options, expression: string, containers: (typeof CONTAINER_SETS)[keyof typeof CONTAINER_SETS] | undefined): Rule {
  const rule = podRule({
    name: ruleNameFrom([text(options, 'name')]),
    description: text(options, 'description'),
    severity: text(options, 'severity') as Severity,
    ...(containers ? { containers } : {}),
    expression,
    message: text(options, 'message'),
    remediation: text(options, 'remediation'),
  })
  if (Array.isArray(options.kinds)) rule.match = { ...rule.match, kinds: stringsOf(options.kinds) }
  if (Array.isArray(options.controllers)) rule.autogen = { controllers: stringsOf(options.controllers) }
  if (Array.isArray(options.conditions)) {
    const conditions = options.conditions.map((condition) => {
      const given = typeof condition === 'object' && condition !== null && !Array.isArray(condition) ? (condition as Options) : {}
      return { name: text(given, 'name'), expression: text(given, 'expression') }
    })
    rule.match = { ...rule.match, conditions }
  }
  return rule
}

/**
 * A rule every container must satisfy: `predicate` is CEL over one container `c` (and the pod
 * `object`), `containers` the set judged (all, app-and-init, app). The failure message names the
 * offending containers (and their images with `show: image`): with init and ephemeral containers
 * judged too, "which one" is the first thing an author asks.
 */
function containerRule(options: Options): Rule {
  const predicate = text(options, 'predicate')
  const containers = CONTAINER_SETS[text(options, 'containers') as keyof typeof CONTAINER_SETS]
  if (!containers) throw new Error(`no container set "${text(options, 'containers')}"`)
  const rule = podRuleOf(options, `variables.containers.all(c, ${predicate})`, containers)
  const shown = options.show === 'image' ? "c.?name.orValue('?') + ' (' + c.?image.orValue('no image') + ')'" : "c.?name.orValue('?')"
  const validation = rule.validate.cel?.[0]
  if (validation) {
    validation.messageExpression = `${celString(`${text(options, 'message')}: `)} + variables.containers.filter(c, !(${predicate})).map(c, ${shown}).join(', ')`
  }
  return rule
}

interface ObjectRuleOptions {
  name: string
  description: string
  severity: Severity
  kinds: string[]
  variables?: Variable[]
  cel: CelValidation[]
  message: string
  remediation: string
}

/**
 * A rule on objects of the `kinds`, every text of it written in the entry (the interpreter has
 * filled in the values it names); the name becomes a DNS label. Checks that depend on the
 * parameters are the entry's rule list chosen by `when`.
 */
function objectRule(options: Options): Rule {
  const given = options as unknown as ObjectRuleOptions
  return {
    name: ruleNameFrom([given.name], ''),
    description: given.description,
    severity: given.severity,
    match: { kinds: given.kinds },
    ...(given.variables ? { variables: given.variables } : {}),
    validate: { cel: given.cel },
    message: given.message,
    remediation: given.remediation,
  }
}

// ---------------------------------------------------------------------------------------------
// Values and changes

type Reading = { as: 'number' | 'list'; otherwise?: number | readonly string[]; only?: readonly string[]; lowercase?: boolean }

/**
 * Each parameter named, read as a `number` (`otherwise` when it is none) or as a `list` of strings
 * (a string alone is a list of one; kept to `only` these, lowercased, `otherwise` when empty):
 * the value hides the parameter, so texts name what was read (`{{minimum}}` is 1 when unset).
 */
function parametersAs(values: Values, options: Options): Record<string, JsonValue> {
  const read: Record<string, JsonValue> = {}
  for (const [name, how] of Object.entries(options as unknown as Record<string, Reading>)) {
    const value = values[name]
    if (how.as === 'number') {
      const number = typeof value === 'number' && Number.isFinite(value) ? value : typeof how.otherwise === 'number' ? how.otherwise : undefined
      if (number !== undefined) read[name] = number
      else if (Object.hasOwn(values, name)) read[name] = null
      continue
    }
    let list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []
    if (how.only) list = list.filter((item) => how.only?.includes(item))
    if (how.lowercase) list = list.map((item) => item.toLowerCase())
    if (list.length === 0 && Array.isArray(how.otherwise)) list = [...(how.otherwise as readonly string[])]
    read[name] = list
  }
  return read
}

/** For each name, the `text` of the first case whose `when` holds (the last without one is the default; none: empty). */
function texts(values: Values, options: Options): Record<string, JsonValue> {
  const cases = options as unknown as Record<string, ReadonlyArray<{ when?: ValueTest; text: string }>>
  return Object.fromEntries(Object.entries(cases).map(([name, each]) => [name, each.find((item) => item.when === undefined || holds(item.when, values))?.text ?? '']))
}

/** For each name, the list of the `item` of every case whose `when` holds, in order (the words a rule's parts say). */
function items(values: Values, options: Options): Record<string, JsonValue> {
  const cases = options as unknown as Record<string, ReadonlyArray<{ when?: ValueTest; item: JsonValue }>>
  return Object.fromEntries(Object.entries(cases).map(([name, each]) => [name, each.filter((item) => item.when === undefined || holds(item.when, values)).map((item) => item.item)]))
}

/** For each name, every item of the list value `each` (from the `from`th on) between `prefix` and `suffix`, joined with `join`. */
function joined(values: Values, options: Options): Record<string, JsonValue> {
  const joins = options as unknown as Record<string, { each: string; from?: number; prefix?: string; suffix?: string; join: string }>
  return Object.fromEntries(
    Object.entries(joins).map(([name, how]) => {
      const list = values[how.each]
      const items = Array.isArray(list) ? list.slice(how.from ?? 0).map(String) : []
      return [name, items.map((item) => `${how.prefix ?? ''}${item}${how.suffix ?? ''}`).join(how.join)]
    }),
  )
}

/**
 * Values chosen by another value (`by`): the `cases` entry named by it (for a list, by its number
 * of items), else `otherwise`. Words that depend on a parameter stay in the entry this way.
 */
function choose(values: Values, options: Options): Record<string, JsonValue> {
  const by = values[text(options, 'by')]
  const key = Array.isArray(by) ? String(by.length) : by === undefined || by === null ? undefined : String(by)
  const cases = typeof options.cases === 'object' && options.cases !== null && !Array.isArray(options.cases) ? (options.cases as Options) : {}
  const chosen = key !== undefined && Object.hasOwn(cases, key) ? cases[key] : options.otherwise
  return typeof chosen === 'object' && chosen !== null && !Array.isArray(chosen) ? { ...(chosen as Options) } : {}
}

function valueAt(target: Json, path: string): unknown {
  let current: unknown = target
  for (const segment of path.split('.')) current = typeof current === 'object' && current !== null ? (current as Json)[segment] : undefined
  return current
}

function pathOf(target: Json, path: string): [Json, string] {
  const segments = path.split('.')
  let parent = target
  for (const segment of segments.slice(0, -1)) parent = mapIn(parent, segment)
  return [parent, segments.at(-1) ?? '']
}

/** Each dotted path of `set` that the target lacks gets its value. */
function fillMissing(target: Json, options: Options): void {
  const set = typeof options.set === 'object' && options.set !== null && !Array.isArray(options.set) ? (options.set as Options) : {}
  for (const [path, value] of Object.entries(set)) {
    if (valueAt(target, path) !== undefined) continue
    const [parent, key] = pathOf(target, path)
    parent[key] = structuredClone(value)
  }
}

/** Where `path` holds one of the `listed` values, it gets the first of `by` that is not listed (else `otherwise`). */
function replaceListed(target: Json, options: Options): void {
  const listed = stringsOf(options.listed)
  const path = text(options, 'path')
  if (!listed.includes(String(valueAt(target, path)))) return
  const [parent, key] = pathOf(target, path)
  parent[key] = stringsOf(options.by).find((candidate) => !listed.includes(candidate)) ?? options.otherwise
}

export const COMMON_VOCABULARY: Vocabulary = {
  rules: {
    'container-rule': (_parameters, options) => containerRule(options),
    /** A rule on the whole pod: `expression` is CEL over `object`. */
    'pod-rule': (_parameters, options) => podRuleOf(options, text(options, 'expression'), undefined),
    'object-rule': (_parameters, options) => objectRule(options),
  },
  values: {
    'parameters-as': parametersAs,
    texts,
    items,
    joined,
    choose,
  },
  changes: {
    'fill-missing': fillMissing,
    'replace-listed': replaceListed,
  },
}
