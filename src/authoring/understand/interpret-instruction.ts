import type { Rule } from '../../engine/index.js'
import { CATALOG_WORDS, VOCABULARY } from '../catalog/index.js'
import { kubernetesFieldKinds, kubernetesFields } from '../fields/kubernetes-fields.js'
import { kubernetesRef } from './find-fields.js'
import type { Platform } from '../catalog/rule-template.js'
import { kindsNamedIn, normalizeText } from '../text/clause.js'
import { readOnlyScopeMay, type OnlyScopeMay } from './only-scope-may.js'
import { POD_CONTROLLERS } from '../text/kinds.js'
import { codeTokens, pathSegments } from './find-fields.js'
import { asksForSomethingElse, readClause, fieldsIn, type ClauseContext } from './read-clause.js'
import { emptyModifiers, hasModifiers, readModifiers, type Modifiers } from './read-modifiers.js'
import { readExceptionList } from './exception-list.js'
import { unreadKindException } from './exempt-by-name.js'
import { readPredicate } from './read-predicate.js'
import type { Condition, Predicate, Requirement, Scalar, SentenceRole, ValueRef } from './requirement.js'
import { scalarOf } from './read-values.js'
import { keyItemSentence } from './key-list.js'
import { terraformTypesNamedIn } from '../text/terraform-types.js'
import { segmentInstruction, type Segment } from './segment-instruction.js'
import { splitClause } from './split-clause.js'
import { valueTest } from './compile-requirement.js'
import { splitRestatement } from './restating.js'
import { readingKeepsMore } from './literals-kept.js'
import { readNamedElement } from './named-element.js'
import { readOnlyValueMay } from './only-value-may.js'
import { asksNothing } from './not-asked.js'
import { requirementStrings, ruleStrings, sentenceLiterals, unusedLiterals } from './coverage.js'
import { mountsSocketCondition } from './mounts-socket.js'
import { mountsVolumeCondition, readMountedReadOnly } from './mounted-volume.js'
import { judgeNamedKinds } from './skipped-by-value.js'

/**
 * Reads an instruction sentence by sentence: each sentence gets a role, requirements are read
 * structurally, modifiers are applied to the requirements they qualify, and sentences the
 * structural reader cannot take are offered to the catalog of named requirements.
 */
export interface InstructionContext {
  platform: Platform
  kinds: string[]
  /** The whole text when only part of it (a description's operative sentence) is read: "these verbs" may point outside the part. */
  fullText?: string
}

export interface ReadSentence {
  text: string
  role: SentenceRole
  requirements: Requirement[]
  /** A catalog rule the sentence became when the structural reader had nothing. */
  catalogRules: Rule[]
  modifiers?: Modifiers
  problem?: string
  /** A condition it states that could not be read ("for any Pod mounting the Docker socket"): no reading may drop it. */
  unreadCondition?: string
  /** Why the sentence states no requirement. */
  note?: string
  group: number
  /** What its subject was narrowed by ("Services of type LoadBalancer"), for a precise restatement after it. */
  subjectConditions?: Condition[]
}

/** The note of a lead-in before a colon: what follows the colon says it precisely. */
export const INTRODUCES_NOTE = 'introduces the requirement after the colon'

/** A sentence the structural reader could not take: the catalog may know it as a named requirement. */
export type NamedRequirementReader = (text: string) => Rule[] | undefined

export interface Interpretation {
  sentences: ReadSentence[]
}

/**
 * "CPU and memory requests plus a memory limit": several different fields found in the schema, each
 * to be set. Read this way the requirement is exact; a named one about the same fields asks for more or less.
 */
function asksSeveralSchemaFields(requirement: Requirement): boolean {
  const fields = new Set(requirement.values.map((ref) => ref.variants[0]?.segments.slice(-2).join('.')))
  return requirement.subject.platform === 'kubernetes' && requirement.predicate.op === 'set' && fields.size > 1 && requirement.values.every((ref) => !ref.weak && ref.type !== undefined)
}

