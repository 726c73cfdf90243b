import type { Platform } from '../catalog/rule-template.js'
import { codeTokens, kubernetesMentions, kubernetesRef, literalRef, pathSegments } from './find-fields.js'
import { comparisonScale, escapeRegex, FORMAT_NAME, readFormat, readPredicate, type PredicateReading } from './read-predicate.js'
import { fieldDurationUnit, readValueList, scalarOf } from './read-values.js'
import type { Comparison, NamedBy, PathVariant, Predicate, Requirement, Scalar, ValueRef, ValueType } from './requirement.js'
import { resolveTerraformName, resolveTerraformWords } from '../fields/resolve-terraform-attribute.js'
import { readListEntries } from './list-entries.js'
import { onlyPermittedAsRequired } from './only-permitted.js'
import { readKeyPrefixBan } from './map-key-prefix.js'
import { terraformAttributes, type TerraformAttribute, type TerraformValueType } from '../fields/terraform-attributes.js'
import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { looksLikeInjection } from '../prompt-check.js'
import { readWrittenPairs } from './written-pairs.js'
import { keysListedAfter, keysListedBefore } from './map-keys.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { readElementWith } from './element-with.js'
import { asksNothing } from './not-asked.js'
import { nameWords } from './name-words.js'
import { enumListReading } from './enum-list-values.js'
import { enumHolderNamed } from './enum-holder.js'
import { readAnyOfFields } from './any-of-fields.js'
import { namesList, readEachElementHas } from './each-element-has.js'
import { thereAsSubject } from './there-be.js'
import { valueHolderChild } from './value-holder-child.js'
import { readReference } from './object-references.js'
import { readNamedElement } from './named-element.js'
import { readBannedCharacters } from './characters-banned.js'
import { readSocketBan } from './mounts-socket.js'
import { readKindUseBan, readKindUseNames } from './kind-uses.js'
import { readMountedReadOnly } from './mounted-volume.js'
import { readSpreadDomains } from './spread-domains.js'

/**
 * Reads the requirements one clause states: the fields it names, the predicate after them, the
 * values. Modifier phrases were blanked out by the caller. Several requirements come out of
 * "storage_encrypted must be true, publicly_accessible must be false".
 */
export interface ClauseContext {
  platform: Platform
  kinds: string[]
  /** The kind whose schema resolves Kubernetes fields. */
  schemaKind?: string
  /** The fields of the requirement before, for "Allow is rejected" and "... it must be https". */
  previous?: ValueRef[]
  /** Fields the instruction has named so far: "tier has to be one of ..." after "labels ... team and tier". */
  known?: ValueRef[]
  /** Values the instruction's requirements listed, with their field: "debug is only allowed in dev" after "level must be one of debug, info". */
  knownValues?: Array<{ value: Scalar; ref: ValueRef }>
  /** The whole instruction, for "these verbs" naming a list written in another sentence. */
  instruction?: string
}

export interface ClauseRequirements {
  requirements: Requirement[]
  /** A field was named with a requirement verb but nothing to check it against. */
  problem?: string
  /** The clause asks for something (modal, negation) even if nothing was read. */
  asks: boolean
}

