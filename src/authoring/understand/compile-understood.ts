import type { Rule } from '../../engine/index.js'
import type { Platform, RuleTemplate } from '../catalog/rule-template.js'
import { compileRequirement } from './compile-requirement.js'
import { INTRODUCES_NOTE, MODAL_WORD, interpretInstruction, type Interpretation, type NamedRequirementReader } from './interpret-instruction.js'
import type { Requirement, SentenceReading } from './requirement.js'
import { groundingProblem } from './grounding.js'
import { antecedentOf } from './list-entries.js'
import { unknownTerraformAttribute } from './terraform-schema-fields.js'
import { fieldsNamedUnread } from './fields-named-unread.js'
import { bannedKeyNotWritten } from './generic-key-written.js'
import { forbidsWhatEveryObjectHas } from './forbids-every-object.js'
import { insideAside, requirementStrings, ruleStrings, unusedLiterals } from './coverage.js'
import { unjudgedSubjectKinds } from './subject-kinds-judged.js'
import { forOtherKinds, kindWithoutField } from './other-subject-kinds.js'
import { droppedDoing, droppedQualifier, droppedValueType } from './dropped-qualifier.js'
import { unreadException } from './unread-exception.js'
import { namespaceOfClusterScoped } from './cluster-scoped-namespace.js'
import { exemptionUnread } from './unread-exemption.js'
import { unquotedValuesUnused } from './restated-values.js'
import { kindReadAsValue } from './kind-as-value.js'
import { permissionReadAsRequirement } from './permission-read.js'
import { contradicted } from './contradicting-requirements.js'
import { countedOtherNoun } from './counted-noun.js'
import { droppedRelativeQualifier, droppedSubjectValue, writtenValues } from './subject-qualifier.js'
import { otherUsesOfKind } from './kind-references.js'
import { joinPickedVolume, unjoinedPickedVolume } from './mounted-volume.js'
import { relaxExclusiveBounds } from './exclusive-bounds.js'
import { fits } from './read-clause.js'
import { codeTokens, pathSegments } from './find-fields.js'
import { escapeRegex } from './read-predicate.js'
import { enumWordsOf } from './enum-words.js'
import { namedRuleGrounds, requirementGrounds, type RuleGrounds } from './rule-grounds.js'

export interface UnderstoodRules {
  rules: Rule[]
  sentences: SentenceReading[]
  /** Sentences that state a requirement the compiler could not complete, with what was missing. */
  problems: Array<{ sentence: string; problem: string }>
  interpretation: Interpretation
  /** Whether the sentences not understood may be completed by another reader (see unqualifiedReading). */
  completable: boolean
}

/**
 * The rules an instruction asks for, read sentence by sentence (see interpret-instruction.ts),
 * with a report of every sentence's role, what it became and the words each rule stands on
 * (`catalog` gives the titles of the named requirements the reader took).
 */