/** Whether a sentence asks for something once typos of the catalog's words are fixed ("reqiure cpu limts"). */
const ASKS_AFTER_TYPOS = (text: string): boolean => /\b(must|require[sd]?|need|needs|should|no|never|only|disallow|forbid|deny|block|enforce|ensure|make sure|disable|prevent|prohibit|at most|at least|no more than|up to)\b/.test(normalizeText(text, VOCABULARY)) || IMPERATIVE.test(text)
/** "enforce the restricted standard", "disable token automounting", "do not share the host IPC namespace": a line that starts by asking is no heading. */
const IMPERATIVE = /^\W*(?:please\s+)?(?:do not|don'?t|never|disable|disallow|enforce|require|forbid|block|deny|prevent|prohibit|ensure|make sure|reject|ban)\b/i
/** "may use at most 1Gi": a bound after "may" restricts; it permits nothing. */
const BOUND_AFTER_MAY = /\b(?:may|can)\s+(?:use|have|request|be|go|get)\s+(?:at most|at least|no more than|up to|between)\b/i

const TICKET_TITLE = /^[A-Z][A-Z0-9]+-\d+\b/
export const MODAL_WORD = /\b(must|mustn'?t|has to|have to|needs?|should|shall|can'?t|cannot|may not|never|required?|requires|mandatory|not allowed|disallow|forbid|ban|block|reject|no)\b/i
/** A verb that asks for something: a condition never has one, the body after it does. */
const ASKING_VERB = /\b(must|has to|have to|needs? to|should|shall|can'?t|cannot|may not)\b/i
const PERMISSION = /\b(is|are|'s|counts? as)\s+(?:all\s+|both\s+|also\s+|still\s+|obviously\s+|perfectly\s+|totally\s+)?(fine|ok|okay|allowed|acceptable|permitted)\b|\bis fine\b|\bare fine\b|\bmay (?:use|set|be)\b|\bcan (?:use|set|be|do)\b|\bwhatever they like\b|\bdon'?t care\b|\bout of scope\b|\bnot affected\b/i
/** A sentence that says nothing is asked of what it names. */
const NOTHING_ASKED = /\b(?:has|have|carries|carry|gets?)\s+no\s+(?:extra\s+|additional\s+|other\s+|further\s+|special\s+)?(?:requirements?|rules?|constraints?|restrictions?|checks?)\b|\b(?:doesn'?t|does not|don'?t|do not) matter\b/i
/** Words that turn "may"/"is fine" into a restriction: "may only", "none may", "may be at most", "is not OK". */
const RESTRICTING = /\b(?:not|never|only|nor|at most|at least|up to|more than|less than|between|except|unless)\b|n'?t\b|^\W*(?:and\s+|but\s+|so\s+)?(?:no|none|nothing|nobody|neither)\b|\b(?:no|none|nothing|nobody)\b[^,.;]{0,40}\b(?:may|can)\b/i

/**
 * "if there's no retries key that's fine", "Ingresses without these annotations are fine": a
 * sentence that only says what is allowed asks for nothing, whatever fields it names. What it
 * says about unset values is still read as a modifier.
 */
function onlyPermits(text: string): boolean {
  if (OUT_OF_SCOPE.test(text) && !ASKING_VERB.test(text)) return true
  return PERMISSION.test(text) && !RESTRICTING.test(text) && !ASKING_VERB.test(text)
}

/** "in production namespaces", "in the team's namespaces": which namespaces, said in words no modifier took as names. */
const UNREAD_NAMESPACES = /\b(?:in|within|inside|outside|across)\s+(?!(?:any|all|every|each|other)\b)(?:the\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+namespaces?\b/i

/** "must be off in production", "for staging": a stage of delivery no field was read for; the requirement would hold everywhere. */
const STAGE = String.raw`(?:in|for|on|during)\s+(?:the\s+)?(?:production|prod|staging|stage|development|dev|test|testing|qa|uat|pre-?prod)(?:\s+(?:environments?|clusters?|accounts?|stages?))?`
/** Said after the requirement ("... off in production.") or before it with a comma ("In production, ..."); "in prod configs" is the catalog's environment field. */
const UNREAD_STAGE = new RegExp(String.raw`\b${STAGE}\s*[.!;]?\s*$|^\W*${STAGE}\s*,`, 'i')

/** "only roles named system:* may grant ...", "only pods in infra can mount ...": "only" on the subject, then what they may do. */
const ONLY_THEY_MAY_DO = /^\W*(?:and\s+|but\s+)?only\b[^.;]*?\b(?:may|can|are allowed to|is allowed to|are permitted to|is permitted to)\s+(?!be\b|only\b)[a-z]+\s+\S/i

/** "And nobody, in any namespace, may use ...": "may" with a subject that is nobody forbids; it permits nothing. */
const NOBODY_MAY = /^\W*(?:and\s+|but\s+|so\s+)?(?:no|nobody|no one|none|nothing)\b[^.;]{0,60}?\b(?:may|can)\b/i

/** "Other resource types in the plan are not checked": says what the rules leave alone. */
/** "no exceptions, not even for scratch disks", "without exception": the requirements hold everywhere; nothing else is said. */
const INSISTS_ONLY = /^(?:and\s+|but\s+)?(?:no exceptions?|without (?:any )?exceptions?|no matter what|in (?:all|every) cases?)(?:\s*[,;:-]\s*(?:not even|even|including)\b[^.;:]*)?\s*[.!]*$/i

const OUT_OF_SCOPE = /\b(?:are|is) (?:not|never) (?:checked|covered|in scope|judged|evaluated|affected|part of (?:this|it|the (?:rule|check|policy)))\b|\b(?:isn'?t|aren'?t) (?:checked|covered|in scope|judged|evaluated|affected|part of (?:this|it|the (?:rule|check|policy)))\b|\b(?:are|is) (?:ignored|out of scope)\b/i

const RATIONALE = /^(because|since|so that|as|this is|that'?s|we'?ve|we have|otherwise|reason|background|context|note|fyi|thanks|thank you|cheers|hey|hi)\b/i

export function interpretInstruction(instruction: string, context: InstructionContext, namedReader: NamedRequirementReader): Interpretation {
  const segments = segmentInstruction(instruction)
  const sentences: ReadSentence[] = []
  const all: Requirement[] = []
  // Without a resource label, the kinds a sentence names (else those named before) are its subject.
  let namedKinds: string[] = []
  const kindsFor = (text: string): string[] => {
    if (context.kinds.length > 0 || context.platform === 'generic') return context.kinds
    const named = context.platform === 'terraform' ? terraformTypesNamedIn(text) : kindsNamedIn(normalizeText(text))
    if (named.length > 0) namedKinds = named
    return namedKinds
  }
  const schemaKindOf = (text: string): string | undefined => schemaKindFor({ platform: context.platform, kinds: kindsFor(text) })
  let previous: ValueRef[] | undefined
  /** The parenthetical remarks of the segment being read, which may say what its words mean. */
  let remarks: readonly string[] = []
  const known: ValueRef[] = []
  // Where the sentences of the segment being read begin: its parenthetical remarks qualify them.
  let hostFrom = 0

  const readUnit = (text: string, group: number, parenthetical: boolean): void => {
    const exempt = parenthetical ? undefined : readExceptionList(text, { platform: context.platform, readCondition: (item) => readCondition(item, { platform: context.platform, kinds: kindsFor(item), schemaKind: schemaKindOf(item) }) })
    if (exempt) {
      const modifiers = { ...emptyModifiers(), exemptions: exempt }
      const targets = modifierTargets(modifiers, sentences, group, all, [])
      for (const target of targets) applyModifiers(target, modifiers, false)
      const namedRules = targets.length === 0 ? namedRulesQualified(sentences, group) : []
      for (const rule of namedRules) narrowNamedRule(rule, modifiers)
      const count = targets.length + namedRules.length
      sentences.push({ text: text.trim(), role: 'modifier', requirements: [], catalogRules: [], group, modifiers, note: count > 0 ? `exempts from ${count} requirement${count === 1 ? '' : 's'}` : 'lists exceptions; no requirement before it to exempt from' })
      return
    }
    const trimmed = stripLabelPrefix(text.trim())
    if (trimmed === '') return
    if (asksForSomethingElse(trimmed)) {
      sentences.push(notUnderstood(trimmed, group, 'it addresses a model or asks for something that is not a rule about documents'))
      return
    }
    if (isHeading(trimmed) && !IMPERATIVE.test(trimmed) && !hasModifiers(readModifiers(trimmed, context)) && codeTokens(trimmed).length === 0 && !readsRequirements(trimmed, context, schemaKindOf(trimmed))) {
      sentences.push({ text, role: 'heading', requirements: [], catalogRules: [], group, note: 'a heading or title; it states no requirement of its own' })
      return
    }
    if (INSISTS_ONLY.test(trimmed)) {
      sentences.push({ text: trimmed, role: 'restatement', requirements: [], catalogRules: [], group, note: 'insists that the requirements hold for every case; it asks nothing new' })
      return
    }
    // "type `stdout` has no extra requirements", "for single-attempt clients it doesn't matter": says what is not asked.
    if (NOTHING_ASKED.test(trimmed) && !MODAL_WORD.test(trimmed.replace(NOTHING_ASKED, ''))) {
      sentences.push({ text: trimmed, role: 'permission', requirements: [], catalogRules: [], group, note: 'says nothing is required of what it names' })
      return
    }
    // "..., i.e. metadata_options with http_tokens = "required"": the precise form replaces the loose one before.
    const restatement = parenthetical ? undefined : splitRestatement(trimmed)
    if (restatement) {
      const start = sentences.length
      const [previousBefore, knownBefore] = [previous, known.length]
      if (restatement.head !== '') readUnit(restatement.head, group, false)
      const before = sentences.length
      readUnit(restatement.precise, group, false)
      const added = sentences.slice(before)
      // Only a restatement that reads as a requirement replaces anything; otherwise the sentence is read as written.
      if (added.some((sentence) => sentence.requirements.length > 0) && !added.some((sentence) => sentence.problem)) {
        replaceLooseRequirements(sentences, before, all, trimmed)
        return
      }
      for (const sentence of sentences.splice(start)) for (const requirement of sentence.requirements) all.splice(all.indexOf(requirement), 1)
      previous = previousBefore
      known.splice(knownBefore)
    }
    const afterColon = colonContent(trimmed)
    if (afterColon && readsRequirements(afterColon, context, schemaKindOf(afterColon))) {
      const head = trimmed.slice(0, trimmed.length - afterColon.length).trim()
      sentences.push({ text: head, role: 'restatement', requirements: [], catalogRules: [], group, note: INTRODUCES_NOTE })
      const from = sentences.length
      readUnit(afterColon, group, parenthetical)
      // "Any Deployment running more than one replica must spread its pods: define ...": the lead-in's condition scopes what follows.
      const headContext = { platform: context.platform, kinds: kindsFor(head), schemaKind: schemaKindOf(head) }
      // "When environment is production,:" is all condition, with no body after its comma.
      const onlyCondition = /^\s*(?:if|when|where)\s+(.+?)[\s,:]*$/i.exec(head)?.[1]
      const leadCondition = splitCondition(head.replace(/:\s*$/, ''), headContext).condition ?? (onlyCondition ? wrap(readCondition(onlyCondition, headContext)) : undefined)
      if (leadCondition) for (const sentence of sentences.slice(from)) for (const requirement of sentence.requirements) if (requirement.conditions.length === 0) requirement.conditions.push(...leadCondition)
      const intro = sentences[from - 1]
      // A lead-in that is all condition and cannot be read would be dropped: what follows would judge everything.
      if (!leadCondition && onlyCondition && intro && sentences.slice(from).some((sentence) => sentence.requirements.length > 0 || sentence.catalogRules.length > 0)) {
        intro.role = 'requirement'
        intro.problem = `it applies what follows only "${onlyCondition}", and no field and value for that condition can be found; which field and value decide it?`
      }
      return
    }
    const sentenceContext: ClauseContext = { platform: context.platform, kinds: kindsFor(trimmed) }
    const sentenceSchema = schemaKindOf(trimmed)
    if (sentenceSchema) sentenceContext.schemaKind = sentenceSchema
    for (const clauseText of conditionalAware(trimmed, sentenceContext)) {
      // "hostPort policy, short version: ...": a few words ending in what a title names are a title, field names or not.
      if (isTitle(clauseText)) {
        sentences.push({ text: clauseText, role: 'heading', requirements: [], catalogRules: [], group, note: 'a heading or title; it states no requirement of its own' })
        continue
      }
      const kinds = kindsFor(clauseText)
      const schemaKind = schemaKindOf(clauseText)
      // "if the `X` environment variable is set, it must ...": the condition picks the element the requirement is about.
      const elementNamed = context.platform === 'kubernetes' && readNamedElement(clauseText, schemaKind ?? 'Pod') !== undefined
      const split = elementNamed ? { body: clauseText } : splitCondition(clauseText, { platform: context.platform, kinds, schemaKind })
      if (split.unread !== undefined) {
        sentences.push(notUnderstood(clauseText, group, `it applies only "${split.unread.trim()}", and no field and value for that condition can be found; which field and value decide it?`, split.unread))
        continue
      }
      const { condition, body } = split.condition && !readsRequirements(split.body, context, schemaKind) ? { condition: undefined, body: clauseText } : split
      const subjectConditions = split.condition
      const modifiers = readModifiers(body, context)
      const blanked = blank(body, modifiers.spans)
      // "in production namespaces (any namespace whose name starts with prod-)": the remark says which, and is read after.
      const namespacesSaid = remarks.some((remark) => /\bnamespaces?\b/i.test(remark))
      const unreadException = context.platform === 'kubernetes' ? unreadKindException(blanked) : undefined
      const unreadScope = unreadException === undefined ? ((context.platform === 'kubernetes' && !namespacesSaid ? UNREAD_NAMESPACES.exec(blanked)?.[0] : undefined) ?? (condition || hasModifiers(modifiers) ? undefined : UNREAD_STAGE.exec(blanked)?.[0]?.replace(/^\W+|[\s.,;!]+$/g, ''))) : undefined
      if (unreadException !== undefined || unreadScope !== undefined) {
        // An unread exemption or scope is an unread condition: no named rule may be read without it either.
        const problem = unreadException !== undefined
          ? `it exempts "${unreadException}", and no name or field for that exemption can be found; which objects (by name, namespace or label) are exempt?`
          : `it applies only "${unreadScope ?? ''}", and no field and value for that scope can be found; which field and value decide it (a namespace written as one, a label, \`environment: production\`)?`
        sentences.push(notUnderstood(clauseText, group, problem, unreadException ?? unreadScope))
        continue
      }
      const clauseContext: ClauseContext = { platform: context.platform, kinds, schemaKind, known, knownValues: listedValues(all), instruction: context.fullText ?? instruction }
      if (previous) clauseContext.previous = previous
      // "Only pods in the kube-system namespace may use hostNetwork": everyone else must not, the scope exempts.
      const onlyMay = parenthetical ? undefined : readOnlyScopeMay(body, blanked, modifiers.conditions.length > 0)
      if (onlyMay) {
        sentences.push(onlyScopeSentence(onlyMay, clauseText, group, modifiers, clauseContext, namedReader))
        const last = sentences[sentences.length - 1]
        if (last) all.push(...last.requirements)
        continue
      }
      // A remark in parentheses states a requirement only with a verb that asks for one ("so kms_key_id has to be set").
      const reading = parenthetical && !MODAL_WORD.test(blanked) ? { requirements: [], asks: false } : readClause(blanked, clauseContext)
      const only = onlyAllowedInversion(blanked, modifiers, clauseContext) ?? readOnlyValueMay(blanked, clauseContext)
      // "Claims labelled `storage-tier: bulk` may go up to 4Ti": an earlier requirement, relaxed where the condition holds.
      const allowance = condition ? undefined : conditionalAllowance(blanked, modifiers, all)
      let requirements = allowance || onlyPermits(blanked) ? [] : (only ?? reading.requirements)
      // A field guessed from words alone gives way to a named requirement of the catalog ("S3 buckets must be encrypted").
      let named: Rule[] | undefined
      if (requirements.length > 0 && !only && !hasModifiers(modifiers) && !condition && requirements.every((requirement) => requirement.values.every((ref) => !ref.explicit))) {
        named = namedReader(clauseText)
        // "Every container must declare CPU and memory requests plus a memory limit": several fields the schema knows, each
        // asked to be set, are the whole requirement; a named one about the same fields would ask for more or less.
        const schemaSet = context.platform === 'kubernetes' && requirements.every(asksSeveralSchemaFields)
        // A named one that drops a constant the clause writes ("CAP_NET_RAW") gives way to the reading that uses it.
        const keeps = named !== undefined && readingKeepsMore(clauseText, requirements, named)
        if (named && named.length > 0 && !schemaSet && !keeps) requirements = []
        else if (schemaSet || keeps) named = undefined
      }
      // "priorityClassName must be `fair` when the team is platform": a condition after the requirement that nothing read would be
      // dropped, and the rule would judge every object. A named requirement that uses what the condition writes reads it itself.
      const qualifiedAlready = condition !== undefined || modifiers.conditions.length > 0 || requirements.some((requirement) => requirement.conditions.length > 0 || requirement.exemptions.length > 0)
      const trailing = requirements.length > 0 && !qualifiedAlready ? unreadTrailingCondition(blanked) : undefined
      // "Disallow a ClusterRole if it contains the `nodes/proxy` resource": a condition whose literals the requirement uses was read into it.
      if (trailing !== undefined && !conditionReadBy(trailing, requirements.flatMap(requirementStrings))) {
        const offered = named ?? namedReader(clauseText)
        if (offered && offered.length > 0 && namedReadsCondition(trailing, offered)) {
          requirements = []
          named = offered
        } else {
          sentences.push(notUnderstood(clauseText, group, `it applies only "${trailing}", and no field and value for that condition can be found; which field and value decide it?`, trailing))
          continue
        }
      }
      const sentence: ReadSentence = { text: clauseText, role: 'rationale', requirements: [], catalogRules: [], group, ...(subjectConditions ? { subjectConditions } : {}) }
      if (requirements.length > 0) {
        for (const requirement of requirements) {
          applyOwnModifiers(requirement, modifiers, blanked)
          if (condition) requirement.conditions.push(...condition)
        }
        if (context.platform === 'kubernetes' && kinds.length === 0) requirements = [...requirements, ...requirements.flatMap(otherKinds)]
        const fresh = requirements.filter((requirement) => !all.some((existing) => sameRequirement(existing, requirement)))
        // "HostPorts should be disallowed" then "hostPort must be unset or 0": the later, more precise one replaces the first.
        for (const requirement of fresh) {
          for (const earlier of sentences) {
            const index = earlier.requirements.findIndex((existing) => refines(requirement, existing))
            if (index < 0) continue
            const [replaced] = earlier.requirements.splice(index, 1)
            if (replaced) all.splice(all.indexOf(replaced), 1)
            // "Any toleration with effect NoExecute must set tolerationSeconds. 300 max.": the scope said first still holds.
            if (replaced && requirement.conditions.length === 0 && requirement.exemptions.length === 0) {
              requirement.conditions.push(...replaced.conditions)
              requirement.exemptions.push(...replaced.exemptions)
            }
            if (earlier.requirements.length === 0 && earlier.catalogRules.length === 0) {
              earlier.role = 'restatement'
              earlier.note = `made precise by "${clauseText}"`
            }
          }
        }
        sentence.role = fresh.length > 0 ? 'requirement' : 'restatement'
        sentence.requirements = fresh
        all.push(...fresh)
        previous = requirements[requirements.length - 1]?.values
        for (const requirement of requirements) known.push(...requirement.values)
        if (hasModifiers(modifiers)) sentence.modifiers = modifiers
      } else if (allowance) {
        sentence.role = 'modifier'
        sentence.modifiers = modifiers
        all.push(allowance.widened)
        sentence.requirements = [allowance.widened]
        sentence.note = `allows more where ${allowance.where}`
      } else if (hasModifiers(modifiers) && !reading.problem && ONLY_THEY_MAY_DO.test(blanked)) {
        // "only roles whose name starts with system: may grant get, list or watch on secrets": what only they may do is a
        // requirement of its own on everyone else, not a narrowing of the requirements around it.
        sentence.role = 'requirement'
        sentence.problem = 'it permits only some objects to do something, and what that is (which field and value) was not read, so everything else cannot be checked; which field and value must the others not have?'
      } else if (hasModifiers(modifiers) && !reading.problem) {
        sentence.role = 'modifier'
        sentence.modifiers = modifiers
        let mentioned = fieldsIn(blanked, clauseContext)
        // "if there's no retries key that's fine": the field is inside the words read as the modifier.
        if (mentioned.length === 0 && modifiers.missing !== undefined) mentioned = fieldsIn(body, clauseContext).filter((ref) => all.some((requirement) => requirement.values.some((value) => sameName(value, ref))))
        // "in production namespaces (any namespace whose name starts with prod-) every image ...": a remark in parentheses
        // that names no field qualifies what its own sentence became.
        const host = parenthetical && mentioned.length === 0 && !modifiers.appliesToAll ? sentences.slice(hostFrom) : []
        const hostRequirements = host.flatMap((item) => item.requirements)
        const hostRules = host.flatMap((item) => item.catalogRules)
        const targets = hostRequirements.length > 0 || hostRules.length > 0 ? hostRequirements : modifierTargets(modifiers, sentences, group, all, mentioned)
        // "in the sensitive namespaces (those starting with pci-)": the remark says what the words meant, so it replaces
        // the scope they were read as.
        if (host.length > 0) for (const target of hostRequirements) redefineScope(target, modifiers)
        if (host.length > 0) for (const rule of hostRules) redefineNamespaces(rule, modifiers)
        for (const target of targets) applyModifiers(target, modifiers, mentioned.length > 0)
        // "The one other exception is ...": with no requirement of its own to qualify, the scope is the named rules'.
        // Only exemptions: a narrowing ("X is only OK in ...") may be about another value than the rules'.
        const exemptsOnly = modifiers.exemptions.length > 0 && modifiers.conditions.length === 0
        const namedRules = hostRules.length > 0 ? hostRules : targets.length === 0 && exemptsOnly ? namedRulesQualified(sentences, group) : []
        for (const rule of namedRules) narrowNamedRule(rule, modifiers)
        const count = targets.length + namedRules.length
        sentence.note = count > 0 ? `qualifies ${count} requirement${count === 1 ? '' : 's'}` : 'qualifies the requirements it names; none matched'
      } else if (reading.problem && /addresses a model/.test(reading.problem)) {
        sentence.role = 'requirement'
        sentence.problem = reading.problem
      } else if ((reading.asks || ASKS_AFTER_TYPOS(blanked)) && !asksNothing(blanked) && (!PERMISSION.test(blanked) || NOBODY_MAY.test(blanked) || BOUND_AFTER_MAY.test(blanked))) {
        const offered = named ?? namedReader(clauseText)
        // "ExternalName Services must not point to localhost" read as "no ExternalName": a named rule judging the very value the
        // sentence's scope selects contradicts the scope, so it read something else.
        const selected = modifiers.conditions.flatMap((condition) => (condition.predicate.op === 'equals' ? [String(condition.predicate.value)] : []))
        const rules = offered?.filter((rule) => !selected.some((value) => JSON.stringify(rule.validate ?? {}).includes(`'${value}'`)))
        // "ExternalName is only acceptable when the team is platform": a condition after the requirement that neither this reader
        // nor the named rule read would be dropped, and the rule would judge everything. A named rule using what it writes reads it.
        const trailing = modifiers.conditions.length === 0 && offered && offered.length > 0 ? unreadTrailingCondition(blanked) : undefined
        if (trailing !== undefined && !namedReadsCondition(trailing, offered ?? [])) {
          sentence.role = 'requirement'
          sentence.unreadCondition = trailing
          sentence.problem = `it applies only "${trailing}", and neither a field and value for that condition nor a named requirement that reads it can be found; which field and value decide it?`
        } else if (offered && rules && rules.length < offered.length) {
          sentence.role = 'requirement'
          // The scope stays unread: no reading of the whole instruction by the catalog may drop it either.
          sentence.unreadCondition = selected.join(', ')
          sentence.problem = `the named requirement it resembles judges ${selected.map((value) => `"${value}"`).join(', ')}, the very value its scope selects; what must those objects do?`
        } else if (rules && rules.length > 0) {
          const ruleModifiers = modifiers
          for (const rule of rules) narrowNamedRule(rule, ruleModifiers)
          sentence.role = 'requirement'
          sentence.catalogRules = rules
          // "a memory request must be set and be at least 64Mi": a clause that starts on its predicate is about what the named
          // rule named, which has no field here to lend; the field of a requirement before it would be another one.
          previous = undefined
        } else if (reading.problem) {
          sentence.role = 'requirement'
          sentence.problem = reading.problem
        } else if (!parenthetical && /\b(must|mustn'?t|has to|have to|needs? to|should|shall)\b/i.test(blanked) && !relatesTo(blanked, all, context)) {
          sentence.role = 'requirement'
          sentence.problem = 'it states a requirement but names no field this compiler can find, and no other requirement of the instruction is about what it names; which field (written as a path such as `spec.x`, or in backticks) is meant?'
        } else {
          sentence.role = parenthetical ? 'rationale' : 'restatement'
          sentence.note = parenthetical ? 'a remark in parentheses' : 'restates or explains the requirements around it; no field or value of its own'
        }
      } else if (PERMISSION.test(blanked)) {
        sentence.role = 'permission'
        sentence.note = 'says what is allowed; the requirements already allow it'
      } else {
        sentence.note = RATIONALE.test(blanked) ? 'explains why' : 'states no requirement'
      }
      sentences.push(sentence)
    }
  }

  // "Health checks (Jobs are not covered by this rule):": a list head's remarks qualify its items, so they are read after them.
  const headRemarks: Array<{ remark: string; group: number }> = []
  for (const segment of segments) {
    if (segment.headsList) {
      sentences.push({ text: segment.text, role: 'heading', requirements: [], catalogRules: [], group: segment.group, note: 'heads the list under it; each item is read with it' })
      headRemarks.push(...segment.parentheticals.map((remark) => ({ remark, group: segment.group })))
      continue
    }
    hostFrom = sentences.length
    remarks = segment.parentheticals
    readUnit(withHead(segment), segment.group, false)
    for (const remark of segment.parentheticals) readUnit(remarkWithAntecedent(remark, segment.text), segment.group, true)
  }
  for (const { remark, group } of headRemarks) {
    hostFrom = sentences.length
    readUnit(remark, group, true)
  }
  if (context.platform === 'kubernetes' && context.kinds.length === 1 && context.kinds[0] === 'Namespace') {
    for (const requirement of sentences.flatMap((sentence) => sentence.requirements)) {
      for (const condition of [...requirement.conditions, ...requirement.exemptions]) {
        if (condition.value.variants[0]?.segments.join('.') === 'metadata.namespace') condition.value = { ...condition.value, variants: [{ segments: ['metadata', 'name'] }], label: 'name' }
      }
    }
  }
  return { sentences }
}

/** A requirement sentence not understood, with why; `unread` is a condition or scope it states that was not read, which no reading may drop. */
function notUnderstood(text: string, group: number, problem: string, unread?: string): ReadSentence {
  return { text, role: 'requirement', requirements: [], catalogRules: [], group, problem, ...(unread !== undefined ? { unreadCondition: unread } : {}) }
}

/** The ban an "only ... may" sentence implies, exempting its scope, or the refusal when the scope or the ban was not read. */
function onlyScopeSentence(onlyMay: OnlyScopeMay, text: string, group: number, modifiers: Modifiers, context: ClauseContext, namedReader: NamedRequirementReader): ReadSentence {
  // An unread scope is an unread condition: no named rule may be read without it either.
  if (onlyMay.unreadScope !== undefined) return notUnderstood(text, group, `it permits only what is "${onlyMay.unreadScope}", and which documents those are was not read, so everything else cannot be told apart; which field and value (a namespace written as one, a label) decide it?`, onlyMay.unreadScope)
  const exemptions = modifiers.conditions.splice(0)
  const reading = readClause(onlyMay.ban, context)
  const rules = reading.requirements.length === 0 ? (namedReader(onlyMay.ban) ?? []) : []
  if (reading.requirements.length === 0 && rules.length === 0) return notUnderstood(text, group, reading.problem ?? `it permits something only where "${exemptions.map((condition) => condition.text).join(' and ')}" holds, and what it permits names no field this compiler can find; which field must everything else leave unset?`)
  for (const requirement of reading.requirements) requirement.exemptions.push(...exemptions)
  for (const rule of rules) narrowNamedRule(rule, { ...emptyModifiers(), exemptions })
  return { text, role: 'requirement', requirements: reading.requirements, catalogRules: rules, group, note: `forbidden except where ${exemptions.map((condition) => condition.text).join(' and ')}` }
}

/**
 * The sentences from `from` restate the requirement before them precisely: when they read fields
 * that were written out, the loose reading before (fields guessed from words, or a catalog rule
 * matched on a word) gives way to them.
 */
function replaceLooseRequirements(sentences: ReadSentence[], from: number, all: Requirement[], text: string): void {
  const added = sentences.slice(from)
  if (!added.some((sentence) => sentence.requirements.some((requirement) => requirement.values.some((ref) => ref.explicit)))) return
  const loose = sentences.slice(0, from).reverse().find((sentence) => sentence.role === 'requirement')
  if (!loose || loose.problem) return
  if (!loose.requirements.every((requirement) => requirement.values.every((ref) => !ref.explicit))) return
  for (const requirement of loose.requirements) all.splice(all.indexOf(requirement), 1)
  // "Services of type LoadBalancer must not be internet-facing. That means ...": the subject's narrowing holds for the precise form.
  for (const requirement of added.flatMap((sentence) => sentence.requirements)) if (requirement.conditions.length === 0) requirement.conditions.push(...(loose.subjectConditions ?? []))
  loose.requirements = []
  loose.catalogRules = []
  loose.role = 'restatement'
  loose.note = `made precise by "${text}"`
}

/**
 * Whether a sentence without a field of its own talks about what the instruction's requirements
 * are about (their kinds, fields or values): then it restates them ("Jobs must clean up after
 * themselves"); otherwise it asks for something nothing here can check ("the moon must be made of cheese").
 */
function relatesTo(text: string, requirements: Requirement[], context: InstructionContext): boolean {
  const words = (value: string): string[] =>
    value
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 3)
      .map((word) => word.replace(/(?<=[a-z]{3})s$/, ''))
  const vocabulary = new Set<string>()
  for (const kind of context.kinds) for (const word of words(kind)) vocabulary.add(word)
  for (const requirement of requirements) {
    for (const kind of requirement.subject.kinds) for (const word of words(kind)) vocabulary.add(word)
    for (const ref of requirement.values) for (const segment of ref.variants[0]?.segments ?? []) for (const word of words(segment)) vocabulary.add(word)
  }
  if (kindsNamedIn(normalizeText(text)).length > 0) return true
  const domain = domainWords()
  return words(text).some((word) => vocabulary.has(word) || (domain.has(word) && !COMMON_WORDS.has(word)))
}

let domainWordSet: ReadonlySet<string> | undefined

/**
 * Words of the documents' world (the catalog's phrasings and the Kubernetes field names): a
 * sentence using them is about documents. Built on first use, not when the service starts.
 */
function domainWords(): ReadonlySet<string> {
  domainWordSet ??= new Set(
    [...CATALOG_WORDS, ...kubernetesFields('Pod').flatMap((info) => info.path.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/))]
      .filter((word) => word.length >= 3)
      .map((word) => word.replace(/(?<=[a-z]{3})s$/, '')),
  )
  return domainWordSet
}
const COMMON_WORDS = new Set(['must', 'should', 'the', 'and', 'all', 'any', 'every', 'each', 'made', 'make', 'have', 'has', 'not', 'with', 'from', 'for', 'that', 'this', 'one', 'set', 'use', 'used', 'name', 'type', 'value', 'only', 'more', 'less'])

/** "Cache entries must not live longer than 24h: cache.ttlSeconds has to be positive": what follows the colon. */
function colonContent(text: string): string | undefined {
  const match = /^([^`"]*?\S):\s+(\S.*)$/.exec(text)
  if (!match?.[1] || !match[2]) {
    // "Don't run workloads under the `default` ServiceAccount: serviceAccountName must be ...": a lead-in quoting a name,
    // followed by a requirement with its own verb. The colon is outside the quotes.
    const quoted = /^((?:[^`"]|`[^`]*`|"[^"]*")*?[^\s`"]):\s+(\S.*)$/.exec(text)
    return quoted?.[1] && quoted[2] && ASKING_VERB.test(quoted[2]) && !ASKING_VERB.test(quoted[1]) ? quoted[2] : undefined
  }
  // "... under load so: maxmemory must be set": what follows asks with a verb of its own.
  if (ASKING_VERB.test(match[2]) && !ASKING_VERB.test(match[1]) && !/[._/]|[a-z][A-Z]/.test(match[1].split(/\s+/).pop() ?? '')) return match[2]
  // "hostNetwork: true", "example.com/owner: a contact email": a field and its value, not a lead-in.
  const lastWord = match[1].split(/\s+/).pop() ?? ''
  if (/[a-z][A-Z]|[._/]|^[a-z]+[A-Z]?$/.test(lastWord) && /[a-z][A-Z]|[._/]/.test(lastWord)) return undefined
  if (/[\w.-]$/.test(match[1]) && /^[\w"'`]/.test(match[2]) && /[._/a-z][A-Za-z0-9]*$/.test(match[1]) && !/\s/.test(match[1].split(' ').pop() ?? '')) {
    // "example.com/owner: a contact email" is a field and its description, not a lead-in.
    if (!/\b(must|should|has to|need|needs|required)\b/i.test(match[1])) return undefined
  }
  return match[2]
}

function readsRequirements(text: string, context: InstructionContext, schemaKind: string | undefined): boolean {
  const clauseContext: ClauseContext = { platform: context.platform, kinds: context.kinds }
  if (schemaKind) clauseContext.schemaKind = schemaKind
  return splitClause(text).some((clause) => readClause(clause, clauseContext).requirements.length > 0)
}

/** The kind whose schema resolves fields: Pod for pod controllers (autogen judges their template as a Pod). */
function schemaKindFor(context: InstructionContext): string | undefined {
  if (context.platform !== 'kubernetes') return undefined
  const kind = context.kinds[0]
  if (!kind) return 'Pod'
  return kind
}

/** An item's own comparison ("minReplicas at least 2"); a colon after a key ("owner: an email") is the head's verb at work. */
const OWN_BOUND = /\b(?:at least|at most|no more than|no less than|no fewer than|between|one of|up to|or less|or more|or fewer|or higher|or lower|greater than|less than|more than|fewer than|may not|may only|can only|not allowed|forbidden|banned|rejected|disallowed)\b/i

/** "Deployments must be annotated with:" + "- example.com/owner: a contact email" reads as one sentence. */
function withHead(segment: Segment): string {
  const keyItem = segment.head ? keyItemSentence(segment.head, segment.text) : undefined
  if (keyItem) return keyItem
  if (!segment.head || !MODAL_WORD.test(segment.head)) return segment.text
  // "PodDisruptionBudgets must not block node drains:" then "maxUnavailable may not be 0": the item's own verb
  // is the requirement; the head lends it only its subject.
  // Its first clause: "example.com/runbook: a link; it must be https://" asks its own thing only after the key.
  const first = segment.text.split(/[;.](?:\s|$)|\s-\s|,\s/)[0] ?? segment.text
  const ownVerb = MODAL_WORD.test(first) || OWN_BOUND.test(first)
  if (ownVerb) {
    const modal = MODAL_WORD.exec(segment.head)
    const subject = modal ? segment.head.slice(0, modal.index).replace(/[\s,:;-]+$/, '').trim() : ''
    return subject === '' ? segment.text : `${subject} ${segment.text}`
  }
  return `${segment.head} ${segment.text}`
}

/** "Acceptance criteria: ...", "psa from #sec-platform: ...", "Host Ports: ...": a label before the sentence. */
function stripLabelPrefix(text: string): string {
  const match = /^([^:`"]{1,40}):\s+(?=\S)/.exec(text)
  if (!match?.[1]) return text
  const label = match[1]
  if (MODAL_WORD.test(label) || /[._/]|[a-z][A-Z]/.test(label.replace(/\s/g, '')) || /\b(set to|is|are)\b/i.test(label)) return text
  if (label.trim().split(/\s+/).length > 5) return text
  return text.slice(match[0].length)
}

const TITLE_NOUN = /\b(?:policy|policies|rules|guardrails|hygiene|standards?|conventions|guidelines|checklist|review)\s*$/i

function isTitle(text: string): boolean {
  // "enforce the restricted pod security standard" asks for the standard; a title asks for nothing.
  return text.split(/\s+/).length <= 6 && TITLE_NOUN.test(text.replace(/[\s,;:]+$/, '')) && !MODAL_WORD.test(text) && !ASKS_AFTER_TYPOS(text)
}

function isHeading(text: string): boolean {
  if (/:\s*$/.test(text) && !/\b(must|need|needs|should|has to|have to)\b[^:]*:\s*$/i.test(text)) return true
  if (TICKET_TITLE.test(text) && !/[.!?]$/.test(text)) return true
  const words = text.split(/\s+/)
  return words.length <= 6 && !MODAL_WORD.test(text) && !/[.!?]$/.test(text) && !/\b(is|are|be)\b/i.test(text) && !/[=:]/.test(text) && !/[a-z][A-Z]|_|\./.test(text)
}

/**
 * No kind named anywhere: a field written by name that other kinds also have at their top
 * (automountServiceAccountToken on a Pod and on a ServiceAccount) is judged on those kinds too.
 */
function otherKinds(requirement: Requirement): Requirement[] {
  const [ref] = requirement.values
  if (requirement.values.length !== 1 || !ref?.explicit || requirement.conditions.length > 0) return []
  const leaf = ref.variants[0]?.segments.at(-1)
  if (!leaf) return []
  const clones: Requirement[] = []
  for (const kind of kubernetesFieldKinds()) {
    if (kind === 'Pod' || POD_CONTROLLERS.includes(kind)) continue
    const info = kubernetesFields(kind).find((field) => field.path === leaf || field.path === `spec.${leaf}`)
    if (!info) continue
    clones.push({ ...requirement, subject: { platform: 'kubernetes', kinds: [kind] }, values: [kubernetesRef(info, ref.label)] })
  }
  if (clones.length > 0 && requirement.subject.kinds.length === 0) requirement.subject = { platform: 'kubernetes', kinds: ['Pod'] }
  return clones
}

/** Splits the sentence into clauses, keeping "if ... then ..." whole. */
function conditionalAware(text: string, context: ClauseContext): string[] {
  return conditionalClauses(text).flatMap((clause) => sharedVerbClauses(clause, context))
}

/** "Deployments need at least 2 replicas and team + cost-center labels": two asks sharing a subject and verb, each read on its own. */
function sharedVerbClauses(text: string, context: ClauseContext): string[] {
  const verb = /^(.*?\b(?:needs?|must have|must set|requires?|must carry|must define|must declare)\s+)(.+)$/i.exec(text)
  if (!verb?.[1] || !verb[2]) return [text]
  const parts = verb[2].split(/\s+and\s+/)
  if (parts.length < 2) return [text]
  const clauses = parts.map((part) => `${verb[1] ?? ''}${part}`)
  const reads = clauses.map((clause) => readClause(clause, context).requirements)
  const whole = readClause(text, context).requirements
  const kinds = new Set(reads.map((requirements) => requirements.map((requirement) => requirement.predicate.op).join()))
  // "need uniform_bucket_level_access = true and public_access_prevention = "enforced"": the parts name more fields than the whole read.
  const fieldsOf = (requirements: Requirement[]): Set<string> => new Set(requirements.flatMap((requirement) => requirement.values.map((ref) => ref.variants[0]?.segments.join('.') ?? '')))
  const moreFields = fieldsOf(reads.flat()).size > fieldsOf(whole).size && reads.every((requirements) => fieldsOf(requirements).size > 0 && requirements.every((requirement) => requirement.values.every((ref) => ref.explicit)))
  return reads.every((requirements) => requirements.length > 0) && (kinds.size === clauses.length || moreFields) && whole.length <= 1 ? clauses : [text]
}

function conditionalClauses(text: string): string[] {
  if (/^\s*(if|when|for|where)\b/i.test(text)) {
    const then = /\bthen\b|,\s+/i.exec(text)
    // A modal before the comma means the condition ended earlier, unmarked ("If X is "prod" Y has to be A, B or C").
    if (then && !ASKING_VERB.test(text.slice(0, then.index))) {
      const head = text.slice(0, then.index + then[0].length)
      return splitClause(text.slice(then.index + then[0].length)).map((clause) => `${head} ${clause}`.replace(/\s+/g, ' '))
    }
  }
  return splitClause(text)
}

/**
 * "if environment is prod then debug must be false": the condition and the body. Conditions are
 * also read from "pods with hostNetwork: true must ..." and "X running more than one replica must".
 */
/** "... when the team is platform", "... if it is public-facing": a condition written after what is asked. */
const TRAILING_CONDITION = /\s(?:when(?:ever)?|if|only if|as long as|in case)\s+(.+?)\s*[.!;]?$/i
/** "when set", "if present", "where defined": what absence means, which the absence qualifiers read. */
const ABSENCE_CONDITION = /^(?:(?:it|they|one|the \w+|this|that)\s+(?:is|are)\s+)?(?:not\s+)?(?:set|unset|present|absent|missing|specified|defined|given|provided|declared|listed|used|found|included|omitted|left out|there|any|applicable|possible|needed|required)\b/i

function unreadTrailingCondition(text: string): string | undefined {
  // "even if ...", "even when ...": a concession, which narrows nothing.
  const match = TRAILING_CONDITION.exec(text.replace(/\beven\s+(?:if|when)\b.*$/i, ''))
  // "except when ...": an exception, which the exception readers take or refuse with its own question.
  if (match && /\b(?:except|unless|but not|other than)\s*$/i.test(text.slice(0, match.index + 1))) return undefined
  const found = match?.[1]?.trim()
  // "if X is set it can't be more than ...": a clause that asks is the requirement, not its condition.
  if (found === undefined || !/[A-Za-z]/.test(found) || ABSENCE_CONDITION.test(found) || ASKING_VERB.test(found)) return undefined
  return found
}

/** A named requirement reads a condition when its rules use what the condition writes. */
function namedReadsCondition(condition: string, rules: readonly Rule[]): boolean {
  return conditionReadBy(condition, rules.flatMap(ruleStrings))
}

/**
 * Whether what a condition writes is used: every literal of it, or its names written as values
 * (`nodes/proxy`, `t3.micro`, `LoadBalancer`), at least one of them. A condition of plain words
 * ("the pod runs in the payments team") is read by nothing here.
 */
function conditionReadBy(condition: string, used: readonly string[]): boolean {
  const literals = sentenceLiterals(condition)
  if (literals.length > 0) return unusedLiterals(condition, used).length === 0
  const names = condition.split(/\s+/).map((word) => word.replace(/^[^\w]+|[^\w]+$/g, '')).filter((word) => /[/._\d-]/.test(word) || /[a-z][A-Z]/.test(word))
  const haystack = used.map((item) => item.toLowerCase())
  return names.length > 0 && names.every((name) => haystack.some((item) => item.includes(name.toLowerCase())))
}

function splitCondition(text: string, context: ClauseContext): { condition?: Condition[]; body: string; unread?: string } {
  const lead = /^\s*(?:if|when|where|for)\s+(.+?)(?:\s+then\s+|,\s+)(.+)$/i.exec(text)
  if (lead?.[1] && lead[2] && !ASKING_VERB.test(lead[1])) {
    const condition = readCondition(lead[1], context)
    if (condition) return { condition: [condition], body: lead[2] }
    // "for any Pod mounting the Docker socket, it must ...": a condition that cannot be read would be dropped, and the rule
    // would judge every Pod; the clause says so instead. "For every Deployment, ..." names only what is judged.
    if (conditionWords(text, lead[1]) && ASKING_VERB.test(lead[2])) return { body: text, unread: lead[1] }
  }
  // "If tags.environment is "production" the account_replication_type also has to be ...": no comma, the value ends the condition.
  const unmarked = /^\s*(?:if|when)\s+(\S+\s+(?:is|=|==|equals)\s+(?:"[^"]+"|'[^']+'|`[^`]+`|[\w./:-]+))\s+(?!and\b|or\b)(.+)$/i.exec(text)
  if (unmarked?.[1] && unmarked[2] && (ASKING_VERB.test(unmarked[2]) || /\bis required\b/i.test(unmarked[2]))) {
    const condition = readCondition(unmarked[1].replace(/["'`]/g, ''), context)
    if (condition) return { condition: [condition], body: unmarked[2] }
  }
  // "Pods mounting the Docker socket must ...", "any Pod that mounts the containerd socket must ...".
  const mounting = context.platform === 'kubernetes' ? /^(.*?)\b((?:mounting|that mounts?|which mounts?)\s+.+?)\s+(must|has to|have to|needs?|requires?|should|shall|can'?t|cannot|may not)\b(.*)$/i.exec(text) : null
  // "containers mounting hostPath volumes must mount them read-only": the mounts themselves are what is judged.
  if (mounting && readMountedReadOnly(text, context.schemaKind ?? 'Pod')) return { body: text }
  const mountCondition = mounting?.[2] ? (mountsSocketCondition(mounting[2], context.schemaKind ?? 'Pod') ?? mountsVolumeCondition(mounting[2], mounting[1] ?? '', context.schemaKind ?? 'Pod')) : undefined
  if (mounting && mountCondition) return { condition: [mountCondition], body: `${mounting[1] ?? ''}${mounting[3] ?? ''}${mounting[4] ?? ''}` }
  // "Pods that mount the Podman socket must ...": a mount no field and value say; dropped, the rule would judge every Pod.
  if (mounting?.[2] && /\b(?:sockets?|volumes?)\b/i.test(mounting[2])) return { body: text, unread: mounting[2] }
  const withField = /^(.*?\b(?:with|having|that (?:have|has|set)|running|whose|of)\s+)(.+?)\s+(must|has to|have to|needs? to|should|shall|can'?t|cannot|may not)\b(.*)$/i.exec(text)
  // "Services of type LoadBalancer must ...": "of" leads a condition only before a field and its value.
  const ofField = withField?.[1] !== undefined && /\bof\s+$/i.test(withField[1])
  if (withField?.[2] && withField[1] !== undefined && (!ofField || /^(?:type|kind|class|tier|size)\s+\S+$/i.test(withField[2]))) {
    const condition = readCondition(withField[2], context)
    if (condition) return { condition: [condition], body: `${withField[1].replace(/\b(with|having|that (?:have|has|set)|running|whose|of)\s+$/i, '')} ${withField[3]}${withField[4]}` }
  }
  return { body: text }
}

/** Whether a lead before the comma ("if ...", "when ...", "for any Pod mounting ...") states a condition rather than only the subject. */
function conditionWords(text: string, lead: string): boolean {
  if (!/^\s*(?:if|when|where|for\s+(?:any|every|each|all)\b)/i.test(text)) return false
  // "if the field is missing", "where present": what absence means, read by the absence qualifiers.
  if (/\b(?:missing|absent|unset|not set|left out|omitted|present|specified|defined|listed|declared|given)\b/i.test(lead)) return false
  const rest = lead
    .replace(/\b(?:any|every|each|all|the|a|an|of|its|their|and|or)\b/gi, ' ')
    .split(/[\s,]+/)
    .filter((word) => word !== '' && kindsNamedIn(normalizeText(word)).length === 0 && terraformTypesNamedIn(word).length === 0 && !/^(?:objects?|resources?|documents?|containers?|workloads?|manifests?)$/i.test(word))
  return rest.length > 0
}

function readCondition(written: string, context: ClauseContext): Condition | undefined {
  // "when environment is dev.": the sentence's full stop is not part of the value.
  const text = written.replace(/[.;,!]+\s*$/, '')
  // "any Pod mounting the Docker socket": a named socket's paths on a hostPath volume.
  const mounting = context.platform === 'kubernetes' ? mountsSocketCondition(text, context.schemaKind ?? 'Pod') : undefined
  if (mounting) return mounting
  const lower = text.toLowerCase()
  const generic = context.platform !== 'kubernetes' ? genericConditionField(text) : undefined
  // A condition needs a field that was written or found in a schema; a guess from words would scope the rule wrongly.
  // "effect NoExecute", "protocol `-1`": a field and then its value, with no verb between.
  const bare = /\s[`"']([^`"']+)[`"']$|\s([A-Z][\w./:-]*|[\w./:-]*[\d*./:][\w./:*-]*|true|false)$/.exec(text)
  const named = generic ? [generic] : fieldsIn(text, context).filter((ref) => !ref.weak)
  const fields = named.length === 0 && bare && !generic ? fieldsIn(text.slice(0, bare.index), context).filter((ref) => !ref.weak) : named
  const ref = fields[0]
  if (!ref) return undefined
  let predicate: Predicate | undefined
  const reading = readPredicate(text, lower)
  if (reading) predicate = reading.predicate
  const is = /\b(?:is|=|==|equals|:)\s*[`"']?([\w.-]+)[`"']?\s*$/i.exec(text.trim())
  if (!predicate && is?.[1]) predicate = { op: 'equals', value: scalarOf(is[1]) }
  if (!predicate) {
    const plain = /[:=]\s*[`"']?([\w.-]+)[`"']?/.exec(text)
    if (plain?.[1]) predicate = { op: 'equals', value: scalarOf(plain[1]) }
  }
  if (!predicate && /\bmore than one replica|multiple replicas|more than 1 replica/.test(lower)) predicate = { op: 'compare', bounds: [{ cmp: '>', value: 1 }] }
  const bareValue = bare?.[1] ?? bare?.[2]
  if (!predicate && bare && bareValue !== undefined && !ref.label.toLowerCase().includes(bareValue.toLowerCase())) predicate = { op: 'equals', value: scalarOf(bareValue) }
  if (!predicate) return undefined
  const missing = ref.schemaDefault !== undefined ? (holds(predicate, ref.schemaDefault) ? 'pass' : 'fail') : 'fail'
  return { value: ref, predicate, missing, text }
}

function genericConditionField(text: string): ValueRef | undefined {
  const match = /^\s*(?:the\s+)?([A-Za-z_][\w.-]*)\s*(?:is|=|==|equals|:)\s/i.exec(text)
  if (!match?.[1]) return undefined
  return { scope: 'object', variants: [{ segments: pathSegments(match[1]) }], label: match[1], explicit: /[._]|[a-z][A-Z]/.test(match[1]) }
}

/** Whether a predicate holds for a schema default (for conditions on absent values). */
function holds(predicate: Predicate, value: Scalar): boolean {
  switch (predicate.op) {
    case 'equals':
      return predicate.value === value
    case 'oneOf':
      return predicate.values.includes(value)
    case 'noneOf':
      return !predicate.values.includes(value)
    case 'compare':
      return predicate.bounds.every((bound) => {
        const number = Number(value)
        const limit = Number(bound.value)
        return bound.cmp === '>=' ? number >= limit : bound.cmp === '>' ? number > limit : bound.cmp === '<=' ? number <= limit : number < limit
      })
    default:
      return false
  }
}

/**
 * "type LoadBalancer is only allowed in the ingress-nginx namespace", "runs_on: self-hosted is
 * only allowed for jobs in the deploy stage": the value is denied except where the scope holds.
 */
function onlyAllowedInversion(text: string, modifiers: Modifiers, context: ClauseContext): Requirement[] | undefined {
  const match = /^(.*?)\s+(?:is|are)\s+only\s+(?:allowed|permitted|ok|okay)\b(.*)$/i.exec(text)
  if (!match?.[1]) return undefined
  const subject = match[1]
  const scope = match[2] ?? ''
  // "debug is only allowed when ...", after "level must be one of debug, info": a value the instruction listed for a field.
  const listed = knownValueNamed(subject, context)
  const valueMatch = /[:=]\s*[`"']?([\w./-]+)[`"']?\s*$|\b([\w./-]+)\s*$/.exec(subject.trim())
  const valueWord = listed ? String(listed.value) : (valueMatch?.[1] ?? valueMatch?.[2])
  // "type LoadBalancer": the words before the value name the field.
  const fieldWords = valueMatch ? subject.trim().slice(0, valueMatch.index) : subject
  const fields = listed ? [listed.ref] : fieldsIn(subject, context).length > 0 ? fieldsIn(subject, context) : fieldsIn(fieldWords, context)
  const refs = fields.length > 0 ? fields : (context.previous ?? [])
  if (refs.length === 0 || !valueWord || refs.some((ref) => ref.label === valueWord)) return undefined
  const scopeCondition = readScopeCondition(scope, context)
  const exemptions = [...modifiers.conditions.splice(0), ...(scopeCondition ? [scopeCondition] : [])]
  if (exemptions.length === 0) return undefined
  return [
    {
      sentence: text,
      subject: { platform: context.platform, kinds: [...context.kinds] },
      values: refs,
      predicate: { op: 'noneOf', values: [scalarOf(valueWord)] },
      combine: 'all',
      missing: 'pass',
      conditions: [],
      exemptions,
    },
  ]
}

const ALLOWS = /^(.*?)\b(?:may|can|is allowed to|are allowed to|is permitted to|are permitted to)\s+(?:go|be|use|have|set|request|run with|run|get)?\s*(.+?)[.!]?$/i

/**
 * "Claims labelled `storage-tier: bulk` may go up to 4Ti", "classes whose name ends in -scratch
 * may use Delete": where the sentence's condition holds, the latest requirement of the same
 * kind (a bound, or a list of values) allows more. The requirement is exempted there, and a copy
 * with the wider bound or list holds there instead. Returns the copy.
 */
function conditionalAllowance(text: string, modifiers: Modifiers, all: Requirement[]): { widened: Requirement; where: string } | undefined {
  if (modifiers.conditions.length === 0 || modifiers.exemptions.length > 0 || ASKING_VERB.test(text) || RESTRICTING_MAY.test(text)) return undefined
  const match = ALLOWS.exec(text.trim())
  if (!match?.[2]) return undefined
  const allowed = match[2].replace(/[`"']/g, '')
  const bound = readPredicate(`value ${/^(?:up to|at most|as (?:much|many|high|large) as|no more than)\b/i.test(allowed) ? '' : 'up to '}${allowed}`, `value up to ${allowed}`.toLowerCase())
  const value = /^([\w./-]+)$/.exec(allowed)?.[1]
  for (const target of [...all].reverse()) {
    const { predicate } = target
    let widened: Predicate | undefined
    if (predicate.op === 'compare' && bound?.predicate.op === 'compare' && /^(up to|at most|as|no more)/i.test(allowed)) {
      widened = { op: 'compare', bounds: [...predicate.bounds.filter((item) => item.cmp === '>=' || item.cmp === '>'), ...bound.predicate.bounds] }
    } else if (value && (predicate.op === 'equals' || predicate.op === 'oneOf') && typeof (predicate.op === 'equals' ? predicate.value : predicate.values[0]) === 'string') {
      widened = { op: 'oneOf', values: [...(predicate.op === 'equals' ? [predicate.value] : predicate.values), value] }
    }
    if (!widened) continue
    const conditions = modifiers.conditions.splice(0)
    const copy: Requirement = { ...target, sentence: text, predicate: widened, conditions: [...target.conditions, ...conditions], exemptions: [...target.exemptions] }
    target.exemptions.push(...conditions)
    return { widened: copy, where: conditions.map((condition) => condition.text).join(' and ') }
  }
  return undefined
}

/** "may only", "may not", "nobody may": a restriction, not an allowance. */
const RESTRICTING_MAY = /\b(?:may|can) (?:only|not|never)\b|\b(?:no|none|nobody|nothing|never)\b|n'?t\b/i

/** The subject is one of the values an earlier requirement listed ("debug", "the `Allow` effect"). */
function knownValueNamed(subject: string, context: ClauseContext): { value: Scalar; ref: ValueRef } | undefined {
  const words = subject.replace(/[`"']/g, '').replace(/^\s*(?:and\s+|but\s+|also\s+)?(?:the\s+|a\s+|an\s+)?/i, '').trim().toLowerCase()
  return context.knownValues?.find((entry) => String(entry.value).toLowerCase() === words)
}

/** "for jobs in the deploy stage", "when environment is dev": a condition on the item or the document. */
function readScopeCondition(text: string, context: ClauseContext): Condition | undefined {
  const when = /\b(?:when|if|where)\s+(.+)$/i.exec(text)
  if (when?.[1]) return readCondition(when[1], context)
  const inThe = /\bin the\s+[`"']?([\w.-]+)[`"']?\s+([a-z_]+)\b/i.exec(text)
  if (inThe?.[1] && inThe[2] && context.platform === 'generic') {
    return { value: { scope: 'element', variants: [{ segments: [inThe[2]] }], label: inThe[2] }, predicate: { op: 'equals', value: inThe[1] }, missing: 'fail', text }
  }
  return undefined
}

function blank(text: string, spans: Array<[number, number]>): string {
  let result = text
  for (const [start, end] of spans) result = result.slice(0, start) + ' '.repeat(end - start) + result.slice(end)
  return result.replace(/\s+/g, ' ').trim()
}

function applyOwnModifiers(requirement: Requirement, modifiers: Modifiers, text: string): void {
  applyModifiers(requirement, modifiers, true)
  applyLevel(requirement, modifiers, text)
}

/** "namespaces (those whose name starts with prod-)": "those" stands for the namespaces of its sentence. */
function remarkWithAntecedent(remark: string, sentence: string): string {
  if (!/\bnamespaces?\b/i.test(sentence) || /\bnamespaces?\b/i.test(remark)) return remark
  return remark.replace(/^((?:i\.e\.|e\.g\.|that is|meaning)?,?\s*)(those|the ones|ones|any|all)\b(?=\s+(?:whose|that|with|starting|beginning|ending|named|called|prefixed))/i, '$1namespaces')
}

const pathOf = (condition: Condition): string => condition.value.variants[0]?.segments.join('.') ?? ''

/** Conditions the remark restates (same field) are dropped from the requirement before the remark's are added. */
function redefineScope(requirement: Requirement, modifiers: Modifiers): void {
  const redefined = new Set([...modifiers.conditions, ...modifiers.exemptions].map(pathOf))
  requirement.conditions = requirement.conditions.filter((condition) => !redefined.has(pathOf(condition)))
}

function redefineNamespaces(rule: Rule, modifiers: Modifiers): void {
  if (!rule.match || !modifiers.conditions.some((condition) => pathOf(condition) === 'metadata.namespace')) return
  const { namespaces: _namespaces, ...rest } = rule.match
  rule.match = rest
}

function applyModifiers(requirement: Requirement, modifiers: Modifiers, includeMissing: boolean): void {
  for (const ref of requirement.values) {
    if (ref.scope !== 'container') continue
    ref.containers = { ...(ref.containers ?? { init: true, ephemeral: true }) }
    if (modifiers.initContainers !== undefined) ref.containers.init = modifiers.initContainers
    if (modifiers.ephemeralContainers !== undefined) ref.containers.ephemeral = modifiers.ephemeralContainers
  }
  if (includeMissing && modifiers.missing) requirement.missing = modifiers.missing
  if (modifiers.judgedKinds) judgeNamedKinds(requirement, modifiers.judgedKinds)
  requirement.conditions.push(...modifiers.conditions.filter((condition) => !condition.text.startsWith('only-in:') || requirement.predicate.op !== 'unset'))
  requirement.exemptions.push(...modifiers.exemptions)
  // "X is only allowed in kube-system": outside those namespaces X is not allowed, i.e. the requirement holds outside.
  for (const condition of modifiers.conditions.filter((item) => item.text.startsWith('only-in:') && requirement.predicate.op === 'unset')) requirement.exemptions.push(condition)
}

/**
 * Fields set at pod and container level (runAsNonRoot, seccompProfile, runAsUser): a positive
 * requirement is met by the container's own value or else the pod's; a ban holds at both levels.
 */
function applyLevel(requirement: Requirement, modifiers: Modifiers, text: string): void {
  const lower = text.toLowerCase()
  const container = requirement.values.find((ref) => ref.scope === 'container')
  const pod = requirement.values.find((ref) => ref.scope === 'object' && ref.variants[0]?.segments[1] === 'securityContext')
  if (!container || !pod) return
  const podOnly = /\bpod[- ]level\b|\bpod(?:'s)? securitycontext\b|\bin the pod\b/.test(lower) && !/\b(every|each)(?: single)? container\b|\bcontainer[- ]level\b/.test(lower)
  const containerOnly = /\b(on|in|for) (every|each)( single)? container\b/.test(lower) && !/\bpod\b/.test(lower)
  if (podOnly) {
    requirement.values = [pod]
    return
  }
  if (containerOnly) {
    requirement.values = [container]
    return
  }
  const negative = requirement.predicate.op === 'noneOf' || requirement.predicate.op === 'unset'
  if (negative || modifiers.level === 'both') {
    if (!negative) {
      container.containers = { ...(container.containers ?? { init: true, ephemeral: true }), podLevelFallback: pod.variants[0]?.segments ?? [] }
      requirement.values = [container]
    }
    return
  }
  container.containers = { ...(container.containers ?? { init: true, ephemeral: true }), podLevelFallback: pod.variants[0]?.segments ?? [] }
  requirement.values = [container]
}

/** The catalog rules a scope sentence qualifies: those of its group, else all of the instruction's. */
function namedRulesQualified(sentences: ReadSentence[], group: number): Rule[] {
  const inGroup = sentences.filter((sentence) => sentence.group === group).flatMap((sentence) => sentence.catalogRules)
  return inGroup.length > 0 ? inGroup : sentences.flatMap((sentence) => sentence.catalogRules)
}

/** A modifier sentence qualifies the requirements on the fields it names, else those of its group (all of them for "all of this"). */
function modifierTargets(modifiers: Modifiers, sentences: ReadSentence[], group: number, all: Requirement[], mentioned: ValueRef[]): Requirement[] {
  if (modifiers.appliesToAll) return all
  if (mentioned.length > 0) return all.filter((requirement) => requirement.values.some((ref) => mentioned.some((named) => sameName(ref, named))))
  const containerOnly = modifiers.conditions.length === 0 && modifiers.exemptions.length === 0 && modifiers.missing === undefined
  if (containerOnly) return all.filter((requirement) => requirement.values.some((ref) => ref.scope === 'container'))
  const inGroup = sentences.filter((sentence) => sentence.group === group).flatMap((sentence) => sentence.requirements)
  if (inGroup.length > 0) return modifiers.missing !== undefined ? inGroup.slice(-1) : inGroup
  return modifiers.missing !== undefined ? all.slice(-1) : all
}

/** The values requirements list for their fields (one of, equal to, none of), each once. */
function listedValues(requirements: Requirement[]): Array<{ value: Scalar; ref: ValueRef }> {
  const found: Array<{ value: Scalar; ref: ValueRef }> = []
  for (const requirement of requirements) {
    const { predicate } = requirement
    const values = predicate.op === 'equals' ? [predicate.value] : predicate.op === 'oneOf' || predicate.op === 'noneOf' ? predicate.values : []
    const ref = requirement.values[0]
    if (!ref || requirement.values.length !== 1) continue
    for (const value of values) if (typeof value === 'string' && !found.some((entry) => entry.value === value)) found.push({ value, ref })
  }
  return found
}

function sameName(a: ValueRef, b: ValueRef): boolean {
  return a.variants[0]?.segments.join('.') === b.variants[0]?.segments.join('.')
}

function samePaths(a: Requirement, b: Requirement): boolean {
  const paths = (requirement: Requirement): string => JSON.stringify(requirement.values.map((ref) => ref.variants[0]?.segments ?? []))
  return paths(a) === paths(b)
}

/** A later requirement on the same fields that says the values of a bare "set" or "not set". */
function refines(later: Requirement, earlier: Requirement): boolean {
  if (!samePaths(later, earlier)) return false
  if (earlier.predicate.op === 'unset') return later.predicate.op === 'oneOf' || later.predicate.op === 'equals' || later.predicate.op === 'noneOf'
  if (earlier.predicate.op === 'set') return later.predicate.op !== 'set' && later.predicate.op !== 'unset' && later.missing === 'fail'
  return false
}

function sameRequirement(a: Requirement, b: Requirement): boolean {
  // The words that named a field (`named`) are for the author's eyes: said otherwise, a requirement is the same.
  const shape = (requirement: Requirement): string => JSON.stringify([requirement.values.map((ref) => [ref.scope, ref.variants]), requirement.predicate, requirement.conditions.map((c) => c.predicate)], (key, value: unknown) => (key === 'named' ? undefined : value))
  return shape(a) === shape(b)
}

/** A named (catalog) rule takes the sentence's namespace scope and exemptions through its match. */
function narrowNamedRule(rule: Rule, modifiers: Modifiers): void {
  // Namespace names and prefixes become namespace globs on the match.
  const onNamespace = (condition: Condition): boolean => condition.value.variants[0]?.segments.join('.') === 'metadata.namespace' && (condition.predicate.op === 'oneOf' || condition.predicate.op === 'startsWith')
  const namespaces = (conditions: Condition[]): string[] =>
    conditions
      .filter(onNamespace)
      .flatMap((condition) => (condition.predicate.op === 'oneOf' ? condition.predicate.values.map(String) : condition.predicate.op === 'startsWith' ? condition.predicate.values.map((prefix) => `${prefix}*`) : []))
  const include = namespaces(modifiers.conditions)
  const exclude = namespaces(modifiers.exemptions)
  // Other scopes (labels, names, a field's value) become match conditions: where they do not hold, the rule is skipped.
  const scoped = [
    ...modifiers.conditions.filter((condition) => !onNamespace(condition) && condition.value.scope === 'object').map((condition) => valueTest(condition.value, 'object', condition.predicate, condition.missing)),
    ...modifiers.exemptions.filter((condition) => !onNamespace(condition) && condition.value.scope === 'object').map((condition) => `!${valueTest(condition.value, 'object', condition.predicate, condition.missing)}`),
  ]
  if (include.length === 0 && exclude.length === 0 && scoped.length === 0) return
  rule.match = { ...(rule.match ?? {}) }
  if (include.length > 0) rule.match.namespaces = [...new Set([...(rule.match.namespaces ?? []), ...include])]
  if (exclude.length > 0) rule.match.excludeNamespaces = [...new Set([...(rule.match.excludeNamespaces ?? []), ...exclude])]
  const existing = rule.match.conditions ?? []
  if (scoped.length > 0) rule.match.conditions = [...existing, ...scoped.map((expression, index) => ({ name: `scope-${existing.length + index + 1}`, expression }))]
}

const wrap = (condition: Condition | undefined): Condition[] | undefined => (condition ? [condition] : undefined)