const ASKS = /\b(must|mustn'?t|has to|have to|needs?|should|shall|required?|requires|mandatory|not allowed|isn'?t allowed|aren'?t allowed|disallow(ed)?|forbid(den)?|prohibit(ed)?|banned?|reject(ed)?|denied|deny|block(ed)?|never|no|can'?t|cannot|may not|only|at least|at most|max|min|limited|exceed|between|one of|nobody|don'?t)\b/

/** Verbs after which the field comes: "must set X", "must define both X and Y", "need X". */
const FIELD_VERB = /\b(?:must|should|has to|have to|needs? to|shall|to)?\s*(?:set|define|declare|specify|have|has|carry|include|provide|use|configure|list|drop|add)\s+|\bneeds?\s+(?=\w)|\brequires?\s+/g

const NEGATIVE_EXISTENCE = /\b(?:no|never (?:set|use)|(?:nobody|no one|no-one) (?:sets?|uses?|gets?|has|may (?:use|have|get))|don'?t (?:set|use|define)|do not (?:set|use|define)|disallow|forbid|ban|block|reject|deny|prohibit|must not (?:set|use|define|have|declare|specify|add|include|carry)|may not (?:set|use|define|have|carry)|can'?t (?:set|use|define|have|carry))\s+/g

const REJECTED_AFTER = /\bfails?\b(?! to)|\b(?:is|are|gets?(?: \w+)?|should be|must be|will be|to be|be)\s+(?:rejected|denied|blocked|banned|disallowed|forbidden|prohibited|not allowed|not permitted|refused)\b|\b(?:isn'?t|aren'?t|is not|are not|is never|are never) (?:allowed|permitted|accepted|acceptable|ok|okay|good enough)\b|\bdoesn'?t cut it\b|\b(?:is|are) (?:a |an )?(?:violation|fail|failure|finding)s?\b|\bnot ok\b/

export function readClause(written: string, context: ClauseContext): ClauseRequirements {
  return kindUses(written, context) ?? referenceInstead(written, context, listEntriesInstead(written, context, readClauseFitting(written, context)))
}

/**
 * "disallow the use of all Secrets", "only Secrets beginning with `safe-` can be consumed"
 * (kind-uses.ts): every way a pod takes in the kind. First, since the words would otherwise
 * resolve to one of those ways, or to the pod's own name.
 */
function kindUses(written: string, context: ClauseContext): ClauseRequirements | undefined {
  if (context.platform !== 'kubernetes') return undefined
  const schemaKind = context.schemaKind ?? context.kinds[0] ?? 'Pod'
  const uses = readKindUseBan(written, schemaKind) ?? readKindUseNames(written, schemaKind)
  if (!uses) return undefined
  if ('problem' in uses) return { requirements: [], problem: uses.problem, asks: true }
  const subject = { platform: context.platform, kinds: [...context.kinds] }
  return { requirements: [{ sentence: written, subject, values: uses.refs, predicate: uses.predicate, combine: 'all', missing: 'pass', conditions: [], exemptions: [] }], asks: true }
}

/** "binding to the cluster-admin ClusterRole", "only created by a CronJob" (object-references.ts): read where the clause gave nothing else. */
function referenceInstead(written: string, context: ClauseContext, read: ClauseRequirements): ClauseRequirements {
  if (context.platform !== 'kubernetes' || read.requirements.length > 0 || read.problem !== undefined) return read
  const reference = readReference(written, context.schemaKind ?? context.kinds[0])
  if (!reference) return read
  const subject = { platform: context.platform, kinds: [...new Set([...context.kinds, ...reference.alsoKinds])] }
  return { requirements: [{ sentence: written, subject, values: reference.refs, predicate: reference.predicate, combine: 'all', missing: reference.missing, conditions: [], exemptions: [] }], asks: true }
}

function readClauseFitting(written: string, context: ClauseContext): ClauseRequirements {
  const read = readClauseUnchecked(written, context)
  // "every ipBlock must be a /16 or smaller": the range is the block's `cidr`.
  for (const requirement of read.requirements) {
    if (requirement.predicate.op !== 'cidrPrefix') continue
    const blocks = requirement.values.some((ref) => ref.type === 'object')
    requirement.values = requirement.values.map((ref) => (ref.type === 'object' ? (childRef(ref, 'cidr', context) ?? ref) : ref))
    // "every ipBlock used ...": each block there is judged; a rule without one has nothing to judge.
    if (blocks && /\b(?:every|each|any|all)\b/i.test(written)) requirement.missing = 'pass'
  }
  // "Service ports must be in the range 32000 to 33000": a list of objects compared with a value is its elements' namesake field.
  for (const requirement of read.requirements) requirement.values = requirement.values.map((ref) => elementNamesake(ref, requirement.predicate, context))
  // "the hostPath must be /data": an object compared with a value is the one field of it that can hold the value.
  for (const requirement of read.requirements) {
    if (context.platform !== 'kubernetes') continue
    requirement.values = requirement.values.map((ref) => (fits(ref, requirement.predicate) ? ref : (valueHolderChild(ref, requirement.predicate, context.schemaKind ?? context.kinds[0] ?? 'Pod') ?? ref)))
  }
  // "the accessModes must be set to ReadWriteOncePod": a list of enum strings judged entry by entry.
  for (const requirement of read.requirements) {
    const entries = context.platform === 'kubernetes' ? enumListReading(requirement.values, requirement.predicate, context.schemaKind ?? context.kinds[0] ?? 'Pod') : undefined
    if (entries) Object.assign(requirement, { values: entries.refs, predicate: entries.predicate })
  }
  // A reading whose predicate does not fit the field's type ("secretKeyRef must not be literal") is a misreading.
  const fitting = read.requirements.filter((requirement) => requirement.values.every((ref) => fits(ref, requirement.predicate))).map(boundsInFieldUnit)
  if (fitting.length === read.requirements.length) return { ...read, requirements: fitting }
  return fitting.length > 0 ? { ...read, requirements: fitting } : { requirements: [], asks: read.asks }
}

/**
 * "no Role may contain a wildcard entry in its verbs", "the commands `jcmd` or `ps` in a liveness
 * exec probe": entries a list of strings must not hold (list-entries.ts). Read only where the
 * clause gave nothing else, or only a ban of the whole list or its parent (which every object
 * has, and which would be refused).
 */
function listEntriesInstead(written: string, context: ClauseContext, read: ClauseRequirements): ClauseRequirements {
  if (context.platform !== 'kubernetes') return read
  const wholeBans = read.requirements.every((requirement) => requirement.predicate.op === 'unset' && requirement.values.every((ref) => ref.type === 'array' || ref.type === 'object'))
  if (!wholeBans || read.problem !== undefined) return read
  const entries = readListEntries(written, context.schemaKind ?? context.kinds[0], context.instruction)
  if (!entries) return read
  const subject = { platform: context.platform, kinds: [...new Set([...context.kinds, ...entries.alsoKinds])] }
  return { requirements: [{ sentence: written, subject, values: entries.refs, predicate: entries.predicate, combine: 'all', missing: 'pass', conditions: entries.conditions, exemptions: [] }], asks: true }
}

const VALUE_PREDICATES: ReadonlySet<Predicate['op']> = new Set(['equals', 'oneOf', 'noneOf', 'compare', 'format', 'startsWith', 'endsWith', 'notStartsWith', 'notEndsWith'])

/** `spec.ports` compared with a number is each port's `port`: the element's field named as the list is, in the singular. */
function elementNamesake(ref: ValueRef, predicate: Predicate, context: ClauseContext): ValueRef {
  if (context.platform !== 'kubernetes' || ref.type !== 'array' || !VALUE_PREDICATES.has(predicate.op)) return ref
  const leaf = ref.variants[0]?.segments.at(-1) ?? ''
  const singular = leaf.replace(/ies$/, 'y').replace(/(?<=[a-z])s$/, '')
  if (singular === leaf) return ref
  const child = childRef(ref, singular, context)
  return child && child.type !== 'object' && child.type !== 'array' && child.type !== 'map' ? { ...child, explicit: ref.explicit === true } : ref
}

/**
 * "memory_size between 128 and 3008 MB" on a field the schema says is a plain number: the field
 * holds its number in the unit the author wrote, so "3008 MB" is 3008, not 3008 million bytes.
 */
function boundsInFieldUnit(requirement: Requirement): Requirement {
  // "mount no more than 5 volumes": a list that is absent holds none, which no upper bound forbids.
  if (requirement.predicate.op === 'compare' && requirement.values.every((ref) => ref.type === 'array') && requirement.predicate.bounds.every((bound) => bound.cmp === '<' || bound.cmp === '<=')) requirement.missing = 'pass'
  const { predicate } = requirement
  if (predicate.op !== 'compare' || !requirement.values.every((ref) => ref.type === 'number' || ref.type === 'integer')) return requirement
  const plain = predicate.bounds.map((bound) => {
    const quantity = typeof bound.value === 'string' ? /^(\d+(?:\.\d+)?)(?:m|k|Ki|Mi|Gi|Ti|Pi|M|G|T|P|E|Ei)$/.exec(bound.value) : null
    return quantity?.[1] && !bound.seconds ? { ...bound, value: Number(quantity[1]) } : bound
  })
  return { ...requirement, predicate: { ...predicate, bounds: plain } }
}

export function fits(ref: ValueRef, predicate: Predicate): boolean {
  const strings = predicateStrings(predicate).filter((value) => !/^\d/.test(value))
  switch (ref.type) {
    case 'object':
    case 'map':
      return predicate.op === 'set' || predicate.op === 'unset' || predicate.op === 'compareField' || (ref.type === 'map' && predicate.op === 'keysNoneStartWith')
    case 'array':
      // A list whose entries the schema restricts to an enum is judged entry by entry (enum-list-values.ts).
      if ((predicate.op === 'oneOf' || predicate.op === 'noneOf') && ref.enum !== undefined && strings.every((value) => ref.enum?.includes(value))) return true
      return !['equals', 'oneOf', 'noneOf', 'compare', 'format', 'startsWith', 'endsWith'].includes(predicate.op) || strings.length === 0
    case 'boolean':
      return !['compare', 'format', 'startsWith', 'endsWith', 'imageRegistry', 'imageTag'].includes(predicate.op) && strings.every((value) => /^(true|false)$/i.test(value))
    case 'integer':
    case 'number':
      return strings.length === 0 && !['format', 'startsWith', 'endsWith', 'imageRegistry', 'imageTag'].includes(predicate.op)
    default:
      return true
  }
}

/** "Set `spec.concurrencyPolicy` to Forbid", "please pin images by digest": an order is a requirement. */
const IMPERATIVE = /^\s*(?:please\s+|kindly\s+|always\s+)?(?=(?:set|pin|keep|give|add|define|declare|specify|enable|disable|turn on|turn off|configure|restrict|limit|drop|mount|run|use)\b(?!\s+(?:of|to|up|by)\b))/i

function readClauseUnchecked(written: string, context: ClauseContext): ClauseRequirements {
  // "no `for` means it fires at once", "TLS secrets don't need the label": what absence means, or an exemption, never a ban or demand.
  if (asksNothing(written)) return { requirements: [], asks: false }
  // "must not use `latest` as a version": the written word is a value of what the noun names, never a key of its own.
  const valueAs = VALUE_AS.exec(written)
  if (valueAs?.[1] && valueAs[2] && context.platform === 'generic') return { requirements: [], asks: true, problem: `it writes \`${valueAs[1]}\` as a ${valueAs[2]}, a value, and no key holding the ${valueAs[2]} was read; which key holds it?` }
  // "only the port range 32000 to 33000 may be used for Services": what alone is permitted is required.
  // "there must not be an image containing `tiller`", "there must be a hostname for each rule": the thing as the subject.
  const there = thereAsSubject(written)
  // "there must not be a volume containing `x`": a volume is an element of a list, not one value that could contain text.
  if (there?.banned !== undefined && context.platform === 'kubernetes' && namesList(there.banned, context.schemaKind ?? context.kinds[0] ?? 'Pod')) return { requirements: [], asks: true }
  // "there must be a label for each team": one of each element of a list, or nothing this reader can say.
  if (there?.eachElement === true) {
    const each = context.platform === 'kubernetes' ? readEachElementHas(there.text, context.schemaKind ?? context.kinds[0] ?? 'Pod', (noun) => fieldsIn(noun, context)) : undefined
    const subject = { platform: context.platform, kinds: [...context.kinds] }
    return each ? { requirements: [{ sentence: there.text, subject, values: [each.ref], predicate: { op: 'set' }, combine: 'all', missing: 'fail', conditions: each.condition ? [each.condition] : [], exemptions: [] }], asks: true } : { requirements: [], asks: true }
  }
  if (there !== undefined) return readClauseUnchecked(there.text, context)
  const onlyPermitted = onlyPermittedAsRequired(written)
  if (onlyPermitted !== undefined && onlyPermitted !== written) return readClauseUnchecked(onlyPermitted, context)
  const imperative = IMPERATIVE.exec(written)
  if (imperative && !/\b(must|should|has to|have to|needs? to|shall)\b/i.test(written)) return readClauseUnchecked(`must ${written.slice(imperative[0].length)}`, context)
  // "..., we deliberately do not set CPU limits": what the team does is said, not asked.
  const text = childPaths(elementPaths(nestedKeys(written)))
    // "..., our CNI and kube-proxy genuinely need hostNetwork": why, about the team's own things.
    .replace(/(^|[,;]\s*)(?:but\s+|and\s+|so\s+|since\s+)?(?:our|my)\s(?![^,;.]*\b(?:must|should|has to|have to|shall)\b)[^,;.]*/gi, '$1')
    .replace(/(^|[,;]\s*)(?:but\s+|and\s+|so\s+)?(?:we|i|they)\b(?![^,;.]*\b(?:must|need|needs|require|should|want|have to)\b)[^,;.]*/gi, '$1').trim()
  // "if the `FOO` environment variable is defined, it must be `bar`": one element of a list, picked by its name.
  const namedElement = context.platform === 'kubernetes' ? readNamedElement(text, context.schemaKind ?? context.kinds[0] ?? 'Pod') : undefined
  if (namedElement) return { requirements: [{ sentence: text, subject: { platform: context.platform, kinds: [...context.kinds] }, combine: 'all', exemptions: [], ...namedElement }], asks: true }
  // "hostPath volumes must be mounted read-only": each mount of a volume of that type.
  const mountedReadOnly = context.platform === 'kubernetes' ? readMountedReadOnly(text, context.schemaKind ?? context.kinds[0] ?? 'Pod') : undefined
  if (mountedReadOnly) return { requirements: [{ sentence: text, subject: { platform: context.platform, kinds: [...context.kinds] }, values: mountedReadOnly.refs, predicate: mountedReadOnly.predicate, combine: 'all', missing: 'fail', conditions: [mountedReadOnly.condition], exemptions: [] }], asks: true }
  const ifSet = IF_SET.exec(text)
  if (ifSet?.[1] && ifSet[2] !== undefined) {
    // "if deletion_window_in_days is set it must be at least 14": judged only where it is set.
    // "... the type may only be ...": the type of what was just said to be set.
    const rest = ifSet[2].replace(/^(?:it|they|its value|the value)\b/i, ifSet[1]).replace(/^(?:the|its)\s+(?=[a-z]\w*\s+(?:must|may|can|has|have|should|needs?|is|are)\b)/i, `${ifSet[1].replace(/^the\s+/i, '')} `)
    const read = readClauseUnchecked(rest, context)
    for (const requirement of read.requirements) if (requirement.predicate.op !== 'set' && requirement.predicate.op !== 'unset') requirement.missing = 'pass'
    if (read.requirements.length > 0) return read
  }
  const lower = text.toLowerCase()
  // "We deliberately do not set CPU limits": what the team does, not what the rule asks.
  if (/^\s*(?:but\s+|and\s+|so\s+)?(we|i|they)\b/.test(lower) && !/\b(must|needs?|require|should|have to|has to|want)\b/.test(lower)) return { requirements: [], asks: false }
  // "everything else has to use the shared runners": the complement of what was just allowed, said again.
  if (/^(?:and\s+|but\s+|so\s+)?(?:(?:everything|anything|everyone|anyone|all|any)\s+(?:else|others?)\b|otherwise\b|the rest\b)/.test(lower) && fieldsIn(text, context).every((ref) => ref.weak)) return { requirements: [], asks: false }
  const asks = ASKS.test(lower) || REJECTED_AFTER.test(lower)
  const requirements: Requirement[] = []
  const subject = { platform: context.platform, kinds: [...context.kinds] }
  const make = (values: ValueRef[], predicate: Predicate, missing: 'pass' | 'fail'): Requirement => ({
    sentence: text,
    subject,
    values,
    // "require runAsNonRoot", "must set readOnlyRootFilesystem": a boolean required is a boolean true.
    predicate: predicate.op === 'set' && values.length > 0 && values.every((ref) => ref.type === 'boolean') ? { op: 'equals', value: true } : predicate,
    combine: 'all',
    missing,
    conditions: [],
    exemptions: [],
  })

  // "topologySpreadConstraints must be defined, to spread pods over nodes and zones": a constraint per domain.
  const spread = context.platform === 'kubernetes' && /\bspread/i.test(text) ? readSpreadDomains(text, fieldsIn(text, context).find((ref) => ref.variants[0]?.segments.at(-1) === 'topologySpreadConstraints')) : undefined
  if (spread) return { requirements: spread.map((item) => make([item.ref], item.predicate, 'fail')), asks: true }

  // "must have no more than four containers", "at least 2 tolerations": a count of a list's elements.
  const counted = readElementCount(text, context)
  if (counted) return { requirements: [make([counted.list], counted.predicate, counted.missing)], asks: true }

  // "each rule must have a hostname", "each containerPort must have a name": a field every element of a list sets.
  const eachHas = context.platform === 'kubernetes' ? readEachElementHas(text, context.schemaKind ?? context.kinds[0] ?? 'Pod', (noun) => fieldsIn(noun, context)) : undefined
  if (eachHas) return { requirements: [{ ...make([eachHas.ref], { op: 'set' }, 'fail'), conditions: eachHas.condition ? [eachHas.condition] : [] }], asks: true }

  // "must have one of livenessProbe, readinessProbe, or startupProbe defined": fields listed, one of them to be set.
  const anyOf = readAnyOfFields(text, (name) => fieldsIn(`\`${name}\``, context))
  if (anyOf) return { requirements: [{ ...make(anyOf, { op: 'set' }, 'fail'), combine: 'any' }], asks: true }

  // "must tolerate the GPU taint: a toleration with key nvidia.com/gpu and effect NoSchedule": one element of a list, described.
  const element = readElementWith(text, {
    platform: context.platform,
    ...(context.schemaKind ? { schemaKind: context.schemaKind } : {}),
    listNamed: (noun) => (context.platform === 'generic' ? literalRef([noun], 'object', noun) : fieldsIn(noun, context).find((ref) => !ref.weak)),
  })
  if (element && 'problem' in element) return { requirements: [], problem: element.problem, asks: true }
  if (element) return { requirements: [make([{ ...element.list, explicit: true }], element.predicate, element.predicate.negated ? 'pass' : 'fail')], asks: true }

  // "min_tls_version TLS1_2", "enable_https_traffic_only true": a checklist entry, the field and its value.
  const terse = /^\s*([`"']?[A-Za-z_][\w.[\]/-]*[`"']?)\s*[:=]?\s+[`"']?([\w.:/@%-]+)[`"']?\s*[.!]?$/.exec(text)
  if (terse?.[1] && terse[2] && !/\.(json|ya?ml|tf|toml|txt|md|conf)[`"']?$/i.test(terse[1]) && !/^(is|are|be|must|should|only|not|no|too|also|required|optional|please)\.?$/i.test(terse[2])) {
    const field = codeTokens(terse[1])[0]
    const refs = field && field.index === 0 ? fieldsIn(terse[1], context).filter((ref) => ref.explicit) : []
    if (refs.length === 1) return { requirements: [make(refs, { op: 'equals', value: normal(scalarOf(terse[2].replace(/\.$/, ''))) }, 'fail')], asks: true }
  }

  // "prevents the use of an annotation beginning with `fluxcd.io/`": no key of the map starts with the prefix.
  const prefixBan = context.platform !== 'generic' ? readKeyPrefixBan(written, context.platform) : undefined
  if (prefixBan) {
    const requirement = make(prefixBan.refs, prefixBan.predicate, 'pass')
    // Every object has metadata: a ban naming no kind holds for whatever carries the annotation.
    if (context.platform === 'kubernetes' && kindsNamedIn(normalizeText(written)).length === 0) requirement.subject = { ...subject, kinds: [] }
    return { requirements: [requirement], asks: true }
  }

  // Metadata keys written with their values, the word label or annotation left out.
  const pairs = context.platform === 'kubernetes' && !MAP_WORD.test(lower) && asks ? readWrittenPairs(text) : undefined
  if (pairs) return { requirements: pairs.requirements.map((entry) => ({ ...make(entry.values, entry.predicate, entry.missing), exemptions: entry.exemptions })), asks: true }

  // "a CostCentre tag like CC-1234 and an Environment tag of dev, staging or prod": each key with its own value.
  const mapItems = text.split(/\s+and\s+(?=(?:an?|the)\s+[`"']?[\w./-]+[`"']?\s+(?:label|annotation|tag)\b)/i)
  if (mapItems.length > 1) {
    const readings = mapItems.map((item) => readMapKeys(item, item.toLowerCase(), context))
    if (readings.every((reading) => reading !== undefined)) return { requirements: readings.flatMap((reading) => reading ?? []).map((entry) => make(entry.values, entry.predicate, entry.missing)), asks: true }
  }
  // Labels, annotations and tags: keys are the fields.
  const mapReading = readMapKeys(text, lower, context)
  // "For controllers we read the label off the pod template", "only allowed if tagged `public`": a key mentioned, nothing asked of it.
  const describesOnly = mapReading?.every((entry) => entry.predicate.op === 'set') && !REQUIRES_KEY.test(lower)
  if (mapReading && !describesOnly) return { requirements: mapReading.map((entry) => make(entry.values, entry.predicate, entry.missing)), asks: true }

  // "X set to true gets the pod rejected", "anything with securityContext.privileged: true should be rejected".
  const rejected = REJECTED_AFTER.exec(lower)
  const reading = readPredicate(text, lower)
  if (rejected && (!reading || reading.cueIndex > rejected.index - 60)) {
    const before = text.slice(0, rejected.index)
    // "any other runtime class is rejected", "anything else ...": the complement of what was just allowed.
    if (/\b(other|else|different)\b/i.test(before) && !/[:=]/.test(before)) return { requirements: [], asks: false }
    const fields = fieldsIn(before, context)
    // "X set to true", "an explicit runAsUser of 0", "strategy.type Recreate": the value banned ends the subject.
    const valueAt = /(?:set to|[:=]|to be|is|are|of)\s*[`"']?([\w./%-]+)[`"']?\s*$/i.exec(before.trim()) ?? /[\w\]`"'][`"']?\s+([A-Z][\w-]*|\d+(?:\.\d+)?|"[^"]+"|`[^`]+`)\s*$/.exec(before.trim())
    const refs = fields.length > 0 ? fields : (context.previous ?? [])
    // ""1.0", "1.1" or "Disabled" fail": a list of values alone before the verb, each one rejected.
    const previous = context.previous ?? []
    const listed = previous.length > 0 && /^\s*[`"']/.test(before) ? readValueList(before.trim()) : undefined
    if (listed && listed.values.length > 1 && listed.end >= before.trim().length - 1) return { requirements: [make(previous, { op: 'noneOf', values: listed.values.map(normal) }, 'pass')], asks }
    if (fields.length > 0 && /\b(no|without|missing|lacking)\b/i.test(before)) return { requirements: [make(fields, { op: 'set' }, 'fail')], asks }
    const implied = fields.length === 0 ? enumImplied(before, context) : undefined
    if (implied) return { requirements: [make(implied.refs, { op: 'noneOf', values: implied.values }, 'pass')], asks }
    if (refs.length > 0) {
      // "Hand-made Secrets get rejected": the word before the verb names what is judged, not a value.
      const namesKind = valueAt?.[1] !== undefined && fields.length === 0 && kindsNamedIn(normalizeText(valueAt[1])).length > 0
      if (namesKind) return { requirements: [], asks: false }
      if (valueAt?.[1] && !fields.some((field) => field.label.endsWith(valueAt[1] ?? ''))) {
        return { requirements: [make(refs, { op: 'noneOf', values: [scalarOf(valueAt[1])] }, 'pass')], asks }
      }
      const list = readValueList(before.replace(/^.*?\b(?:and|so is|also|even)\b/i, ''))
      const values = fields.length === 0 ? list.values.filter((value) => typeof value !== 'string' || !/^(it|this|that|they|anything|any)$/i.test(value)) : []
      if (values.length > 0) return { requirements: [make(refs, { op: 'noneOf', values: values.map(normal) }, 'pass')], asks }
      if (fields.length > 0) return { requirements: [make(fields, absentPredicate(fields), 'pass')], asks }
    }
  }

  if (asksForSomethingElse(text)) return { requirements: [], problem: 'it addresses a model or asks for something that is not a rule about documents', asks: true }

  const toggled = readToggle(text, lower, context)
  if (toggled) return { requirements: [make(toggled.refs, { op: 'equals', value: toggled.value }, 'fail')], asks: true }

  const namespaceBan = /\b(?:no|not|nothing|never|nobody|don'?t|do not|must not|may not|can'?t|cannot)\b.{0,50}?\b(?:the\s+)?[`"']?([a-z0-9][a-z0-9-]*)[`"']?\s+namespace\b/.exec(lower)
  if (namespaceBan?.[1] && context.platform === 'kubernetes' && !/\b(except|unless|only|other than)\b/.test(lower) && codeTokens(text).length === 0 && !/\b(host|pid|ipc|network|user|linux|kernel)$/.test(namespaceBan[1])) {
    return { requirements: [make([{ scope: 'object', variants: [{ segments: ['metadata', 'namespace'] }], label: 'namespace', type: 'string' }], { op: 'noneOf', values: [namespaceBan[1]] }, 'fail')], asks: true }
  }

  // "disallow sysctl settings with + or = in their value": a field of each element must not hold the pieces written.
  const banned = context.platform === 'kubernetes' ? readBannedCharacters(text, context.schemaKind ?? context.kinds[0] ?? 'Pod') : undefined
  if (banned) return { requirements: [make(banned.refs, banned.predicate, 'pass')], asks: true }
  // "Disallow mounting the Docker socket": no hostPath volume at the paths the named socket has.
  const socket = context.platform === 'kubernetes' ? readSocketBan(text, context.schemaKind ?? context.kinds[0] ?? 'Pod') : undefined
  if (socket) return { requirements: [make(socket.refs, socket.predicate, 'pass')], asks: true }

  const early = negativeExistence(lower)
  if (early && !/\b(we|i|they)\b(\s+\w+ly)?\s*$/.test(lower.slice(0, early.index))) {
    const after = whatIsKeptFrom(text.slice(early.index + early.length))
    // "nobody gets the escalate, bind or impersonate verbs": the values, then the field they are values of.
    const listed = valuesBeforeField(after, context)
    if (listed) return { requirements: [make(listed.refs, { op: 'notContains', values: listed.values }, 'pass')], asks: true }
    const fields = fieldsIn(after.split(/[,;]|\.(?=\s|$)|\b(?:unless|except|if|when)\b/)[0] ?? after, context)
    if (fields.length > 0 && !/^\s*(?:more|less|fewer|higher|lower)\b/i.test(after)) {
      // "must not use an empty podSelector": what is banned is the field holding nothing, so it must hold something.
      if (/^\s*(?:an?\s+|the\s+)?empty\s/i.test(after)) return { requirements: [make(fields, { op: 'set' }, 'fail')], asks: true }
      const qualified = qualifiedBan(after, fields, context)
      if (qualified) return { requirements: [make(qualified.refs, qualified.predicate, 'pass')], asks: true }
      const valueIn = bannedValueIn(after, context)
      if (valueIn) return { requirements: [make(valueIn.refs, { op: 'notContains', values: valueIn.values }, 'pass')], asks: true }
      const nested = nestedBan(after, fields, context)
      if (nested) return { requirements: [make([nested], { op: 'unset' }, 'pass')], asks: true }
      const registries = readPredicate(after, after.toLowerCase())
      if (registries?.predicate.op === 'imageRegistry') return { requirements: [make(fields, { op: 'imageRegistryDenied', registries: registries.predicate.registries }, 'pass')], asks: true }
      const pairs = bannedPairs(after, context.platform === 'generic' ? [...fields, ...pairFields(after, fields)] : fields)
      if (pairs) return { requirements: pairs.map((pair) => make([pair.ref], { op: 'noneOf', values: [pair.value] }, 'pass')), asks: true }
      return { requirements: [make(fields, absentPredicate(fields), 'pass')], asks: true }
    }
  }

  const capabilities = readCapabilities(text, context)
  if (capabilities) return { requirements: [make(capabilities.refs, capabilities.predicate, capabilities.missing)], asks: true }

  const fieldComparison = readFieldComparison(text, context)
  if (fieldComparison) return { requirements: [make(fieldComparison.left, fieldComparison.predicate, 'fail')], asks }

  if (reading) {
    // "every origin in it must be https": the elements of the field before, whatever words name them.
    if (context.previous && ELEMENTS_OF_PRONOUN.test(text.slice(0, reading.cueIndex))) {
      return { requirements: [make(context.previous, reading.predicate, missingFor(reading, reading.predicate, context.previous))], asks }
    }
    const before = fieldsIn(text.slice(0, reading.cueIndex), context)
    // "Roles must not contain the verbs escalate, bind": the noun of the values names the field the subject did not.
    const byNoun = reading.noun && before.every((ref) => ref.weak) ? fieldsIn(reading.noun, context).filter((ref) => !ref.weak) : []
    const byPlace = reading.place ? fieldsIn(reading.place, context).filter((ref) => !ref.weak) : []
    const fields = byPlace.length > 0 ? byPlace : byNoun.length > 0 ? byNoun : before
    const afterFields = fields.length === 0 ? fieldsAfterVerb(text, lower, context) : []
    const refs = fields.length > 0 ? fields : afterFields.length > 0 ? afterFields : []
    if (refs.length === 0 && context.previous && refersBack(text.slice(0, reading.cueIndex), context.previous)) {
      return { requirements: [make(context.previous, reading.predicate, missingFor(reading, reading.predicate, context.previous))], asks }
    }
    if (refs.length === 0 && context.platform === 'kubernetes') refs.push(...fieldsByEnum(reading.predicate, context))
    // "Seccomp must be RuntimeDefault or Localhost": values of several fields' enums, the subject's word names one of them.
    if (refs.length === 0 && context.platform === 'kubernetes') refs.push(...enumHolderNamed(text.slice(0, reading.cueIndex), predicateStrings(reading.predicate), context.schemaKind ?? 'Pod'))
    // "at least 2 replicas", "memory requests of at least 64Mi": the field after the number.
    if (refs.length === 0 && reading.predicate.op === 'compare') refs.push(...fieldsIn(text.slice(reading.end).split(/[,;]|\.(?=\s|$)/)[0] ?? '', context).filter((ref) => !ref.weak))
    // "a user other than `0`" found at several places (`runAsGroup`, `seLinuxOptions.user`): which one is meant is not said.
    if (/^(?:other than|different from)\b/.test(lower.slice(reading.cueIndex)) && new Set(refs.map((ref) => ref.variants[0]?.segments.slice(-2).join('.'))).size > 1) return { requirements: [], asks }
    if (refs.length > 0) {
      refineByEnum(refs, reading.predicate, context)
      const second = reading.end < text.length ? readPredicate(text, lower, reading.end) : undefined
      if (second && /^\s*(\w+ly\s+)?(,\s*)?(and|but|,)\s+(also\s+)?(be\s+|is\s+|must\s+(also\s+)?be\s+|has to be\s+)?$/i.test(text.slice(reading.end, second.cueIndex))) combinePredicates(reading, second)
      const predicate = scaled(reading, refs, context, statedUnit(lower))
      const formatted = formatInsteadOfEquals(predicate, text.slice(reading.cueIndex))
      const adjective = adjectiveAttribute(refs, formatted, context)
      if (adjective) return { requirements: [make([adjective], { op: 'equals', value: true }, 'fail')], asks }
      const status = statusAttribute(refs, formatted, context)
      if (status) return { requirements: [make([status], formatted, 'fail')], asks }
      return { requirements: [make(refs, formatted, missingFor(reading, formatted, refs))], asks }
    }
  }

  // "every pod has to run with the RuntimeDefault or Localhost seccomp profile": the values name the field.
  const implied = codeTokens(text).length === 0 ? enumImplied(text, context) : undefined
  if (implied && /\b(must|has to|have to|needs? to|should|shall|required?)\b/.test(lower)) {
    const negated = /\b(must not|mustn'?t|can'?t|cannot|may not|never|no|not allowed|banned|forbidden)\b/.test(lower)
    return { requirements: [make(implied.refs, negated ? { op: 'noneOf', values: implied.values } : { op: 'oneOf', values: implied.values }, negated ? 'pass' : 'fail')], asks }
  }

  // "must set X", "must define both X and Y", "need X": the field after the verb, required.
  const setFields = fieldsAfterVerb(text, lower, context)
  const format = readFormat(lower, text)
  if (setFields.length > 0 && /\b(must|should|has to|have to|needs?|shall|required?|requires|mandatory)\b/.test(lower) && !/\b(must not|mustn'?t|should not|can'?t|cannot|may not)\b/.test(lower)) {
    const assigned = /[:=]\s*[`"']?([\w./-]+)[`"']?/.exec(text.slice(text.search(/\b(set|define|declare|specify|have|has|carry|use)\b/i)))
    if (assigned?.[1] && setFields.length === 1) return { requirements: [make(setFields, { op: 'equals', value: normal(scalarOf(assigned[1])) }, 'fail')], asks }
    const requirement = make(setFields, format ? { op: 'format', ...format } : { op: 'set' }, 'fail')
    // "define topologySpreadConstraints or a podAntiAffinity": either will do.
    if (setFields.length > 1 && /\bor\b/i.test(text) && !/\band\b/i.test(text.slice(text.search(/\b(set|define|declare|specify|have|has|carry|use|include|need)\b/i)))) requirement.combine = 'any'
    return { requirements: [requirement], asks }
  }

  // "no hostAliases", "disallow hostPath volumes", "nobody sets spec.externalIPs".
  const negative = negativeExistence(lower)
  // "We deliberately do NOT set CPU limits": a practice described, not a rule.
  const descriptive = negative !== undefined && /\b(we|i|they|people|teams?|nobody here)\b(\s+\w+ly)?\s*$/.test(lower.slice(0, negative.index))
  // "no more than 10x minReplicas" compares; it does not ban.
  if (negative && !descriptive && !/^\s*(?:more|less|fewer|higher|lower|greater|larger|smaller|wider|narrower|longer|shorter)\b/i.test(text.slice(negative.index + negative.length))) {
    const fields = fieldsIn(whatIsKeptFrom(text.slice(negative.index + negative.length)), context, true)
    if (fields.length > 0) return { requirements: [make(fields, absentPredicate(fields), 'pass')], asks }
  }

  // "owner as an email address", "version as semver".
  if (format) {
    // "owner as an email address": the field is named before the words of the format.
    const formatWords = /\s(?:as|in|formatted|written|like|is|are|must|should|has to|needs? to|that is|of|with)\s|:\s/i.exec(text)
    const named = formatWords ? fieldsIn(text.slice(0, formatWords.index), context) : []
    const fields = named.length > 0 ? named : fieldsIn(text, context)
    if (fields.length > 0) return { requirements: [make(fields, { op: 'format', ...format }, 'fail')], asks }
  }

  // "every network_interface has an empty access_config list": the field must hold nothing.
  const empty = /\b(?:has|have|with|keeps?|gets?|carr(?:y|ies))\s+(?:an?\s+)?empty\s+[`"']?([A-Za-z_][\w.-]*)/i.exec(text)
  if (empty?.[1]) {
    const fields = fieldsIn(text, context)
    const innerName = empty[1].split('.').at(-1) ?? empty[1]
    const [outer] = fields
    const inner = fields.find((ref) => ref.variants[0]?.segments.at(-1) === innerName)
    const target = outer && inner && outer !== inner ? (childRef(outer, innerName, context) ?? inner) : inner
    if (target) return { requirements: [make([target], { op: 'unset' }, 'pass')], asks: true }
  }

  const named = fieldsIn(text, context)
  if (asks && named.length > 0 && requirements.length === 0 && /\b(must|has to|have to|needs? to|should|shall|can'?t|cannot|may not)\b/.test(lower)) {
    return { requirements: [], problem: `found a requirement on ${named.map((ref) => `\`${ref.variants[0]?.segments.join('.') ?? ref.label}\``).join(', ')} but no value or condition to check it against`, asks }
  }
  return { requirements, asks }
}

/** "if X is set, it must ...", "wherever X is set the type may only be ...": a requirement on a value where it is given. */
const IF_SET = /^\s*(?:.*?\b)?(?:if|when|where|wherever|whenever)\s+((?:the\s+)?[`"']?[\w.[\]/-]+[`"']?(?:\s+\w+)?)\s+(?:is|are|has been|gets)\s+(?:set|present|specified|given|defined|configured|provided|used)\b\s*,?\s*(?:then\s+)?(.+)$/i

const FIELD_COMPARISON = /\b(strictly\s+)?(greater|more|higher|larger|bigger|less|lower|smaller|fewer)\s+than\s+(or equal to\s+)?(?:the\s+)?|\b(?:be\s+)?(?:equal to|the same as|identical to|match(?:es)?)\s+(?:the\s+)?|\b(?:must not|can'?t|cannot|may not) (?:be )?(?:the same as|equal(?: to)?)\s+(?:the\s+)?/i

/** "maxReplicas must be strictly greater than minReplicas", "memory limit equal to the request": two fields compared. */
function readFieldComparison(text: string, context: ClauseContext): { left: ValueRef[]; predicate: Predicate } | undefined {
  const multiple = readMultipleComparison(text, context) ?? readPairComparison(text, context)
  if (multiple) return multiple
  const match = FIELD_COMPARISON.exec(text)
  if (!match) return undefined
  const tail = text.slice(match.index + match[0].length)
  if (/^\s*[\d"'`^([\\]/.test(tail)) return undefined
  // A full stop ends the other field; the dots inside a path ("pool.floor") do not.
  const right = fieldsIn(tail.split(/[,;]|\.(?=\s|$)|\b(?:and|if|when|unless)\b/)[0] ?? tail, context)
  const left = fieldsIn(text.slice(0, match.index), context)
  const other = right[0] ? sameKeyOf(right[0], left, context) : undefined
  if (!other || left.length === 0) return undefined
  const words = (match[2] ?? '').toLowerCase()
  const greater = /greater|more|higher|larger|bigger/.test(words)
  const orEqual = match[3] !== undefined
  const negated = /must not|can'?t|cannot|may not/i.test(match[0])
  // "min must not be greater than max": the negation before the comparison turns it round (min <= max).
  const notBefore = words !== '' && /\b(?:must not|mustn'?t|can'?t|cannot|may not|should not|shouldn'?t|never|is not|isn'?t|are not|aren'?t)\s+(?:be\s+)?$/i.test(text.slice(0, match.index))
  const stated: Comparison = greater ? (orEqual ? '>=' : '>') : orEqual ? '<=' : '<'
  const cmp = words === '' ? (negated ? '!=' : '==') : notBefore ? INVERSE[stated] : stated
  return { left, predicate: { op: 'compareField', cmp, other } }
}

/**
 * "memory requests equal to limits": the other side names a map (`resources.limits`) whose key the
 * first side gave (`resources.requests.memory`); the same key of it is meant.
 */
function sameKeyOf(other: ValueRef, left: readonly ValueRef[], context: ClauseContext): ValueRef {
  const [only] = left
  if (other.type !== 'map' || left.length !== 1 || !only) return other
  const key = only.variants[0]?.segments.at(-1)
  if (key === undefined) return other
  const child = childRef(other, key, context)
  if (child) return child
  // A map of quantities lists no keys in the schema: the key is appended as the first side wrote it.
  const { type: _mapType, ...rest } = other
  return { ...rest, variants: other.variants.map((variant) => ({ ...variant, segments: [...variant.segments, key] })), label: `${other.label} ${key}`, ...(only.type ? { type: only.type } : {}) }
}

/** "Liveness and readiness probes must not be equal": two fields named together, then compared with each other. */
const PAIR_COMPARED = /^(.+?)\s+(?:must|should|have to|need to)\s+(not\s+)?be\s+(?:equal|the same|identical)\s*(?:to each other|to one another)?\s*[.!]?$/i

function readPairComparison(text: string, context: ClauseContext): { left: ValueRef[]; predicate: Predicate } | undefined {
  const match = PAIR_COMPARED.exec(text.trim())
  if (!match?.[1]) return undefined
  const fields = fieldsIn(match[1], context)
  const [first, second] = fields
  if (fields.length !== 2 || !first || !second) return undefined
  return { left: [first], predicate: { op: 'compareField', cmp: match[2] ? '!=' : '==', other: second } }
}

const INVERSE: Readonly<Record<Comparison, Comparison>> = { '>': '<=', '>=': '<', '<': '>=', '<=': '>' }

const MULTIPLE = /\b(at most|no more than|not more than|up to|can'?t exceed|cannot exceed|must not exceed|may not exceed|at least|no less than|not less than|less than|fewer than|more than|greater than|under|below|over|above|<=|>=|≤|≥|<|>)\s*(\d+(?:\.\d+)?)\s*(?:x|×|times)\s+(?:the\s+|its\s+|their\s+|that\s+)?/i

/** "limits.cpu at most 4x the CPU request", "maxReplicas no more than 10x minReplicas": a field against a multiple of another. */
function readMultipleComparison(text: string, context: ClauseContext): { left: ValueRef[]; predicate: Predicate } | undefined {
  const match = MULTIPLE.exec(text)
  if (!match?.[1] || !match[2]) return undefined
  const tail = text.slice(match.index + match[0].length)
  // A full stop ends the other field; the dots inside a path ("pool.floor") do not.
  const right = fieldsIn(tail.split(/[,;]|\.(?=\s|$)|\b(?:and|if|when|unless)\b/)[0] ?? tail, context)
  const left = fieldsIn(text.slice(0, match.index), context)
  const other = right[0]
  if (!other || left.length === 0) return undefined
  const words = match[1].toLowerCase()
  const cmp = /most|no more|not more|up to|exceed|<=|≤/.test(words) ? '<=' : /least|no less|not less|>=|≥/.test(words) ? '>=' : /less|fewer|under|below|</.test(words) ? '<' : '>'
  return { left, predicate: { op: 'compareField', cmp, other, factor: Number(match[2]) } }
}

/** "must be set and be at least 2", "positive and at most a day": one predicate of both. */
function combinePredicates(first: PredicateReading, second: PredicateReading): void {
  if (first.predicate.op === 'compare' && second.predicate.op === 'compare') {
    first.predicate = { op: 'compare', bounds: [...first.predicate.bounds, ...second.predicate.bounds] }
    first.unit = first.unit?.kind ? first.unit : second.unit
  } else if (first.predicate.op === 'set') {
    first.predicate = second.predicate
    first.unit = second.unit
    first.missing = 'fail'
  }
  first.end = second.end
}

/** Enum values named in the text ("NodePort", "RuntimeDefault or Localhost") and the one field whose enum holds them all. */
function enumImplied(text: string, context: ClauseContext): { refs: ValueRef[]; values: string[] } | undefined {
  if (context.platform !== 'kubernetes') return undefined
  const words = [...new Set([...text.matchAll(/\b[A-Z][A-Za-z0-9]+\b/g)].map((match) => match[0]))]
  if (words.length === 0) return undefined
  const all = kubernetesFields(context.schemaKind ?? 'Pod')
  const fields = all.filter((info) => info.enum && !/initContainers|ephemeralContainers/.test(info.path))
  const enumWords = words.filter((word) => fields.some((info) => info.enum?.includes(word)))
  if (enumWords.length === 0) return undefined
  const leaves = new Set(all.map((info) => info.path.split(/[.[\]]+/).filter(Boolean).at(-1)?.toLowerCase()))
  const kindWords = context.kinds.map((kind) => kind.toLowerCase())
  // "Egress rules must not ...": an enum word that also names a field, used as a noun's modifier, is the field.
  const asNoun = (word: string): boolean => {
    const next = new RegExp(String.raw`\b${word}\s+([a-z]+)`).exec(text)?.[1]
    return leaves.has(word.toLowerCase()) && next !== undefined && !kindWords.some((kind) => next.startsWith(kind.slice(0, 5)))
  }
  const values = enumWords.filter((word) => !asNoun(word))
  if (values.length === 0) return undefined
  const holders = fields.filter((info) => values.every((value) => info.enum?.includes(value)))
  const places = new Set(holders.map((info) => info.path.split('.').slice(-2).join('.')))
  if (holders.length === 0 || places.size !== 1) return undefined
  return { refs: holders.map((info) => ({ ...kubernetesRef(info, values.join(', ')), named: { words: values[0] ?? '', how: 'enum value' } })), values }
}

/** "Containers must drop ALL capabilities", "only permitted to add back NET_BIND_SERVICE". */
function readCapabilities(text: string, context: ClauseContext): { refs: ValueRef[]; predicate: Predicate; missing: 'pass' | 'fail' } | undefined {
  if (context.platform !== 'kubernetes') return undefined
  const match = /\b(drop|add)(?:s|ed)?\s+(?:back\s+)?(?:only\s+)?(?:the\s+)?([A-Z][A-Z_]{2,}(?:(?:,\s*|\s+(?:and|or)\s+)[A-Z][A-Z_]{2,})*)/.exec(text)
  if (!match?.[1] || !match[2]) return undefined
  const values = match[2].split(/,\s*|\s+(?:and|or)\s+/).map((value) => value.trim()).filter((value) => value.length > 0)
  // "drop the CAP_NET_RAW ability": a name in the kernel's own `CAP_` spelling says it is a capability without the word.
  if (!/capabilit/i.test(text) && !values.every((value) => /^CAP_[A-Z0-9_]+$/.test(value))) return undefined
  const refs = kubernetesMentions(context.schemaKind ?? 'Pod', `capabilities ${match[1]}`).filter((ref) => ref.scope === 'container').slice(0, 1)
  if (refs.length === 0) return undefined
  // `NET_RAW` and `CAP_NET_RAW` name one capability (the runtime adds the prefix and ignores case); `ALL` is a word of its own.
  const required: Predicate = values.includes('ALL') ? { op: 'listAllOf', values } : { op: 'listAllOf', values, capabilityNames: true }
  if (match[1] === 'drop') return { refs, predicate: required, missing: 'fail' }
  const only = /\bonly\b/i.test(text)
  return { refs, predicate: only ? { op: 'listOnly', values } : required, missing: only ? 'pass' : 'fail' }
}

function predicateStrings(predicate: Predicate): string[] {
  const values = 'values' in predicate ? predicate.values : predicate.op === 'equals' ? [predicate.value] : []
  return values.filter((value): value is string => typeof value === 'string')
}

/** "the RuntimeDefault or Localhost seccomp profile": the object field whose child's enum holds the values is meant. */
function refineByEnum(refs: ValueRef[], predicate: Predicate, context: ClauseContext): void {
  const wanted = predicateStrings(predicate)
  if (wanted.length === 0 || context.platform !== 'kubernetes') return
  const fields = kubernetesFields(context.schemaKind ?? 'Pod')
  for (const ref of refs) {
    if (ref.type !== 'object') continue
    const path = ref.scope === 'container' ? `spec.containers[].${ref.variants[0]?.segments.join('.') ?? ''}` : (ref.variants[0]?.segments.join('.') ?? '')
    const child = fields.find((info) => info.path.startsWith(`${path}.`) && !info.path.slice(path.length + 1).includes('.') && info.enum && wanted.every((value) => info.enum?.includes(value)))
    if (!child) continue
    const leaf = child.path.slice(path.length + 1)
    for (const variant of ref.variants) variant.segments = [...variant.segments, leaf]
    ref.type = 'string'
    if (child.default !== undefined) ref.schemaDefault = child.default
    if (ref.containers?.podLevelFallback) ref.containers.podLevelFallback = [...ref.containers.podLevelFallback, leaf]
  }
}

/** "NodePort services aren't allowed": no field named, but the values belong to one field's enum. */
function fieldsByEnum(predicate: Predicate, context: ClauseContext): ValueRef[] {
  const wanted = predicateStrings(predicate)
  if (wanted.length === 0) return []
  const matches = kubernetesFields(context.schemaKind ?? 'Pod').filter((info) => info.enum && wanted.every((value) => info.enum?.includes(value)) && !/initContainers|ephemeralContainers/.test(info.path))
  const [only] = matches
  return only && matches.length === 1 ? [{ ...kubernetesRef(only, wanted.join(', ')), named: { words: wanted[0] ?? '', how: 'enum value' } }] : []
}

/** "every host in spec.rules" is `spec.rules[].host`; "each job in jobs must set timeout_minutes" judges `jobs[].timeout_minutes`. */
/** "the retention.ms entry under config": one key (dots and all) inside a named map, `config['retention.ms']`. */
export function nestedKeys(text: string): string {
  return text.replace(/(?:\bthe\s+)?[`"']?(?<![\w./-])([A-Za-z_][\w./-]*)[`"']?\s+(?:entry|key|field|setting|property|option)\s+(?:under|in|inside|within|of)\s+(?:the\s+)?[`"']?([A-Za-z_][\w.-]*)[`"']?(?:\s+(?:map|section|block|object))?/g, (whole, key: string, parent: string) => {
    if (/^(the|a|an|this|that|each|every|any)$/i.test(key)) return whole
    return `${parent}['${key}']`
  })
}

export function elementPaths(text: string): string {
  const item = /\b(?:every|each|all|any)\s+(?:single\s+)?(?:one of (?:the|those|these)\s+)?([a-z][\w-]*?)(?:es|s)?\s+(?:in|of|under|listed in|inside)\s+(?:the\s+)?[`"']?([A-Za-z_][\w.-]*?)(?:\[\*?\])?[`"']?(?=[\s,.:;]|$)(?:\s+(?:array|list|map|section|block))?/i.exec(text)
  // "every origin in it": the list is the field said before, which the caller finds by reference.
  // "any container in a Pod": an article starts a noun phrase, it is no list's name.
  if (!item?.[1] || !item[2] || /^(it|them|this|that|those|these|a|an|one|its|their)$/i.test(item[2])) return text
  const [whole, noun, list] = item
  const before = text.slice(0, item.index)
  const tail = text.slice(item.index + whole.length)
  const firstClause = tail.split(/[.;]\s/)[0] ?? ''
  // "needs a key in snake_case": a format's name is not a field.
  const written = /(^|[\s(`])(?!(?:snake_case|kebab-case|camelCase|PascalCase|lower_case|UPPER_CASE)\b)([a-z][\w]*(?:_[\w]+)+|[a-z]+[A-Z][\w]*|[a-z][\w-]*\.[\w.-]+)\b/.exec(firstClause)
  // "every entry in `flags` needs an owner": the noun the verb asks for is the element's field.
  const asked = /^(\s*(?:\w+\s+){0,2}?(?:needs|need|requires|require|must (?:have|set|define|declare|include|carry|specify)|has to have|should have)\s+(?:an?\s+|the\s+|its\s+)?)([a-z][\w-]*)\b/i.exec(firstClause)
  const askedField = asked?.[1] !== undefined && asked[2] !== undefined && !/^(valid|non|at|one|same|different|own|unique|value|explicit)$/i.test(asked[2])
  const fieldAt = written ? written.index + (written[1] ?? '').length : askedField ? (asked?.[1]?.length ?? 0) : undefined
  // "each job in jobs must set timeout_minutes": the element's own fields follow.
  if (fieldAt !== undefined && /^(entry|entrie|element|item|job|route|flag|rule|statement|step|record|object|topic|service|user|member|resource|target|listener|one)$/i.test(noun)) {
    return `${before}${tail.slice(0, fieldAt)}${list}[].${tail.slice(fieldAt)}`
  }
  return `${before}${list}[].${noun}${tail}`
}

const ELEMENTS_OF_PRONOUN = /^\s*(?:and\s+)?(?:every|each|all|any)\s+(?:single\s+)?\w+\s+(?:in|of|inside)\s+(?:it|them|that|this|those|these)\s*$/i

/** "metadata_options with http_tokens = "required"": a block and the field inside it given a value, one path. */
export function childPaths(text: string): string {
  return text.replace(/([`"']?)\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)\1\s+(?:block\s+)?with\s+(?:an?\s+|its\s+)?([`"']?)([a-z][a-z0-9]*(?:_[a-z0-9]+)*|[a-z]+[A-Z][A-Za-z0-9]*)\3(?=\s*(?:=|:|set to\b|equal to\b))/g, '$2.$4')
}

/** "it", "every one of those hosts", "the value": the subject is the field of the requirement before. */
function refersBack(subject: string, previous: ValueRef[]): boolean {
  const rest = subject.replace(/\b(must|has to|have to|needs? to|should|also|both|all|each|every|one|of|them|its|value|and|so|then|but|be|is|are|can|may|only|either|always)\b/gi, '').replace(/[,\s]+/g, ' ').trim().toLowerCase()
  if (/^(it|they|this|that|which|these|those|the value|the values)?$/.test(rest)) return true
  // "every origin in it", "each entry of them": the elements of the field before.
  if (/^\w+ (in|of|inside) (it|them|that|this|those|these)$/.test(rest)) return true
  const pronoun = /^(those|these|the|such)\s+(\w+)$/.exec(rest)
  if (!pronoun?.[2]) return false
  const noun = pronoun[2].replace(/s$/, '')
  return previous.some((ref) => (ref.variants[0]?.segments.at(-1) ?? '').toLowerCase().includes(noun))
}

/**
 * "no ipBlock with cidr 0.0.0.0/0", "no rule with protocol `-1`": what is banned is not the
 * object but the object with that value in one of its fields; its child field must not hold it.
 */
function qualifiedBan(after: string, fields: ValueRef[], context: ClauseContext): { refs: ValueRef[]; predicate: Predicate } | undefined {
  const withChild = /^\s*(?:any\s+|an?\s+)?[`"']?[\w./[\]-]+[`"']?\s+(?:\w+\s+)?(?:with|whose|having|that has|where)\s+(?:an?\s+|its\s+|the\s+)?[`"']?([A-Za-z_][\w-]*)[`"']?\s+(?:of\s+|is\s+|=\s*|:\s*|set to\s+|equal to\s+)?([`"']?[\w./:*-]+[`"']?)/.exec(after)
  // "any toleration for the nvidia.com/gpu key": the value, then the field it is the value of.
  const forValue = /^\s*(?:any\s+|an?\s+)?[`"']?[\w./[\]-]+[`"']?\s+(?:for|on|with)\s+(?:the\s+)?([`"']?[\w./:*-]+[`"']?)\s+([a-z][\w-]*)\b/i.exec(after)
  const qualifier = withChild ?? (forValue ? [forValue[0], forValue[2], forValue[1]] : null)
  if (!qualifier?.[1] || !qualifier[2]) return undefined
  const [parent] = fields
  if (!parent || fields.length !== 1 || (parent.type !== undefined && parent.type !== 'object' && parent.type !== 'array')) return undefined
  const child = childRef(parent, qualifier[1], context)
  if (!child) return undefined
  return { refs: [child], predicate: { op: 'noneOf', values: [normal(scalarOf(qualifier[2].replace(/[.,;]$/, '')))] } }
}

/** "ipBlock's except list", "ipBlock whose cidr": an object named, then one of its own fields. */
function childNamedAfter(after: string, ref: ValueRef, context: ClauseContext): ValueRef {
  if (ref.type === 'object' && context.platform === 'terraform') {
    // "tracing_config mode must be Active": the block's attribute named after it.
    const word = /^\s+[`"']?([a-z][a-z0-9_]*)/.exec(after)?.[1]
    const block = ref.variants[0]?.segments ?? []
    const child = word ? terraformAttributeRef(context, (type) => terraformAttributes(type).filter((attribute) => attribute.segments.length === block.length + 1 && block.every((segment, index) => attribute.segments[index] === segment) && attribute.segments.at(-1) === word), `${ref.label} ${word ?? ''}`) : undefined
    return child ? { ...child, explicit: true } : ref
  }
  if (ref.type !== 'object' || context.platform !== 'kubernetes') return ref
  // Not "ipBlock with cidr 0.0.0.0/0": there the object is what is judged, by a value of its field.
  const word = /^(?:['’]s)?\s+(?:whose\s+)?[`"']?([A-Za-z]\w*)/.exec(after)?.[1]
  return (word && childRef(ref, word, context)) || ref
}

/**
 * "must not set `allow_failure: true`", "no service may have privileged: true or network_mode: host":
 * each field is banned with the value written beside it, not altogether. Undefined unless every field has one.
 */
function bannedPairs(after: string, fields: ValueRef[]): Array<{ ref: ValueRef; value: Scalar }> | undefined {
  const pairs: Array<{ ref: ValueRef; value: Scalar }> = []
  for (const ref of fields) {
    const name = ref.variants[0]?.segments.at(-1) ?? ''
    if (name === '' || name === '[]') return undefined
    const pair = new RegExp(String.raw`${escapeRegex(name)}[\`"']?\s*(?:[:=]|set to)\s*[\`"']?([\w./%-]+)`, 'i').exec(after)
    if (!pair?.[1]) return undefined
    pairs.push({ ref, value: normal(scalarOf(pair[1])) })
  }
  return pairs.length > 0 ? pairs : undefined
}

/** "privileged: true or network_mode: host": in a document without a schema, a word given a value is a field. */
function pairFields(text: string, known: ValueRef[]): ValueRef[] {
  const names = new Set(known.map((ref) => ref.variants[0]?.segments.at(-1)))
  // "https://...", "s3://...": a scheme is not a key.
  return [...text.matchAll(/(?<![\w.-])([A-Za-z_][\w-]*)\s*[:=](?!\/\/)\s*[`"']?[\w./%-]+/g)]
    .map((match) => match[1] ?? '')
    .filter((name) => name !== '' && !names.has(name) && !/^(https?|e\.g|i\.e)$/i.test(name))
    .map((name) => ({ scope: 'object', variants: [{ segments: [name] }], label: name, explicit: true }))
}

function valuesBeforeField(after: string, context: ClauseContext): { refs: ValueRef[]; values: string[] } | undefined {
  const item = String.raw`[\`"']?[\w:*./-]+[\`"']?`
  const match = new RegExp(String.raw`^\s*(?:the\s+|any\s+|an?\s+)?((?:${item}(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+))+${item})\s+([A-Za-z]+)\b`).exec(after)
  if (!match?.[1] || !match[2]) return undefined
  const refs = fieldsIn(match[2], context, true).filter((ref) => !ref.weak)
  const values = readValueList(match[1]).values.map(String)
  return refs.length > 0 && values.length >= 2 ? { refs, values } : undefined
}

/**
 * "EBS volumes must be encrypted" on aws_ebs_volume: the words before the verb name the resource
 * type, not an attribute; the adjective is the switch (`encrypted = true`, `..._enabled = true`).
 */
function adjectiveAttribute(refs: ValueRef[], predicate: Predicate, context: ClauseContext): ValueRef | undefined {
  if (context.platform !== 'terraform' || predicate.op !== 'equals' || typeof predicate.value !== 'string') return undefined
  const word = predicate.value
  // "S3 versioning must be Enabled": a capitalised word is a status (statusAttribute), not a switch.
  if (!/^[a-z]+(?:ed|able)$/.test(word) || !namesOnlyTheType(refs, context)) return undefined
  // "encrypted" is `encrypted` or `encrypt_enabled`; "versioned" may be `versioning_enabled`, never guessed further.
  const stems = [...new Set([word.replace(/ed$/, ''), word.replace(/d$/, '')])]
  const names = [...new Set([word, `${word}_enabled`, ...stems.map((stem) => `${stem}_enabled`), ...stems.map((stem) => `enable_${stem}`), `is_${word}`])]
  return { scope: 'resource', variants: names.map((name) => ({ segments: [name] })), label: word, type: 'boolean', weak: true }
}

/** Fields guessed only from words of the resource type's own name ("EBS volumes" on aws_ebs_volume): the words named the type. */
function namesOnlyTheType(refs: ValueRef[], context: ClauseContext): boolean {
  const typeWords = new Set(context.kinds.flatMap((kind) => kind.split('_').slice(1)).map((part) => part.replace(/s$/, '')))
  const named = refs.flatMap((ref) => (ref.variants[0]?.segments.at(-1) ?? '').split(/[_.-]/)).map((part) => part.toLowerCase().replace(/s$/, ''))
  return typeWords.size > 0 && named.length > 0 && refs.every((ref) => ref.weak) && named.every((part) => typeWords.has(part))
}

/** "S3 versioning must be Enabled" on aws_s3_bucket_versioning: the type's words name it; a capitalised value is a status. */
function statusAttribute(refs: ValueRef[], predicate: Predicate, context: ClauseContext): ValueRef | undefined {
  if (context.platform !== 'terraform' || predicate.op !== 'equals' || typeof predicate.value !== 'string' || !/^[A-Z][a-z]+$/.test(predicate.value)) return undefined
  if (!namesOnlyTheType(refs, context)) return undefined
  const last = context.kinds.flatMap((kind) => kind.split('_').slice(1)).at(-1) ?? ''
  const places = [[`${last}_configuration`, 'status'], [last, 'status'], ['status'], [`${last}_status`]]
  return { scope: 'resource', variants: places.map((segments) => ({ segments })), label: `${last} status`, type: 'string', weak: true }
}

/** "no rule may use "*" in verbs, resources or apiGroups", "no '*' anywhere in a rule's verbs": the value, in each field named. */
function bannedValueIn(after: string, context: ClauseContext): { refs: ValueRef[]; values: string[] } | undefined {
  const match = /^[^.;]*?(?:`([^`]+)`|"([^"]+)"|'([^']+)')\s+(?:anywhere\s+)?(?:in|inside|within)\s+(?:the\s+|its\s+|their\s+|an?\s+)?(?:\w+['’]s\s+)?([^.;]+)/.exec(after)
  const value = match?.[1] ?? match?.[2] ?? match?.[3]
  if (!match?.[4] || value === undefined) return undefined
  const refs = match[4].split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).flatMap((name) => fieldsIn(name, context, true)).filter((ref) => !ref.weak)
  return refs.length > 0 ? { refs, values: [value] } : undefined
}

/** "no network_interface block may have an access_config": the inner field, inside the outer one, banned. */
function nestedBan(after: string, fields: ValueRef[], context: ClauseContext): ValueRef | undefined {
  const [outer, inner] = fields
  if (fields.length !== 2 || !outer || !inner) return undefined
  const innerName = inner.variants[0]?.segments.at(-1) ?? ''
  const outerName = outer.variants[0]?.segments.at(-1) ?? ''
  if (!new RegExp(String.raw`${escapeRegex(outerName)}[\`"']?\s+(?:\w+\s+)?(?:may|can|should|must)\s+(?:ever\s+)?(?:have|contain|include|carry|set|use)\s+(?:an?\s+|any\s+)?[\`"']?${escapeRegex(innerName)}`, 'i').test(after)) return undefined
  return childRef(outer, innerName, context)
}

/** A field inside another one: from the kind's schema for Kubernetes, by name elsewhere. */
function childRef(parent: ValueRef, name: string, context: ClauseContext): ValueRef | undefined {
  const segments = parent.variants[0]?.segments ?? []
  if (context.platform !== 'kubernetes') {
    const { type: _type, ...rest } = parent
    return { ...rest, variants: parent.variants.map((variant) => ({ segments: [...variant.segments, name] })), label: `${parent.label} ${name}` }
  }
  const inPod = parent.scope === 'container' ? `${(parent.containers?.podSpec ?? ['spec']).join('.')}.containers[].` : ''
  if (parent.scope !== 'object' && parent.scope !== 'container') return undefined
  const path = inPod + segments.join('.').replace(/\.\[\]/g, '[]')
  const wanted = [`${path}.${name}`, `${path}[].${name}`].map((candidate) => candidate.toLowerCase())
  const info = kubernetesFields(context.schemaKind ?? 'Pod').find((field) => wanted.includes(field.path.toLowerCase()))
  return info ? kubernetesRef(info, `${parent.label} ${name}`) : undefined
}

/**
 * "forbids any container in a Pod from defining CPU limits": what is banned is what the subject is
 * kept from doing, after "from <verb>ing"; the subject before it is who.
 */
function whatIsKeptFrom(after: string): string {
  const kept = /^[^.;]*?\bfrom\s+(?:defining|setting|specifying|declaring|using|having|adding|mounting|requesting|carrying|including)\s+(.+)$/is.exec(after)
  return kept?.[1] ?? after
}

/** "no hostPath", "block privileged pods"; not "the metadata_options block has to be present", where block is a noun. */
function negativeExistence(lower: string): { index: number; length: number } | undefined {
  const global = new RegExp(NEGATIVE_EXISTENCE.source, 'g')
  for (let match = global.exec(lower); match; match = global.exec(lower)) {
    const noun = match[0].startsWith('block') && /^(?:has|have|must|should|needs?|is|are|with|of|in)\b/.test(lower.slice(match.index + match[0].length))
    // "a pod with no volumes is fine", "a job with no `stage` key runs in test": what something lacks, described.
    const described = match[0].startsWith('no') && /\bwith\s+$/.test(lower.slice(0, match.index))
    if (!noun && !described) return { index: match.index, length: match[0].length }
  }
  return undefined
}

function normal(value: Scalar): Scalar {
  if (typeof value !== 'string') return value
  if (/^(on|enabled)$/.test(value)) return true
  if (/^(off|disabled)$/.test(value)) return false
  return value
}

/** "must be https" or "must be an email" read as equals: the format is meant. */
function formatInsteadOfEquals(predicate: Predicate, complement: string): Predicate {
  if (predicate.op !== 'equals' && predicate.op !== 'oneOf' && predicate.op !== 'set') return predicate
  const head = complement.slice(0, 80)
  const format = readFormat(head.toLowerCase(), head)
  if (!format) return predicate
  if (predicate.op === 'set' || predicate.op === 'oneOf' || (typeof predicate.value === 'string' && /^(a|an|the|https?|valid|semver|email|lowercase|snake_case|formatted)/i.test(predicate.value))) return { op: 'format', ...format }
  return predicate
}

/** Numbers in another unit than the field's: scale the field to the author's unit. */
/** "ttl is in seconds and must be 15 minutes or less": the unit the field counts in, said by the author. */
function statedUnit(lower: string): number | undefined {
  const unit = /\b(?:is|are|counts?|given|expressed|measured|stored)\s+(?:given\s+|expressed\s+|measured\s+|stored\s+)?in\s+(milliseconds|ms|seconds|minutes|hours|days)\b/.exec(lower)?.[1]
  return unit === undefined ? undefined : fieldDurationUnit([unit])
}

function scaled(reading: PredicateReading, refs: ValueRef[], context: ClauseContext, fieldUnit?: number): Predicate {
  if (reading.predicate.op !== 'compare' || !reading.unit || reading.unit.kind !== 'duration') return reading.predicate
  if (context.platform !== 'kubernetes') for (const ref of refs) ref.variants = withDurationUnits(ref.variants)
  for (const bound of reading.predicate.bounds) if (typeof bound.value === 'number') bound.seconds = true
  for (const ref of refs) {
    for (const variant of ref.variants) {
      const unit = fieldDurationUnit(variant.segments) ?? fieldUnit
      const scale = comparisonScale(unit, reading.unit)
      if (scale !== 1) variant.scale = scale
    }
  }
  return reading.predicate
}

/** The units a duration's key names carry where no schema says which: timeout is also timeoutSeconds, timeout_ms. */
const DURATION_SUFFIXES = ['seconds', 'ms', 'minutes', 'hours', 'days']

/** Each name tried is a level of the compiled test, and CEL bounds nesting: the unit names kept stay few. */
const MAX_UNIT_VARIANTS = 24

/**
 * "the upstream timeout has to be under 30 seconds" for `upstream.timeoutMs`: a duration compared
 * in a document without a schema is also looked for under its name with a unit, after the names
 * as written (the first found wins, and each is scaled by the unit its name says).
 */
function withDurationUnits(variants: PathVariant[]): PathVariant[] {
  const extra: PathVariant[] = []
  // Single words first ("timeout", then `upstream.timeout`): a unit is most often added to the last word alone.
  const byLength = [...variants].sort((a, b) => wordCount(a.segments.at(-1) ?? '') - wordCount(b.segments.at(-1) ?? ''))
  for (const variant of byLength) {
    const last = variant.segments.at(-1)
    if (!last || fieldDurationUnit(variant.segments) !== undefined || !/^[a-z][A-Za-z0-9_-]*$/.test(last) || wordCount(last) > 2) continue
    const head = variant.segments.slice(0, -1)
    const snake = last.includes('_') || !/[A-Z-]/.test(last)
    const camel = !last.includes('_') && !last.includes('-')
    for (const suffix of DURATION_SUFFIXES) {
      if (camel) extra.push({ segments: [...head, `${last}${suffix.charAt(0).toUpperCase()}${suffix.slice(1)}`] })
      if (snake) extra.push({ segments: [...head, `${last}_${suffix}`] })
      if (last.includes('-')) extra.push({ segments: [...head, `${last}-${suffix}`] })
    }
  }
  const seen = new Set(variants.map((variant) => variant.segments.join('.')))
  return [...variants, ...extra.filter((variant) => !seen.has(variant.segments.join('.')) && seen.add(variant.segments.join('.'))).slice(0, MAX_UNIT_VARIANTS)]
}

function wordCount(name: string): number {
  return name.split(/[_-]|(?<=[a-z0-9])(?=[A-Z])/).length
}

/** Absent values: what the sentence says, else the schema default judged, else fail for positive asks and pass for negative ones. */
function missingFor(reading: PredicateReading, predicate: Predicate, refs: ValueRef[]): 'pass' | 'fail' {
  if (reading.missing) return reading.missing
  if (predicate.op === 'unset' || predicate.op === 'noneOf' || predicate.op === 'notContains' || predicate.op === 'notStartsWith' || predicate.op === 'notEndsWith') return 'pass'
  const defaults = refs.map((ref) => ref.schemaDefault)
  if (defaults.every((value) => value !== undefined) && predicate.op === 'equals') return defaults.every((value) => value === predicate.value) ? 'pass' : 'fail'
  return 'fail'
}

const COUNT_WORDS: Readonly<Record<string, number>> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, twenty: 20 }
const COUNT_CUES: ReadonlyArray<[RegExp, Comparison]> = [
  [/^(?:no more than|not more than|at most|up to|a maximum of)$/, '<='],
  [/^(?:fewer than|less than)$/, '<'],
  [/^(?:no fewer than|no less than|at least|a minimum of)$/, '>='],
  [/^more than$/, '>'],
]

/**
 * "(must) have no more than four containers", "define at least 2 tolerations": the number of
 * elements of a list the schema knows. Only a list (never a scalar) is counted, and only when the
 * noun resolves to one field.
 */
function readElementCount(text: string, context: ClauseContext): { list: ValueRef; predicate: Predicate; missing: 'pass' | 'fail' } | undefined {
  if (context.platform === 'generic') return undefined
  const match = /\b(?:have|has|contain|contains|define|defines|declare|declares|run|runs|use|uses|list|lists|with)\s+(no more than|not more than|at most|up to|a maximum of|fewer than|less than|no fewer than|no less than|at least|a minimum of|more than)\s+(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\s+([a-z][\w-]*)/i.exec(text)
  if (!match?.[1] || !match[2] || !match[3]) return undefined
  const cue = match[1].toLowerCase()
  const cmp = COUNT_CUES.find(([pattern]) => pattern.test(cue))?.[1]
  const count = /^\d+$/.test(match[2]) ? Number(match[2]) : COUNT_WORDS[match[2].toLowerCase()]
  if (cmp === undefined || count === undefined) return undefined
  const named = fieldsIn(match[3], context).filter((ref) => ref.type === 'array' && !ref.weak)
  // "containers" is also a scope word the field finder keeps for itself: the schema's list of that name, nearest the top.
  const schema = context.platform === 'kubernetes' ? kubernetesFields(context.schemaKind ?? context.kinds[0] ?? 'Pod').filter((info) => info.type === 'array' && info.path.split(/[.[\]]+/).filter(Boolean).at(-1) === match[3]) : []
  const nearest = schema.sort((left, right) => left.path.length - right.path.length).filter((info, _index, all) => info.path.length === all[0]?.path.length)
  const lists = named.length > 0 ? named : nearest.map((info) => kubernetesRef(info, match[3] ?? ''))
  const list = lists[0]
  if (lists.length !== 1 || !list) return undefined
  // An absent list has no elements: it meets an upper bound and fails a lower one.
  return { list: { ...list, explicit: true }, predicate: { op: 'compare', bounds: [{ cmp, value: count, display: `${match[2]} ${match[3]}` }] }, missing: cmp === '<=' || cmp === '<' ? 'pass' : 'fail' }
}

/** Words that ask for a key to be there: without one, a sentence naming a label only talks about it. */
const REQUIRES_KEY = /\b(must|has to|have to|needs?|requires?|required|mandatory|should|shall|carry|carries|ensure|enforce|missing|without|present|non-empty|always)\b/

const MAP_WORD = /\b(labels?|labell?ed|annotations?|annotated|tags?|tagged)\b/

/** Requests that are not about documents: a model is being addressed, or something else is asked. */
const OFF_TOPIC = /\b(write|compose|tell|sing)\b.{0,20}\b(poem|story|joke|song|essay|haiku)\b|\bmark (every|all|each) (document|input|request)s? as (passing|passed|compliant)\b|\bmake (it|this|that|them|everything|things|all of it)( \w+)? (fast|faster|quick|quicker|better|nicer|pretty)\b/

/** Text aimed at a model, or a request that is not about documents ("write me a poem", "make it fast"). */
export function asksForSomethingElse(text: string): boolean {
  return looksLikeInjection(text) || OFF_TOPIC.test(text.toLowerCase())
}

/** "no privileged containers" on a boolean means not true; on anything else, not set. */
function absentPredicate(fields: ValueRef[]): Predicate {
  return fields.every((ref) => ref.type === 'boolean') ? { op: 'noneOf', values: [true] } : { op: 'unset' }
}

/** "disable service account token automounting", "enable deletion protection": a boolean set by a verb. */
function readToggle(text: string, lower: string, context: ClauseContext): { refs: ValueRef[]; value: boolean } | undefined {
  const verb = /^(?:please\s+)?(?:(?:we\s+)?(?:must|should|need to|have to)\s+)?(?:always\s+)?(enable|disable|turn on|turn off|switch on|switch off)\s+/.exec(lower)
  if (!verb?.[1]) return undefined
  const refs = fieldsIn(text.slice(verb[0].length), context)
  if (refs.length === 0 || !refs.every((ref) => ref.type === 'boolean' || ref.type === undefined)) return undefined
  return { refs, value: /^(enable|turn on|switch on)$/.test(verb[1]) }
}

interface MapEntry {
  values: ValueRef[]
  predicate: Predicate
  missing: 'pass' | 'fail'
}

/**
 * "must carry the labels app.kubernetes.io/name, team and tier", "tagged with Owner, CostCenter
 * and Environment", "annotated with example.com/owner: a contact email", "label X set to Y".
 */
function readMapKeys(text: string, lower: string, context: ClauseContext): MapEntry[] | undefined {
  const word = MAP_WORD.exec(lower)
  // In Kubernetes a "tag" is an image's tag, not a map of tags.
  if (!word || (context.platform === 'kubernetes' && /^tag/.test(word[1] ?? ''))) return undefined
  const kindWord = word[1] ?? ''
  // "labels.severity" written as a path in a document of any shape: the path as written, not a Kubernetes object's metadata.
  if (context.platform === 'generic' && /^\.[A-Za-z_]/.test(text.slice(word.index + word[0].length))) return undefined
  const annotation = kindWord.startsWith('annot')
  const tag = kindWord.startsWith('tag')
  // A plan's resources carry labels (GCP) and tags (AWS, Azure) as attributes of their own.
  const onResource = tag || context.platform === 'terraform'
  const container = tag ? ['tags'] : context.platform === 'terraform' ? [annotation ? 'annotations' : 'labels'] : ['metadata', annotation ? 'annotations' : 'labels']
  const after = text.slice(word.index + word[0].length)
  const before = text.slice(0, word.index)
  const keys: string[] = []
  const stopAt = after.search(/\b(?:set to|must|has to|have to|needs? to|should|may|can|with (?:a |the )?value|(?:is|are) (?:set|one of)|one of|in the format|format|(?:that|which) (?:is|are))\b|\bof(?=\s[^.;]*\bor\b)|=|:\s/i)
  let listText = (stopAt >= 0 ? after.slice(0, stopAt) : after).replace(/^\s*(?:with|:|the|these|following|labels?|keys?|named|called|on|of)+\s*/i, '')
  let rest = stopAt >= 0 ? after.slice(stopAt) : ''
  // "set the annotation `x` to `y`": the key ends at "to", and the value follows as "set to" would give it.
  const setTo = /\b(?:set|sets|setting)\s+(?:the\s+|its\s+|an?\s+)?$/i.test(before) ? /\sto\s/.exec(after) : null
  if (setTo && (stopAt < 0 || setTo.index < stopAt)) {
    listText = after.slice(0, setTo.index).replace(/^\s*(?:with|:|the|these|following|labels?|keys?|named|called|on|of)+\s*/i, '')
    rest = `set${after.slice(setTo.index)}`
  }
  // "these labels on the Deployment itself: a, b and c": the keys follow the colon.
  const colon = /^[^:]*?\b(?:itself|following|these|labels?|annotations?|tags?|keys?|below)\b[^:]*:\s+/i.exec(after)
  if (colon && stopAt >= 0 && after.slice(stopAt).startsWith(':')) {
    const tail = after.slice(colon[0].length)
    const tailStop = tail.search(/\b(?:set to|must be|has to|have to|needs? to be|should be|with (?:a )?value|(?:is|are) (?:set|one of)|one of|in the format)\b/i)
    listText = tailStop >= 0 ? tail.slice(0, tailStop) : tail
    rest = tailStop >= 0 ? tail.slice(tailStop) : ''
  }
  // "an `owner` label naming the owning team": a quoted key right before the word is the key, whatever follows.
  const beforeKeys = keysListedBefore(before)
  const afterKeys = keysListedAfter(listText)
  const quotedBefore = beforeKeys.length > 0 && beforeKeys.every((key) => key.quoted)
  const quotedAfter = /^\s*[`"']/.test(listText)
  keys.push(...(quotedBefore && !quotedAfter ? beforeKeys.map((key) => key.key) : afterKeys.length > 0 ? afterKeys : beforeKeys.map((key) => key.key)))
  if (keys.length === 0) return undefined
  const scope = onResource && context.platform !== 'generic' ? 'resource' : 'object'
  const refs = keys.map((key): ValueRef => ({ scope, variants: [{ segments: [...container, key] }], label: `${tag ? 'tag' : annotation ? 'annotation' : 'label'} ${key}`, type: 'string', explicit: true }))
  // "carry the annotation X with the value `true`": the value is what the key must be set to.
  rest = rest.replace(/^\s*with (?:a |the )?value(?: of)?\s+/i, 'set to ')
  const restLower = rest.toLowerCase()
  const reading = rest ? readPredicate(rest, restLower) : undefined
  const format = readFormat(restLower, rest)
  if (reading && (reading.predicate.op !== 'equals' || !format)) {
    // Labels and annotations hold text: `enabled`, `true` and `off` are the words written, not switches.
    const written = onResource ? reading.predicate : valuesAsWritten(reading.predicate, rest)
    const predicate = formatInsteadOfEquals(written, rest.slice(reading.cueIndex))
    // "must not set the annotation X to `false`", "never label it `tier: debug`": the value is what is forbidden.
    if (NEGATED_BEFORE.test(lower.slice(0, word.index)) && !/\bnot just\b/.test(lower)) {
      const forbidden = predicate.op === 'equals' ? [predicate.value] : predicate.op === 'oneOf' ? predicate.values : undefined
      if (!forbidden) return undefined
      return [{ values: refs, predicate: { op: 'noneOf', values: forbidden }, missing: 'pass' }]
    }
    // "Pods which set the annotation X set it to `true`": only where the key is there.
    const whereSet = /\b(?:which|that|who)\s+(?:set|sets|have|has|carry|carries|define|defines|use|uses)\s+(?:the\s+|an?\s+)?$/i.test(before)
    return [{ values: refs, predicate, missing: whereSet ? 'pass' : (reading.missing ?? (predicate.op === 'noneOf' ? 'pass' : 'fail')) }]
  }
  if (format) return [{ values: refs, predicate: { op: 'format', ...format }, missing: 'fail' }]
  // "the label `team` matches the namespace": words after the key that say what it must be, and were not read.
  if (/^\s*(?:matches|match|equals?|is the same as|mirrors|reflects|agrees with|corresponds to)\b/i.test(rest)) return undefined
  if (/\b(no|not|never|without|must not|mustn'?t|can'?t)\b/.test(lower.slice(0, word.index)) && !/\bnot just\b/.test(lower)) return [{ values: refs, predicate: { op: 'unset' }, missing: 'pass' }]
  // "the ...server-snippet annotations are banned outright".
  if (REJECTED_AFTER.test(lower.slice(word.index))) return [{ values: refs, predicate: { op: 'unset' }, missing: 'pass' }]
  return [{ values: refs, predicate: { op: 'set' }, missing: 'fail' }]
}

const VALUE_AS = /[`"']([^`"']+)[`"']\s+as\s+(?:a|an|the|its|their)\s+([a-z][\w-]*)/i

const NEGATED_BEFORE = /\b(?:no|not|never|without|must not|mustn'?t|can'?t|cannot|don'?t|doesn'?t|do not|does not|may not)\b/

/** A label's or annotation's value as the text writes it: a string, even when it reads as a switch or a number. */
function valuesAsWritten(predicate: Predicate, rest: string): Predicate {
  const asWritten = (value: Scalar): Scalar => {
    if (typeof value === 'string') return value
    const words = typeof value === 'boolean' ? (value ? ['true', 'on', 'yes', 'enabled', 'enable'] : ['false', 'off', 'no', 'disabled', 'disable']) : [String(value)]
    const found = new RegExp(String.raw`(?<![\w.-])(${words.map((word) => word.replace('.', '\\.')).join('|')})(?![\w.-])`, 'i').exec(rest)
    return found?.[1] ?? String(value)
  }
  if (predicate.op === 'equals') return { op: 'equals', value: asWritten(predicate.value) }
  if (predicate.op === 'oneOf' || predicate.op === 'noneOf') return { op: predicate.op, values: predicate.values.map(asWritten) }
  return predicate
}

/** Fields named in a piece of text, resolved for the subject; the text before the predicate's cue. */
export function fieldsIn(text: string, context: ClauseContext, firstOnly = false): ValueRef[] {
  const refs: ValueRef[] = []
  const seen = new Set<string>()
  const add = (ref: ValueRef): void => {
    const key = `${ref.scope}:${ref.variants.map((variant) => variant.segments.join('.')).join('|')}`
    if (!seen.has(key)) {
      seen.add(key)
      refs.push(ref)
    }
  }
  for (const token of codeTokens(text)) {
    const knownRef = knownField(token.token, context)
    if (knownRef && !/[.[]/.test(token.token)) {
      add(knownRef)
      continue
    }
    const named = writtenToken(text.slice(token.index, token.index + token.length))
    for (const ref of refsForToken(token.token, context)) add(childNamedAfter(text.slice(token.index + token.length), { ...ref, explicit: true, named }, context))
    if (firstOnly && refs.length > 0) break
  }
  if (refs.length > 0) return refs
  if (context.platform !== 'kubernetes') {
    for (const phrase of phrasesIn(text)) {
      const knownRef = knownField(phrase, context)
      if (knownRef) add(knownRef)
    }
    // "backup retention", "deletion protection": words the resource type's schema knows.
    if (refs.length === 0 && context.platform === 'terraform') {
      for (const phrase of phrasesIn(text)) {
        const found = terraformAttributeRef(context, (type) => resolveTerraformWords(type, phrase), phrase)
        if (found) add({ ...found, named: { words: phrase, how: 'schema field name' } })
        if (firstOnly && refs.length > 0) break
      }
    }
    if (refs.length === 0) for (const ref of wordVariantRefs(text, context)) add(ref)
    return refs
  }
  // Words: "memory limit", "CPU and memory requests", "readiness probe".
  for (const phrase of phrasesIn(text)) {
    const knownRef = knownField(phrase, context)
    if (knownRef) {
      add(knownRef)
      continue
    }
    const namesake = widerNamesake(text, phrase, context.schemaKind ?? 'Pod')
    if (namesake) {
      add({ ...namesake, named: { words: namesake.label, how: 'schema field name' } })
      if (firstOnly) break
      continue
    }
    const found = kubernetesMentions(context.schemaKind ?? 'Pod', phrase).filter((ref) => namesLeaf(phrase, ref))
    // "the Namespace name", "the image name": a field holding a name, called by what it names, when no field is called both.
    const named = /^(.+?)\s+name$/i.exec(phrase)?.[1]?.toLowerCase()
    if (found.length === 0 && named !== undefined) found.push(...kubernetesMentions(context.schemaKind ?? 'Pod', named).filter((ref) => ref.type === 'string' && namesLeaf(named, ref)))
    for (const ref of found.slice(0, found.length > 1 && samePlace(found) ? 2 : 1)) add({ ...ref, named: { words: phrase, how: 'schema field name' } })
    if (firstOnly && refs.length > 0) break
  }
  return refs
}

/**
 * "ephemeral containers": the phrase stops before "containers" (a scope word), and "ephemeral"
 * alone names a namesake (`spec.volumes[].ephemeral`). When the phrase with the scope noun after
 * it names a field whose own name covers every word (`spec.ephemeralContainers`), that field is
 * meant: of two candidates, the one whose name the author's words cover more fully.
 */
function widerNamesake(text: string, phrase: string, kind: string): ValueRef | undefined {
  const after = new RegExp(String.raw`\b${escapeRegex(phrase)}\s+(containers?|pods?)\b`, 'i').exec(text)
  if (!after?.[1]) return undefined
  const wider = `${phrase} ${after[1]}`
  const words = singularWords(wider)
  return kubernetesMentions(kind, wider).find((ref) => {
    const leaf = ref.variants[0]?.segments.at(-1) ?? ''
    const leafWords = singularWords(leaf)
    return leafWords.length === words.length && words.every((word) => leafWords.includes(word))
  })
}


const singularWords = (text: string): string[] => nameWords(text, { singular: true })

/** Words find a field only when they name its leaf in full ("memory limit", not "link" for enableServiceLinks). */
function namesLeaf(phrase: string, ref: ValueRef): boolean {
  const segments = ref.variants[0]?.segments ?? []
  const leaf = segments[segments.length - 1] ?? ''
  const mentioned = new Set(singularWords(phrase))
  const leafWords = singularWords(leaf)
  if (leafWords.every((word) => mentioned.has(word))) return true
  // "memory limit" names limits.memory; "CPU request" names requests.cpu.
  const parent = segments[segments.length - 2] ?? ''
  return leafWords.every((word) => mentioned.has(word)) || (singularWords(parent + ' ' + leaf).filter((word) => mentioned.has(word)).length >= 2 && mentioned.has(leafWords[0] ?? ''))
}

/** How a code token names a field, with the words as written (backticks kept). */
function writtenToken(written: string): NamedBy {
  const words = written.replace(/[.:,]+$/, '')
  const how = /^`.*`$/.test(words) ? 'written as code' : /[.[]/.test(words) ? 'written as a path' : 'written as a field name'
  return { words, how }
}

/** A field the instruction named before, by its last name ("tier" for the label tier). */
function knownField(phrase: string, context: ClauseContext): ValueRef | undefined {
  const words = singularWords(phrase)
  if (words.length === 0 || words.length > 3) return undefined
  const wanted = words.join('')
  const UNIT_WORDS = /^(ms|msec|millis|milliseconds?|s|sec|secs|seconds?|minutes?|mins?|hours?|days?|in|count|value|name)$/
  return context.known?.find((ref) => {
    const last = ref.variants[0]?.segments.at(-1) ?? ''
    const lastWords = singularWords(last)
    if (lastWords.join('') === wanted || last.toLowerCase() === phrase.toLowerCase()) return true
    // "the timeout" for timeoutMs, "the ttl" for ttlSeconds.
    return lastWords.length > words.length && lastWords.slice(0, words.length).join('') === wanted && lastWords.slice(words.length).every((word) => UNIT_WORDS.test(word))
  })
}

function refsForToken(token: string, context: ClauseContext): ValueRef[] {
  const segments = pathSegments(token)
  if (context.platform === 'kubernetes') {
    const kind = context.schemaKind ?? 'Pod'
    // A plain word in backticks (`default`) is a value unless it is a field's own name.
    const found = kubernetesMentions(kind, token).filter((ref) => /[A-Z._[\]]/.test(token) || namesLeaf(token, ref))
    if (found.length > 0) return found.slice(0, found.length > 1 && samePlace(found) ? 2 : 1)
    // A custom resource (an Argo Application, an Istio PeerAuthentication) has no schema here: a path written as one
    // (`spec.mtls.mode`) is the field, as in a document without a schema; words never are.
    if (kubernetesFields(kind).length === 0 && /^[a-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)+$/.test(token)) return [{ ...literalRef(segments, 'object', token), explicit: true }]
    return []
  }
  if (context.platform === 'terraform') {
    if (!/^[a-z][a-z0-9_]*(\.[a-z0-9_[\]]+)*$/.test(token) || /^(aws|google|azurerm)_/.test(token)) return []
    // `minimum_tls_version` on azurerm_linux_web_app lives in its site_config block.
    const known = segments.length === 1 ? terraformAttributeRef(context, (type) => resolveTerraformName(type, token), token) : undefined
    return [known ? { ...known, explicit: true } : literalRef(segments, 'resource', token)]
  }
  return [literalRef(segments, 'object', token)]
}

const TERRAFORM_VALUE_TYPES: Readonly<Record<TerraformValueType, ValueType>> = { string: 'string', number: 'number', boolean: 'boolean', list: 'array', map: 'map', block: 'object' }

/** The attribute the resource types of the subject resolve a name to, the first type that knows it. */
function terraformAttributeRef(context: ClauseContext, resolve: (type: string) => TerraformAttribute[], label: string): ValueRef | undefined {
  for (const type of context.kinds) {
    const [attribute] = resolve(type)
    if (attribute) return { scope: 'resource', variants: [{ segments: [...attribute.segments] }], label, type: TERRAFORM_VALUE_TYPES[attribute.type] }
  }
  return undefined
}

/** Two candidates of one field at pod and container level (runAsNonRoot): both are kept, the reader picks. */
function samePlace(refs: ValueRef[]): boolean {
  const [a, b] = refs
  if (!a || !b) return false
  return a.scope !== b.scope && a.variants[0]?.segments.at(-1) === b.variants[0]?.segments.at(-1)
}

const STOP_WORDS = new Set('a an the every each all any its their our must should be is are have has to of for in on at with without no not and or both also only set define declare specify need needs container containers pod pods app application main init explicitly explicit that this these those some own one none it they them we you anything something everything nothing whole single same other others value values field fields whose which where like looks there here fine ok okay can may might will would could shall nobody anybody everybody somebody anyone everyone someone'.split(' '))

const FIELD_NOUNS = new Set(['key', 'keys', 'field', 'fields', 'setting', 'settings', 'property', 'properties', 'attribute', 'attributes', 'entry', 'entries', 'option', 'parameter', 'flag'])

/** Candidate noun phrases for word-based resolution: runs of non-stop words, split at "and" ("CPU and memory requests" gives "CPU requests" and "memory requests"). */
const RESOURCE_NOUN = /^(?:requests?|limits?)$/

function phrasesIn(text: string): string[] {
  const words = text
    // "that's", "there's", "don't": contractions are not words of a field name.
    .replace(/(?<=[A-Za-z])['’](?:s|t|re|ll|ve|d|m)\b/g, '')
    // A comma, colon, semicolon or bracket ends a phrase: words on either side never make one name.
    .replace(/[,;:()[\]]/g, ' | ')
    .replace(/[^A-Za-z0-9\s|-]/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0)
  const phrases: string[] = []
  let run: string[] = []
  const flush = (): void => {
    // "the retries key", "the timeout setting": the noun says it is a field; the field is the words before it.
    while (run.length > 1 && FIELD_NOUNS.has((run[run.length - 1] ?? '').toLowerCase())) run.pop()
    if (run.length > 0) phrases.push(run.join(' '))
    run = []
  }
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? ''
    const lowerWord = word.toLowerCase()
    if (lowerWord === 'and' || lowerWord === 'plus' || lowerWord === 'or') {
      // "CPU and memory requests": the first item borrows the noun after the second.
      const next = words[index + 1]
      const nounAfter = words[index + 2]
      if (run.length === 1 && next && nounAfter && !STOP_WORDS.has(nounAfter.toLowerCase()) && !STOP_WORDS.has(next.toLowerCase())) {
        phrases.push(`${run[0] ?? ''} ${nounAfter}`)
        run = []
        continue
      }
      // "ephemeral-storage requests and limits": the second noun takes the resource before the first.
      const [noun, other] = [(run[run.length - 1] ?? '').toLowerCase(), (next ?? '').toLowerCase()]
      if (run.length > 1 && RESOURCE_NOUN.test(noun) && RESOURCE_NOUN.test(other) && noun.replace(/s$/, '') !== other.replace(/s$/, '')) {
        phrases.push(run.join(' '), [...run.slice(0, -1), next ?? ''].join(' '))
        run = []
        index += 1
        continue
      }
      flush()
      continue
    }
    if (STOP_WORDS.has(lowerWord) || word === '|') {
      flush()
      continue
    }
    run.push(word)
  }
  flush()
  return phrases.filter((phrase) => phrase.length > 2)
}

/** Where the words of a format start after a field ("needs owner as an email address"). */
const FORMAT_AFTER_FIELD = new RegExp(String.raw`[.;:](?=\s|$)|\b(?:if|when|unless|except|but)\b|\s(?:in|as|formatted|written) (?=${FORMAT_NAME}|(?:an? )?(?:valid )?date)`, 'i')

/** The fields after "must set / define / declare / have / need". */
function fieldsAfterVerb(text: string, lower: string, context: ClauseContext): ValueRef[] {
  const verb = new RegExp(FIELD_VERB.source, 'g')
  for (let match = verb.exec(lower); match; match = verb.exec(lower)) {
    const rest = text.slice(match.index + match[0].length)
    const refs = fieldsIn(rest.split(FORMAT_AFTER_FIELD)[0] ?? rest, context)
    if (refs.length > 0) return refs
  }
  return []
}

/**
 * Terraform and generic documents named by words ("the volume type", "the timeout"): the names
 * the words make (volume_type, volumeType, type), tried in turn where the document has them.
 */
function wordVariantRefs(text: string, context: ClauseContext): ValueRef[] {
  const phrase = phrasesIn(text).pop()
  if (!phrase) return []
  const words = phrase
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((word) => /^[a-z][a-z0-9]*$/.test(word) && !/^(must|should|be|is|are|has|have|need|needs|every|each|all|any|the|a|an|its|their|resource|resources|config|configuration|document|file|settings?)$/.test(word))
  if (words.length === 0 || words.length > 3) return []
  const variants: PathVariant[] = []
  const seen = new Set<string>()
  const add = (segments: string[]): void => {
    const key = segments.join('\u0000')
    if (!seen.has(key)) {
      seen.add(key)
      variants.push({ segments })
    }
  }
  const spellings = (part: string[]): string[] =>
    context.platform === 'generic' ? [part.join('_'), part.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join(''), part.join('-')] : [part.join('_')]
  // "the expires date": the first word alone is tried last.
  const parts = words.map((_, start) => words.slice(start))
  for (const name of spellings(words)) add([name])
  // "the upstream call timeout" in a generic document is also `upstream.callTimeout` and `upstream.timeout`.
  if (context.platform === 'generic' && words.length > 1) {
    const [owner, ...rest] = words
    for (const name of spellings(rest)) add([owner ?? '', name])
    if (rest.length > 1) add([owner ?? '', rest[rest.length - 1] ?? ''])
  }
  for (const part of parts.slice(1)) for (const name of spellings(part)) add([name])
  if (words.length > 1) for (const name of spellings(words.slice(0, 1))) add([name])
  const scope = context.platform === 'terraform' ? 'resource' : 'object'
  // In a generic document a single word before the verb is the key itself ("version must be semver").
  const named = context.platform === 'generic' && words.length === 1
  return [{ scope, variants, label: phrase, weak: !named, explicit: named, named: { words: phrase, how: 'name made from the words' } }]
}