export function compileUnderstood(instruction: string, context: { platform: Platform; kinds: string[]; fullText?: string; catalog?: readonly RuleTemplate[] }, named: NamedRequirementReader): UnderstoodRules {
  const interpretation = interpretInstruction(instruction, context, named)
  const enumWords = enumWordsOf(context)
  const rules: Rule[] = []
  const names = new Set<string>()
  const unique = (rule: Rule): Rule => {
    let name = rule.name
    for (let suffix = 2; names.has(name); suffix += 1) name = `${rule.name}-${suffix}`
    names.add(name)
    return { ...rule, name }
  }
  const sentences: SentenceReading[] = []
  const problems: UnderstoodRules['problems'] = []
  // Scopes and exemptions a modifier sentence adds end up on other sentences' requirements and rules.
  const sharedStrings = interpretation.sentences.flatMap((sentence) => [
    ...sentence.requirements.flatMap((requirement) => [...requirement.conditions, ...requirement.exemptions].flatMap((condition) => requirementStrings({ ...requirement, values: [condition.value], predicate: condition.predicate, conditions: [], exemptions: [] }))),
    ...sentence.catalogRules.map((rule) => JSON.stringify(rule.match ?? {})),
  ])
  // Values the requirements compare against: one of them narrowing a subject picks some objects (see subject-qualifier.ts).
  const values = writtenValues(interpretation.sentences.flatMap((sentence) => sentence.requirements))
  // A named rule carries no scope, exemption or condition the sentences add: offered only where none was read or left unread.
  const unqualified = unqualifiedReading(interpretation)
  for (const sentence of interpretation.sentences) {
    if (!sentence.problem && sentence.role === 'requirement' && remarksWithoutAttribute(sentence)) {
      sentence.role = 'restatement'
      sentence.requirements = []
      sentence.note = 'asks nothing of its own: no verb asks for anything, and its words name no attribute of the resource type'
    }
    if (!sentence.problem && sentence.role === 'requirement') {
      // "these verbs": the entries were written in the sentence it points back to.
      const antecedent = antecedentOf(sentence.text, context.fullText ?? instruction)
      const check = checkSentence(sentence, antecedent ? `${instruction}\n${antecedent}` : instruction, sharedStrings, enumWords, values)
      if (check) {
        // Its fields, read from words, did not hold up; the catalog may know the sentence as a named requirement.
        // Generic documents have no named requirements of their own: the catalog's generic rules read fields as this reader does.
        const offered = unqualified && context.platform !== 'generic' ? namedInstead(sentence, named, sharedStrings, enumWords) : undefined
        sentence.problem = offered ? undefined : check
        sentence.requirements = []
        sentence.catalogRules = offered ?? []
      }
    }
  }
  relaxExclusiveBounds(interpretation.sentences.flatMap((sentence) => sentence.requirements))
  // "`hostPID` must not be true" and, from another sentence, "must be true": no object that sets it could pass both.
  const earlier: Requirement[] = []
  for (const sentence of interpretation.sentences) {
    const clash = sentence.problem ? undefined : sentence.requirements.map((requirement) => contradicted(requirement, earlier)).find((other) => other !== undefined)
    if (clash) {
      notUnderstood(sentence, `what it was read as contradicts "${clash.sentence}" on the same field, so no object that sets it could pass both; which objects does each apply to?`)
      sentence.requirements = []
      sentence.catalogRules = []
    }
    earlier.push(...sentence.requirements)
  }
  // What the instruction's requirements use, after the checks: a sentence said to restate them may only write that.
  // A named rule's description counts (see ruleStrings): restating it in words ("an allowed \"safe\" subset") is what a restatement does.
  const usedByAll = [
    ...sharedStrings,
    ...interpretation.sentences.flatMap((sentence) => [...sentence.requirements.flatMap(requirementStrings), ...sentence.catalogRules.flatMap(ruleStrings)]),
  ]
  // The conditions and exemptions read, as written and as fields: an exemption sentence about them restates them.
  const readScopes = interpretation.sentences.flatMap((sentence) => sentence.requirements.flatMap((requirement) => [...requirement.conditions, ...requirement.exemptions].flatMap((scope) => [scope.text, ...scope.value.variants.flatMap((variant) => variant.segments)])))
  for (const sentence of interpretation.sentences) {
    // A lead-in before a colon ("must not live longer than 24h: ... at most a day") is made precise by what follows it.
    if (!sentence.problem && sentence.role === 'restatement' && sentence.note !== INTRODUCES_NOTE) {
      const extra = restatesNothingNew(sentence.text, usedByAll, enumWords)
      if (extra) sentence.problem = extra
    }
    // "init containers are exempt" that qualified nothing (a named rule judges every container): the narrowing would be lost.
    const lost = sentence.modifiers
    if (!sentence.problem && sentence.role === 'modifier' && lost && /none matched/.test(sentence.note ?? '') && (lost.initContainers === false || lost.ephemeralContainers === false)) {
      notUnderstood(sentence, 'it takes some containers out, and no requirement read here could take that (a named rule judges the containers it names); which field of which containers must be checked?')
    }
    // "- at most 4 retries" taken for a heading: a bound no rule uses is a requirement that was not read.
    if (!sentence.problem && sentence.role === 'heading' && BOUND_CUE.test(sentence.text)) {
      const unused = unusedLiterals(sentence.text, usedByAll, enumWords)
      // "at least 2 replicas" alone: a named requirement may know what is bounded.
      const offered = unused.length > 0 && unqualified && context.platform !== 'generic' ? namedInstead(sentence, named, usedByAll, enumWords) : undefined
      if (offered) {
        sentence.role = 'requirement'
        sentence.catalogRules = offered
      } else if (unused.length > 0) {
        notUnderstood(sentence, `it bounds something by ${unused.map((word) => `"${word}"`).join(', ')}, and nothing was read from it; which field must be within that bound?`)
      }
    }
    // "Recording rules are exempt from all of this" read as an explanation: the exemption would be lost.
    const exempts = sentence.problem ? undefined : sentence.role === 'rationale' || (sentence.role === 'restatement' && sentence.note !== INTRODUCES_NOTE) ? exemptionUnread(sentence.text, readScopes) : sentence.role === 'permission' ? exemptionUnread(sentence.text, readScopes, true) : undefined
    if (exempts) {
      sentence.unreadCondition = exempts
      notUnderstood(sentence, `it says what is "${exempts}", and no exemption was read from it: the rules would judge those too; which field and value (or name, namespace, label) mark them?`)
    }
    // "Deployments with fewer than 3 replicas are exempt" read as a namespace called "replicas": a scope that drops its number is another scope.
    if (!sentence.problem && sentence.role === 'modifier') {
      const unused = unusedLiterals(sentence.text, usedByAll, enumWords)
      if (unused.length > 0) {
        // A narrowing nothing took is an unread condition: the catalog's reading of the whole text may not drop it either.
        sentence.unreadCondition = unused.join(', ')
        notUnderstood(sentence, `it narrows the requirements with ${unused.map((word) => `"${word}"`).join(', ')}, which the narrowing read from it does not use; which field and value decide it?`)
      }
    }
    // "LoadBalancer is only OK when it is internal", with no requirement on LoadBalancer read: the narrowing would be lost.
    // An exemption of what no requirement is about ("ingress rules are not affected") loses nothing.
    if (!sentence.problem && sentence.role === 'modifier' && lost && /none matched/.test(sentence.note ?? '') && lost.conditions.length > 0) {
      notUnderstood(sentence, 'it narrows to what a condition selects, and no requirement read here is about what it names, so the narrowing would be lost; which requirement does it narrow, on which field?')
    }
    // "Reject a ConfigMap if" and then the items: what follows says when to reject, and read as requirements it asks the opposite.
    if (!sentence.problem && sentence.role !== 'requirement' && DANGLING_CONDITION_LEAD.test(sentence.text) && interpretation.sentences.some((other) => other.requirements.length > 0 || other.catalogRules.length > 0)) {
      notUnderstood(sentence, 'it says that what follows decides when a document is rejected, and what follows was read as requirements of its own, which ask the opposite; write each item as what must (or must not) hold')
    }
    // "skipped if the volume has a sizeLimit set" after a requirement that picks no volume: which volume is not said.
    const unpicked = !sentence.problem && sentence.role === 'modifier' ? unjoinedPickedVolume(sentence.modifiers?.exemptions ?? []) : undefined
    if (unpicked) {
      notUnderstood(sentence, `it skips what "${unpicked.text}" says, and no requirement it qualifies picks a volume by its type; which volume is meant?`)
    }
    // "Also multi_az and deletion_protection both on.": fields of what is judged, named and then dropped as saying nothing.
    if (!sentence.problem && sentence.role === 'rationale' && sentence.note === 'states no requirement') {
      const unread = fieldsNamedUnread(sentence.text, context, usedByAll)
      if (unread.length > 0) {
        notUnderstood(sentence, `it names ${unread.map((name) => `\`${name}\``).join(', ')}, ${unread.length === 1 ? 'a field' : 'fields'} of ${context.kinds.join(' or ') || 'what is judged'}, and no rule read from the instruction reads ${unread.length === 1 ? 'it' : 'them'}; what must ${unread.length === 1 ? 'it' : 'each'} be?`)
      }
    }
    const made: string[] = []
    const grounds: RuleGrounds[] = []
    for (const requirement of sentence.requirements) {
      const rule = unique(compileRequirement(requirement))
      rules.push(rule)
      made.push(rule.name)
      grounds.push(requirementGrounds(rule.name, requirement, { sentence: sentence.text, instruction: context.fullText ?? instruction }))
    }
    for (const rule of sentence.catalogRules) {
      const named = unique(rule)
      rules.push(named)
      made.push(named.name)
      grounds.push(namedRuleGrounds(named, context.catalog ?? [], { sentence: sentence.text, instruction: context.fullText ?? instruction }))
    }
    if (sentence.problem) problems.push({ sentence: sentence.text, problem: sentence.problem })
    const reading: SentenceReading = { text: sentence.text, role: sentence.role, became: becameText(sentence, made) }
    if (made.length > 0) {
      reading.rules = made
      reading.grounds = grounds
    }
    sentences.push(reading)
  }
  return { rules, sentences, problems, interpretation, completable: unqualifiedReading(interpretation) }
}

/**
 * No scope, exemption or condition was read or left unread: every sentence stands alone, so
 * another reader (a named requirement, a model) may take one the structural reader refused
 * without losing what narrows it.
 */
function unqualifiedReading(interpretation: Interpretation): boolean {
  return interpretation.sentences.every((sentence) => sentence.role !== 'modifier' && sentence.unreadCondition === undefined && sentence.requirements.every((requirement) => requirement.conditions.length === 0 && requirement.exemptions.length === 0))
}

/** "Reject a ConfigMap if", "Fail the check when:": a lead that leaves its condition to what follows. */
const DANGLING_CONDITION_LEAD = /\b(?:reject|deny|block|fail|flag|refuse|forbid|disallow)\w*\b.*\b(?:if|when|whenever|where)\s*:?\s*$/i

const EXEMPTING_WORDS = /\b(?:exempt\w*|exceptions?|except|unless|other than|apart from|besides|skip\w*|exclud\w*|only)\b/i
const CONDITION_WORDS = /\b(?:if|when|where|whenever)\b/i

/**
 * The named requirement a sentence states, when its structural reading failed a check: because
 * it left a number or literal of the sentence unused ("`Always` when the `latest` tag ..."), or
 * because a key or value it compares with is not grounded in the text ("team + cost-center
 * labels", where a named requirement reads the list before "labels" as keys). Taken only when the named rules use every number
 * and literal the sentence writes. A sentence that exempts or narrows ("the only exception is
 * ...") is not the named requirement's to mend: a named rule carries no exemption. Nor is a
 * condition the structural reader did not read, unless it writes a literal the named rule uses.
 */
function namedInstead(sentence: Interpretation['sentences'][number], named: NamedRequirementReader, shared: readonly string[], enumWords: ReadonlySet<string>): Rule[] | undefined {
  if (EXEMPTING_WORDS.test(sentence.text)) return undefined
  const dropped = unusedLiterals(sentence.text, [...shared, ...sentence.requirements.flatMap(requirementStrings)], enumWords).length > 0
  // A condition nothing read ("when the pod is public") may be dropped by a named rule; one that writes its literal is checked by them.
  const ungrounded = !CONDITION_WORDS.test(sentence.text) && sentence.requirements.some((requirement) => groundingProblem(requirement, sentence.text) !== undefined)
  if (!dropped && !ungrounded) return undefined
  const rules = named(sentence.text)
  if (!rules || rules.length === 0) return undefined
  return unusedLiterals(sentence.text, rules.flatMap(ruleStrings), enumWords).length === 0 ? rules : undefined
}

/**
 * "Suspended or Disabled doesn't cut it", "no exceptions, not even for scratch disks" on a
 * Terraform type whose schema is known: without a verb that asks, and with only names made from
 * its words that the schema lacks, the sentence remarks on the requirements around it. It is
 * read as a restatement, so a number or literal it writes that no rule uses still refuses.
 */
function remarksWithoutAttribute(sentence: Interpretation['sentences'][number]): boolean {
  if (sentence.catalogRules.length > 0 || sentence.requirements.length === 0 || MODAL_WORD.test(sentence.text)) return false
  return sentence.requirements.every((requirement) => unknownTerraformAttribute(requirement)?.guessed === true)
}

function becameText(sentence: Interpretation['sentences'][number], made: string[]): string {
  if (sentence.problem) return `not compiled: ${sentence.problem}`
  const named = [...new Set(sentence.catalogRules.flatMap((rule) => (rule.template ? [rule.template.id] : [])))]
  if (made.length > 0) return `rule${made.length === 1 ? '' : 's'} ${made.join(', ')}${named.length > 0 ? ` (named requirement ${named.join(', ')})` : ''}`
  return sentence.note ?? sentence.role
}

/**
 * The grounding gate and coverage for one requirement sentence: every key and value it compares
 * against is written in the text, and every number and literal it writes is used. A sentence
 * that fails either is not understood: its rules are dropped and the request refused.
 */
/** A sentence found to state a requirement that was not understood, with why. */
function notUnderstood(sentence: Interpretation['sentences'][number], problem: string): void {
  sentence.role = 'requirement'
  sentence.problem = problem
}

function checkSentence(sentence: Interpretation['sentences'][number], text: string, shared: readonly string[], enumWords: ReadonlySet<string>, values: ReadonlySet<string>): string | undefined {
  for (const requirement of sentence.requirements) {
    // "in any namespace": a quantifier read as a scope's value means no scope at all.
    requirement.conditions = requirement.conditions.filter((condition) => !quantifierOnly(condition.predicate))
    requirement.exemptions = requirement.exemptions.filter((condition) => !quantifierOnly(condition.predicate))
    // "skipped if the volume has a sizeLimit set": joined to the condition that picks the volume.
    const unpicked = joinPickedVolume(requirement)
    if (unpicked) return unpicked
    // The sentence as read may carry its list head ("the tag Environment" from a head and an item): both count as written.
    const ungrounded = groundingProblem(requirement, `${text}\n${sentence.text}`)
    if (ungrounded) return `${ungrounded.problem}; ${ungrounded.question}`
    const permits = permissionReadAsRequirement(sentence.text)
    if (permits) return `it says what may be done ("${permits}"), and was read as a requirement on everyone; what is required, and of which objects?`
    const counted = countedOtherNoun(sentence.text, requirement)
    if (counted) return `it counts ${counted}, and was read as the size of \`${requirement.values[0]?.variants[0]?.segments.join('.') ?? ''}\`; which field holds the ${counted}?`
    const kindValue = kindReadAsValue(requirement)
    if (kindValue) return `"${kindValue}" names a kind, and it was read as a value to compare with; which field and value are meant?`
    const unwrittenKey = bannedKeyNotWritten(requirement, `${text}\n${sentence.text}`)
    if (unwrittenKey) return unwrittenKey
    const unknownAttribute = unknownTerraformAttribute(requirement)
    if (unknownAttribute) return unknownAttribute.message
    const missingField = kindWithoutField(requirement)
    if (missingField) return `it judges ${missingField.kind} too, which has no \`${missingField.field}\`, so every ${missingField.kind} would fail; which field of a ${missingField.kind} is meant?`
    const compared = wholeCompared(requirement) ?? textComparedWithNumber(requirement) ?? forbidsWhatEveryObjectHas(requirement)
    if (compared) return compared
    // "whose path is /var/run/docker.sock" read on `hostPath` (an object): a condition that can never hold scopes the rule to nothing.
    const unfitting = [...requirement.conditions, ...requirement.exemptions].find((condition) => !fits(condition.value, condition.predicate))
    if (unfitting) return `its condition "${unfitting.text}" compares \`${unfitting.value.variants[0]?.segments.join('.') ?? unfitting.value.label}\`, which holds ${unfitting.value.type === 'array' ? 'a list' : 'an object'}, with a single value; which field inside it is meant?`
    const otherUses = otherUsesOfKind(sentence.text, requirement)
    if (otherUses.length > 0) return `it forbids one way a pod uses it, and it is also used through ${otherUses.map((path) => `\`${path}\``).join(', ')}; which of them are meant?`
    const qualifier = droppedQualifier(sentence.text, requirement)
    if (qualifier) return `it forbids only what is "${qualifier}", and that was not read: the rule would forbid every value; which field and value narrow it?`
    const typed = droppedValueType(sentence.text, requirement)
    if (typed) return `it forbids only "${typed}", and was read as forbidding the field whatever its value; how is such a value told apart?`
    const doing = droppedDoing(sentence.text, requirement)
    if (doing) return `it forbids only what "${doing}", and that was not read: the rule would forbid every one; which field and value narrow it?`
    const narrowing = droppedSubjectValue(sentence.text, requirement, values, enumWords)
    if (narrowing) return `it is about what is "${narrowing}" only, and that was not read: the rule would judge every one; which field must be "${narrowing}"?`
    const clusterScoped = namespaceOfClusterScoped(requirement)
    if (clusterScoped) return `"${clusterScoped.said}" was read as a namespace, and a ${clusterScoped.kind} has none: the narrowing would never hold; which field and value decide it?`
    // "Pods which set the annotation X must set it to `true`": the narrowing is X being there, which a rule letting an absent X pass reads.
    const narrowedByPresence = requirement.missing === 'pass' && requirement.values.some((ref) => new RegExp(String.raw`\b(?:which|that|who)\s+(?:sets?|has|have|carry|carries|defines?|uses?)\b[^,;]*${escapeRegex(ref.variants[0]?.segments.at(-1) ?? ref.label)}`, 'i').test(sentence.text))
    const relative = droppedRelativeQualifier(sentence.text, requirement.conditions.length > 0 || requirement.exemptions.length > 0 || narrowedByPresence)
    if (relative) return `it is about what is "${relative}" only, and no condition was read from that: the rule would judge every one; which field and value decide it?`
    const exception = unreadException(sentence.text, requirement)
    if (exception) return `it takes out what is "${exception}", and no exemption was read from that: the rule would demand it there too; which field and value (or name, namespace, label) mark what is exempt?`
  }
  // "Only exemption is stuff running in kube-system, ... need hostNetwork" read as a requirement: the exemption must be on what it became.
  const ownScopes = [
    ...sentence.requirements.flatMap((requirement) => [...requirement.conditions, ...requirement.exemptions].flatMap((scope) => [scope.text, ...scope.value.variants.flatMap((variant) => variant.segments)])),
    ...sentence.catalogRules.flatMap((rule) => [...(rule.match?.namespaces ?? []), ...(rule.match?.excludeNamespaces ?? []), ...(rule.match?.conditions ?? []).map((condition) => condition.expression)]),
  ]
  const exempts = exemptionUnread(sentence.text, ownScopes)
  if (exempts) return `it says what is "${exempts}", and what it became exempts nothing; which field and value (or name, namespace, label) mark what is exempt?`
  const unjudged = unjudgedSubjectKinds(sentence.text, sentence.requirements, sentence.catalogRules)
  // The same requirement on each other kind named, where its fields have one namesake there.
  const others = unjudged.length > 0 && sentence.catalogRules.length === 0 ? forOtherKinds(sentence.requirements, unjudged) : undefined
  if (others) sentence.requirements.push(...others)
  else if (unjudged.length > 0) return `it names ${unjudged.join(' and ')} as what must comply, and no rule read from it judges ${unjudged.length === 1 ? 'that kind' : 'those kinds'}; which field of ${unjudged.length === 1 ? 'it' : 'each'} must be checked, and how?`
  const used = [...sentence.requirements.flatMap(requirementStrings), ...sentence.catalogRules.flatMap(ruleStrings), ...shared]
  const unreadFields = fieldNamesUnused(sentence.text, used)
  if (unreadFields.length > 0) return `it names ${unreadFields.map((name) => `\`${name}\``).join(', ')} but no rule read from it reads ${unreadFields.length === 1 ? 'it' : 'them'}; what must ${unreadFields.length === 1 ? 'it' : 'each'} be, and how?`
  const unused = unusedLiterals(sentence.text, used, enumWords)
  if (unused.length > 0) {
    const words = unused.map((word) => `"${word}"`).join(', ')
    return `it writes ${words} but no rule read from it uses ${unused.length === 1 ? 'it' : 'them'}; which field must ${unused.length === 1 ? 'it' : 'each'} be checked against, and how?`
  }
  // "an email address at acme.io" read as any email: an unquoted domain or path the rules drop narrows what they ask.
  const unquoted = unquotedValuesUnused(sentence.text, [...used, ...sentence.requirements.map((requirement) => requirement.sentence)].filter((item) => item !== sentence.text), true)
  if (unquoted.length > 0) return `it writes ${unquoted.map((word) => `"${word}"`).join(', ')} but no rule read from it uses ${unquoted.length === 1 ? 'it' : 'them'}; which field must ${unquoted.length === 1 ? 'it' : 'each'} be checked against, and how?`
  return undefined
}

/**
 * A sentence read as restating the requirements around it ("be at least 64Mi" after a clause the
 * catalog took, "cannot be more than 2Gi") writes a number or literal no rule uses: it adds a
 * bound nothing checks, so the instruction is not understood rather than read without it.
 */
/**
 * The field names a sentence writes as names (`source.region`, `max_backoff`, `runAsUser`; not in
 * an example or a default) that nothing read from the instruction reads: coverage for fields as
 * for numbers and literals.
 */
/** "in tsconfig.json", "the values.yaml": a file the document is, not a field in it. */
const FILE_NAME = /\.(?:json|ya?ml|toml|tf|tfvars|hcl|js|mjs|ts|md|txt|xml|ini|cfg|conf|lock|env|properties)$/i

function fieldNamesUnused(text: string, used: readonly string[]): string[] {
  const haystack = used.map((item) => item.toLowerCase())
  const read = (token: string): boolean => {
    const leaf = (pathSegments(token).filter((segment) => segment !== '[]').at(-1) ?? token).toLowerCase()
    return haystack.some((item) => item.includes(leaf))
  }
  const names = codeTokens(text).filter((token) => !/[:/"']/.test(token.token) && !FILE_NAME.test(token.token) && !/^(?:true|false|null)$/i.test(token.token) && !insideAside(text, token.index))
  return [...new Set(names.map((token) => token.token))].filter((token) => !read(token))
}

function restatesNothingNew(text: string, used: readonly string[], enumWords: ReadonlySet<string>): string | undefined {
  // "management block with auto_repair and auto_upgrade both true": a field written as a name that no rule reads is new content.
  const literals = unusedLiterals(text, used, enumWords)
  const unreadFields = fieldNamesUnused(text, used).filter((token) => !literals.includes(token))
  // "Secrets of type kubernetes.io/service-account-token are banned": an unquoted value no rule uses is new content too.
  const unquoted = unquotedValuesUnused(text, used).filter((token) => !literals.includes(token) && !unreadFields.includes(token))
  const unused = [...literals, ...unreadFields, ...unquoted]
  if (unused.length === 0) return undefined
  const words = unused.map((word) => `"${word}"`).join(', ')
  return `it writes ${words}, which no rule read from the instruction uses; which field must ${unused.length === 1 ? 'it' : 'each'} be checked against, and how?`
}

/**
 * "containers have memory requests equal to limits" read as `spec.containers` equal to
 * `resources.limits`: one value compared with another is a comparison of two scalars. A list or an
 * object on either side means the words that named the scalar were lost, so the sentence refuses.
 */
function wholeCompared(requirement: Requirement): string | undefined {
  if (requirement.predicate.op !== 'compareField') return undefined
  // "liveness and readiness probes must not be equal": two objects of one shape compared whole, as equal or not.
  const { other, cmp } = requirement.predicate
  if ((cmp === '==' || cmp === '!=') && (other.type === 'object' || other.type === 'map') && requirement.values.every((ref) => ref.type === other.type)) return undefined
  const whole = [...requirement.values, requirement.predicate.other].find((ref) => ref.type === 'array' || ref.type === 'object' || ref.type === 'map')
  if (!whole) return undefined
  return `it compares \`${whole.variants[0]?.segments.join('.') ?? whole.label}\`, a ${whole.type === 'array' ? 'list' : 'map of values'}, with another field; which single value of it must be compared, and with which?`
}

