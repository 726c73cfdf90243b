import type { Platform } from '../catalog/rule-template.js'
import { escapeRegex } from './read-predicate.js'
import { readValueList } from './read-values.js'
import type { Condition, ValueRef } from './requirement.js'
import { readNameExemption } from './exempt-by-name.js'
import { readSkippedByValue } from './skipped-by-value.js'
import { readKindOfValue } from './kind-of-value.js'
import { readPickedVolumeExemption } from './mounted-volume.js'
import { readKindUseNames } from './kind-uses.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'

/**
 * "if a PodDisruptionBudget specifies the maxUnavailable field it must be greater than zero": a
 * condition on the field's own presence, taken back by "it". Where the field is absent the
 * requirement does not apply, so absence passes. Only the words up to the verb are the modifier;
 * the field after them is the requirement's subject.
 */
const PRESENCE_CONDITION = /\b(?:if|when) (?:(?:a|an|the|any) )?(?:[\w-]+ ){0,2}?(?:specifies|sets|defines|declares|includes|provides)\b(?=\s+(?:the |a |an |its )?[\w.`/-]+(?: field| value| key| setting)?,?\s+(?:then )?(?:it|its value|the value|that value)\b)/

/**
 * What a sentence says about the requirements around it rather than a requirement of its own:
 * which containers count, where the requirement applies (namespaces, tags, a field's value),
 * what is exempt, and what an absent value means.
 */
export interface Modifiers {
  /** Init containers are judged too (true) or not (false); undefined when the sentence does not say. */
  initContainers?: boolean
  ephemeralContainers?: boolean
  /** Absent values pass or fail. */
  missing?: 'pass' | 'fail'
  conditions: Condition[]
  exemptions: Condition[]
  /** Pod level, container level, or both ("at pod or container level", "at any level"). */
  level?: 'pod' | 'container' | 'both'
  /** Spans of the sentence the modifiers took, blanked before the requirement is read. */
  spans: Array<[number, number]>
  /** The sentence applies to everything said before ("kube-system is exempt from all of this"). */
  appliesToAll: boolean
  /** The kinds the sentence names as judged ("Deployments or StatefulSets with ... are skipped"). */
  judgedKinds?: string[]
}

export function emptyModifiers(): Modifiers {
  return { conditions: [], exemptions: [], spans: [], appliesToAll: false }
}

export function hasModifiers(modifiers: Modifiers): boolean {
  return (
    modifiers.initContainers !== undefined ||
    modifiers.ephemeralContainers !== undefined ||
    modifiers.missing !== undefined ||
    modifiers.conditions.length > 0 ||
    modifiers.exemptions.length > 0 ||
    modifiers.level !== undefined
  )
}

interface ModifierContext {
  platform: Platform
  kinds: readonly string[]
}

const NAMESPACE: ValueRef = { scope: 'object', variants: [{ segments: ['metadata', 'namespace'] }], label: 'namespace', type: 'string' }
const NAME: ValueRef = { scope: 'object', variants: [{ segments: ['metadata', 'name'] }], label: 'name', type: 'string' }

function labelRef(key: string, annotation = false): ValueRef {
  return { scope: 'object', variants: [{ segments: ['metadata', annotation ? 'annotations' : 'labels', key] }], label: `${annotation ? 'annotation' : 'label'} ${key}`, type: 'string' }
}

function tagRef(key: string): ValueRef {
  return { scope: 'resource', variants: [{ segments: ['tags', key] }, { segments: ['labels', key] }], label: `tag ${key}`, type: 'string' }
}

const NAME_WORD = String.raw`[\`"']?(?:[a-z0-9][a-z0-9.-]*[a-z0-9*]|[a-z0-9])[\`"']?`
/** Names joined by commas, "and", "or": the separator is required between two names, so matching stays linear. */
const NAME_LIST = String.raw`${NAME_WORD}(?:(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+|,\s*or\s+)${NAME_WORD})*`
const PLAIN_LIST = String.raw`[a-z0-9][a-z0-9-]*(?:(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+|,\s*or\s+)[a-z0-9][a-z0-9-]*)*`

/** Names in a list such as "kube-system, kube-public and kube-node-lease". */
function namesIn(text: string): string[] {
  return readValueList(text)
    .values.map(String)
    .filter((name) => /^[a-z0-9][a-z0-9.*-]*$/.test(name) && !/^(namespace|namespaces|ns|the|all|any|this|that)$/.test(name))
}

function namespaceCondition(names: string[], text: string): Condition {
  const prefixes = names.filter((name) => name.endsWith('*') || name.endsWith('-'))
  const exact = names.filter((name) => !prefixes.includes(name))
  if (prefixes.length > 0 && exact.length === 0) return { value: NAMESPACE, predicate: { op: 'startsWith', values: prefixes.map((prefix) => prefix.replace(/\*$/, '')) }, missing: 'fail', text }
  return { value: NAMESPACE, predicate: { op: 'oneOf', values: names }, missing: 'fail', text }
}

/** The modifiers of the rest of the sentence once a reading took `span`, with what that reading adds. */
function withReadSpan(text: string, span: [number, number], context: ModifierContext, add: (rest: Modifiers) => void): Modifiers {
  const [from, to] = span
  const rest = readModifiers(text.slice(0, from) + ' '.repeat(to - from) + text.slice(to), context)
  add(rest)
  rest.spans.push(span)
  return rest
}

export function readModifiers(text: string, context: ModifierContext): Modifiers {
  // "Pods may only use Secrets whose name begins with `safe-`": the names of what is used, not the pod's own (kind-uses.ts).
  const uses = context.platform === 'kubernetes' ? readKindUseNames(text, context.kinds[0] ?? 'Pod') : undefined
  if (uses && !('problem' in uses)) return emptyModifiers()
  // "LoadBalancer Services must ...": the objects of the kind whose field holds that value.
  const ofValue = context.platform === 'kubernetes' && context.kinds.length > 0 ? readKindOfValue(text, context.kinds[0] ?? '') : undefined
  if (ofValue) return withReadSpan(text, ofValue.span, context, (rest) => rest.conditions.push(ofValue.condition))
  // "skipped if the volume has a sizeLimit set": a field of the volume a condition picked (mounted-volume.ts).
  const picked = context.platform === 'kubernetes' ? readPickedVolumeExemption(text, context.kinds[0] ?? 'Pod') : undefined
  if (picked) return withReadSpan(text, picked.span, context, (rest) => rest.exemptions.push(picked.exemption))
  const lower = text.toLowerCase()
  const modifiers = emptyModifiers()
  const take = (match: RegExpExecArray | null): void => {
    if (match) modifiers.spans.push([match.index, match.index + match[0].length])
  }

  // Containers: "init containers too", "including init containers", "init containers don't need probes".
  if (/\binit ?containers?\b/.test(lower)) {
    const excluded = /\binit ?containers?\b[^.]{0,40}\b(don'?t|do not|does not|doesn'?t|need not|are exempt|are excluded|excluded|aren'?t|are not|not required|can skip|obviously not)\b|\b(except|excluding|other than|not|but not)\s+(the\s+)?init ?containers?\b/.exec(lower)
    if (excluded) {
      modifiers.initContainers = false
      take(excluded)
    } else {
      modifiers.initContainers = true
      take(/\b(including |incl\.? |and |plus |\+ )?(the )?init ?containers?\b[^.;,]{0,40}?(too|as well|included|also|count[^.;,]*|are (checked|held|covered|included)[^.;,]*)?/.exec(lower))
    }
  }
  if (/\b(only )?(app|application|regular|main) containers\b/.test(lower) && modifiers.initContainers === undefined) modifiers.initContainers = false
  if (/\bephemeral containers?\b/.test(lower)) modifiers.ephemeralContainers = !/\bephemeral containers?\b[^.]{0,30}\b(don'?t|excluded|exempt)\b/.test(lower)

  // Levels.
  if (/\b(pod (or|and) container level|at any level|at (both|either) (the )?pod (or|and) container|pod-level (or|and) container-level|on the pod or (on )?(each|every) container|at pod or container)\b/.test(lower)) modifiers.level = 'both'

  // What absent means.
  const absentFine = /\b(unset|not set|left unset|leaving it (unset|out|empty)|omitted|absent|missing|not present)\b[^.;]{0,40}\b(is|are|counts? as)?\s*(fine|ok|okay|allowed|acceptable|permitted)\b|\b(if|when) (set|present|specified|given|defined|provided)\b|\bor (just )?(left )?(unset|out|absent|omitted|missing|not (there|set|present|given))\b|\b(is|are) optional\b|\bmay be (omitted|left out)\b|\b(?:if|when) (?:there'?s|there is|it has|they have) no\b[^.;]{0,40}\b(fine|ok|okay|allowed|acceptable)\b/.exec(lower) ?? PRESENCE_CONDITION.exec(lower)
  const absentFails = /\b(unset|not set|leaving it (unset|out|empty)|left unset|omitted|absent|missing|without (a|an|one|it))\b[^.;]{0,40}\b(is not|isn'?t|not) (acceptable|allowed|ok|okay|fine)\b|\b(leaving it unset|leaving it out|omitting it|not setting it|unset|missing|absent|omitted)\b[^.;]{0,40}\b(fails?|is rejected|are rejected|gets rejected|rejected|not allowed)\b|\bso is leaving it unset\b|\bmeans '?forever'?,? which is not allowed\b|\bwhich is not allowed\b|\bfails too\b|\bfails as well\b/.exec(lower)
  if (absentFails) {
    modifiers.missing = 'fail'
    take(absentFails)
  } else if (absentFine) {
    modifiers.missing = 'pass'
    take(absentFine)
  }

  // "Deployments with fewer than 3 replicas are skipped": a numeric field's bound exempts. Read only when nothing else in
  // the sentence scopes it (one exemption cannot say "in kube-system and with fewer than 3"), and then the scopes are not
  // read from those words, so "replicas are skipped" is not also a namespace called replicas.
  const skipped = context.platform === 'kubernetes' ? readSkippedByValue(text, context.kinds[0] ?? kindsNamedIn(normalizeText(text))[0] ?? 'Pod') : undefined
  const [from, to] = skipped?.span ?? [0, 0]
  const rest = text.slice(0, from) + ' '.repeat(to - from) + text.slice(to)
  const others = emptyModifiers()
  if (skipped) readScopes(rest, rest.toLowerCase(), context, others, () => undefined)
  if (skipped && others.conditions.length === 0 && others.exemptions.length === 0) {
    modifiers.exemptions.push(skipped.exemption)
    modifiers.spans.push(skipped.span)
    if (skipped.kinds.length > 0) modifiers.judgedKinds = skipped.kinds
  } else {
    readScopes(text, lower, context, modifiers, take)
  }
  // "all NetworkPolicies other than `default-deny`": the objects so named are exempt.
  const byName = context.platform === 'kubernetes' ? readNameExemption(text) : undefined
  if (byName) {
    modifiers.exemptions.push(byName.exemption)
    modifiers.spans.push([byName.index, byName.index + byName.length])
  }
  if (/\b(all of (this|these|the above)|everything above|any of (this|these) rules|these rules|the rules above|from all)\b/.test(lower)) modifiers.appliesToAll = true
  return modifiers
}

const EXEMPTS = /\b(?:are|is) (?:exempt|excluded|not affected|ignored|out of scope|not checked|not covered)\b|\b(?:one |other |another |single )*exceptions? (?:is|are)\b|\b(?:may|can) (?:be|run) (?!up to|at most|at least|as |between|more|less|larger|bigger|smaller|longer|shorter|higher|lower|\d)[a-z]|\bdo(?:n'?t| not)(?: even)? need\b|\bdoes(?:n'?t| not) need\b|\bexempt from\b|\bthe only (?:[\w-]+ ){0,3}(?:allowed|permitted|exempt)\b|\b(?:the )?only exceptions? (?:is|are)\b/

const EXEMPT_TAIL = /\s+(?:namespaces?\s+)?(?:are|is)\s+(?:exempt|excluded|not affected|ignored|out of scope)\b/g
/** How far before "are exempt" a list of names may start: far more than any list a person writes. */
const EXEMPT_LIST_WINDOW = 400

/**
 * "kube-system and monitoring namespaces are exempt": the tail is found first and the list is read
 * backwards from it within a window, so a long run of names without that tail costs linear time
 * (an unanchored list pattern would retry the whole run from every name).
 */
function exemptNamesBefore(lower: string): RegExpExecArray | null {
  for (const tail of lower.matchAll(EXEMPT_TAIL)) {
    const from = Math.max(0, tail.index - EXEMPT_LIST_WINDOW)
    const list = new RegExp(String.raw`(${NAME_LIST})$`).exec(lower.slice(from, tail.index))
    if (!list?.[1]) continue
    const start = from + list.index
    // "pods labelled legacy-rootfs=yes are exempt": a name right after "=" or ":" is a value written beside its key, not a namespace.
    if (/[=:]\s*$/.test(lower.slice(0, start))) continue
    const match = Object.assign([lower.slice(start, tail.index + tail[0].length), list[1]], { index: start, input: lower }) as unknown as RegExpExecArray
    return match
  }
  return null
}

function readScopes(text: string, lower: string, context: ModifierContext, modifiers: Modifiers, take: (match: RegExpExecArray | null) => void): void {
  // "in every environment except dev", "for all tiers other than batch": a document's own field names the exemption.
  const everyExcept = /\b(?:in|for|on|across)\s+(?:every|all|any|each)\s+([a-z][a-z_-]*?)s?\s+(?:except|other than|but|apart from|besides)\s+(?:in\s+|for\s+)?[`"']?([\w.-]+?)[`"']?(?=[\s,;.]|$)/.exec(lower)
  if (everyExcept?.[1] && everyExcept[2] && context.platform === 'generic') {
    const field = everyExcept[1]
    modifiers.exemptions.push({ value: { scope: 'object', variants: [{ segments: [field] }], label: field, explicit: true }, predicate: { op: 'equals', value: everyExcept[2] }, missing: 'fail', text: everyExcept[0] })
    take(everyExcept)
  }
  // Exemptions by namespace: "except the monitoring namespace", "kube-system ... are exempt", "only exception is X".
  const exceptNamespace = new RegExp(String.raw`\b(?:except|excluding|other than|apart from|but not|exceptions?:?|only exception is|exception is|exempt(?:ion)?s? (?:is|are|:)?)\s+(?:for\s+)?(?:anything |everything |pods? |workloads? )?(?:in\s+)?(?:the\s+)?(${NAME_LIST})\s*namespaces?\b`).exec(lower)
  if (exceptNamespace?.[1]) {
    modifiers.exemptions.push(namespaceCondition(namesIn(exceptNamespace[1]), exceptNamespace[0]))
    take(exceptNamespace)
  }
  // "nobody may run a privileged container outside of kube-system": inside it, the requirement does not hold.
  const outside = new RegExp(String.raw`\boutside\s+(?:of\s+)?(?:the\s+)?(${NAME_LIST})(?:\s+namespaces?)?(?=[\s.,;:)]|$)`).exec(lower)
  if (outside?.[1] && context.platform === 'kubernetes' && !exceptNamespace) {
    const names = namesIn(outside[1]).filter((name) => !/^(of|a|an|our|their|its|cluster|clusters|production|prod)$/.test(name))
    if (names.length > 0) {
      modifiers.exemptions.push(namespaceCondition(names, outside[0]))
      take(outside)
    }
  }
  const exemptNamespaces = exemptNamesBefore(lower)
  if (exemptNamespaces?.[1] && context.platform === 'kubernetes' && !/\b(replica|containers?|deployments?|pods?|secrets?)\b/.test(exemptNamespaces[1])) {
    const names = namesIn(exemptNamespaces[1])
    if (names.length > 0) {
      modifiers.exemptions.push(namespaceCondition(names, exemptNamespaces[0]))
      take(exemptNamespaces)
    }
  }
  const anythingIn = new RegExp(String.raw`\b(?:exceptions?|exempt)\b[^.]{0,80}?\banything in\s+(${PLAIN_LIST})`).exec(lower)
  if (anythingIn?.[1] && !exceptNamespace) {
    modifiers.exemptions.push(namespaceCondition(namesIn(anythingIn[1]), anythingIn[0]))
    take(anythingIn)
  }

  // Scopes by namespace: "in the sandbox namespace", "only in kube-system", "namespaces starting with prod-".
  const prefixScope = /\b(?:in |for )?(?:anything in |any |all |production |prod )?namespaces?\s+(?:whose name\s+)?(?:that\s+)?(?:starts?|begins?|starting|beginning) with\s+[`"']?([a-z0-9][a-z0-9-]*)[`"']?/.exec(lower)
  const notPrefix = /\bnamespaces? that (?:don'?t|do not) (?:start|begin) with/.test(lower)
  if (prefixScope?.[1] && !notPrefix) {
    modifiers.conditions.push({ value: NAMESPACE, predicate: { op: 'startsWith', values: [prefixScope[1]] }, missing: 'fail', text: prefixScope[0] })
    take(prefixScope)
  } else if (notPrefix) {
    take(/\bnamespaces? that (?:don'?t|do not) (?:start|begin) with\s+\S+/.exec(lower))
  }
  const inNamespace = new RegExp(String.raw`\b(?:only\s+)?(?:in|within|inside|for)\s+(?:the\s+)?(${NAME_LIST})\s+namespaces?\b`).exec(lower)
  if (inNamespace?.[1] && !exceptNamespace && !prefixScope && context.platform === 'kubernetes') {
    // "in the prod namespace" names one namespace; "in production namespaces" says which kind of namespaces, not their names.
    const one = /\bthe\s+[\w-]+\s+namespace\b/.test(inNamespace[0])
    const names = namesIn(inNamespace[1]).filter((name) => !/^(every|each|other|their|its|same|own|a|an)$/.test(name) && (one || !/^(production|prod)$/.test(name)))
    if (names.length > 0 && !/\b(everywhere else|other namespaces|any namespace|every namespace|all namespaces)\b/.test(lower.slice(inNamespace.index + inNamespace[0].length, inNamespace.index + inNamespace[0].length + 5))) {
      const before = lower.slice(Math.max(0, inNamespace.index - 25), inNamespace.index)
      if (/\b(only|allowed|permitted|may|can)\b/.test(before + lower.slice(inNamespace.index, inNamespace.index + 10)) && /\b(only|just)\b/.test(lower)) {
        modifiers.conditions.push({ ...namespaceCondition(names, inNamespace[0]), text: `only-in:${inNamespace[0]}` })
      } else {
        modifiers.conditions.push(namespaceCondition(names, inNamespace[0]))
      }
      take(inNamespace)
    }
  }
  // "only allowed in kube-system", "only pods in kube-system or monitoring may ...": where pods live is a namespace.
  const onlyInBare = new RegExp(String.raw`\bonly (?:allowed |permitted |(?:pods?|workloads?) )?in\s+(${PLAIN_LIST})(?:\s+namespaces?)?(?=[\s.,;]|$)`).exec(lower)
  if (onlyInBare?.[1] && !inNamespace && context.platform === 'kubernetes') {
    const names = namesIn(onlyInBare[1]).filter((name) => !/^(production|prod|staging|dev|development|test|every|each|other|their|its|same|own|a|an|any|all)$/.test(name))
    if (names.length > 0) {
      modifiers.conditions.push({ ...namespaceCondition(names, onlyInBare[0]), text: `only-in:${onlyInBare[0]}` })
      take(onlyInBare)
    }
  }

  // Labels and annotations: "unless the pod has the label needs-api-access: "true"", "unless annotated X".
  const unlessLabel = /\b(?:unless|except (?:when|if|for))\b[^.]*?\b(label|annotation|annotated|labell?ed)\b\s*(?:with\s+)?[`"']?([a-z0-9][a-z0-9./_-]*)[`"']?(?:\s*[:=]\s*[`"']?([\w.-]+)[`"']?)?/.exec(lower)
  if (unlessLabel?.[2]) {
    const key = text.slice(unlessLabel.index, unlessLabel.index + unlessLabel[0].length).match(new RegExp(escapeRegex(unlessLabel[2]), 'i'))?.[0] ?? unlessLabel[2]
    const annotation = /^annot/.test(unlessLabel[1] ?? '')
    const valueText = unlessLabel[3]
    modifiers.exemptions.push({
      value: labelRef(key, annotation),
      predicate: valueText === undefined ? { op: 'set' } : { op: 'equals', value: valueText },
      missing: 'fail',
      text: unlessLabel[0],
    })
    take(unlessLabel)
  }

  // Terraform tags: "for anything tagged Environment = prod", "resources tagged env: prod".
  // Kubernetes labels and annotations alike: "claims labelled `storage-tier: bulk`", "pods annotated team=a".
  const tagged = /\b(tagged|with (?:the )?tag|where (?:the )?tag|labell?ed|with (?:the )?label|annotated|with (?:the )?annotation)\s+[`"']?([A-Za-z][\w./-]*)[`"']?\s*(?:=|:|is|of)\s*[`"']?([\w.-]+)[`"']?/i.exec(text)
  const [taggedText, taggedBy, taggedKey, taggedValue] = tagged ?? []
  if (tagged && taggedText && taggedKey && taggedValue) {
    const ref = context.platform === 'terraform' ? tagRef(taggedKey) : labelRef(taggedKey, /annot/i.test(taggedBy ?? ''))
    modifiers.conditions.push({ value: ref, predicate: { op: 'equals', value: taggedValue }, missing: 'fail', text: taggedText })
    take(tagged)
  }

  // Names: "named X", "whose name starts with P".
  const namePrefix = /\b(?:whose |with a )?name (?:starts|begins|starting|beginning) with\s+[`"']?([a-z0-9][a-z0-9-]*)[`"']?/.exec(lower)
  if (namePrefix?.[1] && !prefixScope) {
    modifiers.conditions.push({ value: NAME, predicate: { op: 'startsWith', values: [namePrefix[1]] }, missing: 'fail', text: namePrefix[0] })
    take(namePrefix)
  }
  const nameSuffix = /\b(namespaces? )?(?:whose |with a )?name (?:ends|ending) (?:in|with)\s+[`"']?([a-z0-9-]*[a-z0-9])[`"']?/.exec(lower)
  if (nameSuffix?.[2] && context.platform === 'kubernetes') {
    // "in namespaces whose name ends in -prod": the object's namespace, not its own name.
    modifiers.conditions.push({ value: nameSuffix[1] ? NAMESPACE : NAME, predicate: { op: 'endsWith', values: [nameSuffix[2]] }, missing: 'fail', text: nameSuffix[0] })
    take(nameSuffix)
  }
  // "Pods labelled legacy-rootfs=allowed are exempt": what the sentence scopes is left out, not kept.
  if (EXEMPTS.test(lower) && !/\b(must|has to|have to|needs? to|should|shall)\b/.test(lower)) modifiers.exemptions.push(...modifiers.conditions.splice(0))
  // "unless the ClusterRole's name starts with "system:"": a scope after "unless" exempts.
  for (const condition of [...modifiers.conditions]) {
    const at = lower.indexOf(condition.text.toLowerCase())
    if (at < 0 || !/\b(?:unless|except (?:when|if|for|where)|other than|apart from)\b[^.;]{0,40}$/.test(lower.slice(0, at))) continue
    modifiers.conditions.splice(modifiers.conditions.indexOf(condition), 1)
    modifiers.exemptions.push(condition)
  }
}