/**
 * "prod Deployments need at least 2 replicas" read as `metadata.namespace` at least 2: a Kubernetes
 * field the schema says holds text is never compared with a number; the words that named the
 * numeric field were lost.
 */
function textComparedWithNumber(requirement: Requirement): string | undefined {
  if (requirement.subject.platform !== 'kubernetes') return undefined
  const pairs = [
    ...requirement.values.map((ref) => ({ ref, predicate: requirement.predicate })),
    ...[...requirement.conditions, ...requirement.exemptions].map((condition) => ({ ref: condition.value, predicate: condition.predicate })),
  ]
  const text = pairs.find(({ ref, predicate }) => ref.type === 'string' && predicate.op === 'compare' && predicate.bounds.every((bound) => typeof bound.value === 'number'))
  if (!text) return undefined
  return `it compares \`${text.ref.variants[0]?.segments.join('.') ?? text.ref.label}\`, which holds text, with a number; which numeric field is meant?`
}

function quantifierOnly(predicate: Requirement['predicate']): boolean {
  const values = predicate.op === 'equals' ? [predicate.value] : predicate.op === 'oneOf' ? predicate.values : []
  return values.length > 0 && values.every((value) => typeof value === 'string' && /^(?:any|all|every|each)$/i.test(value))
}

/** "at most 4", "no more than 2", "between 1 and 5": a bound with its number. */
const BOUND_CUE = /\b(?:at (?:most|least)|no (?:more|less|fewer|longer|shorter) than|up to|(?:more|less|fewer|longer|shorter) than|between|min(?:imum)?|max(?:imum)?)\b[^.;]{0,24}?\d/i
