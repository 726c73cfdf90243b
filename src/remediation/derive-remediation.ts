/**
 * Remediation text for rules whose author wrote none (imported policies, rules written by hand),
 * derived from what the rule does say about itself. Policy messages state the problem ("Privileged
 * mode is disallowed. The fields ... must be unset or set to `false`."); a remediation tells the
 * reader what to do, so the common phrasings are turned into an imperative sentence ("Unset ...,
 * or set them to `false`."). Deterministic and offline: the same rule always gets the same text.
 */

/** What a rule says about itself, each optional; the first that yields a sentence wins. */
export interface RuleTexts {
  /** The rule's own message (Kyverno `validate.message`). */
  message?: string
  /** The static messages of its CEL validations, in order. */
  celMessages?: readonly (string | undefined)[]
  /** The rule's (or its policy's) description. */
  description?: string
  /** The CEL expressions, the last resort when nothing else is written down. */
  expressions?: readonly string[]
}

/** A rewrite of one sentence; `names fields` rewrites say exactly which fields to change and win over the rest. */
interface Rewrite {
  text: string
  namesFields: boolean
}

export function deriveRemediation(texts: RuleTexts): string {
  const message = clean(texts.message)
  const fromMessage = message === '' ? undefined : rewriteText(message)
  if (fromMessage) return fromMessage
  // Each validation checks something else: the remediation covers every one that says what.
  const celMessages = [...new Set((texts.celMessages ?? []).map(clean).filter((text) => text !== ''))]
  const fromValidations = celMessages.flatMap((text) => rewriteText(text) ?? [])
  if (fromValidations.length > 0) return [...new Set(fromValidations)].join(' ')
  const written = [message, ...celMessages].filter((text) => text !== '')
  const description = clean(texts.description)
  if (description !== '') {
    const rewrite = rewriteDescription(description)
    if (rewrite) return rewrite
  }
  const first = written[0] ?? (description === '' ? undefined : firstSentence(description))
  if (first !== undefined) return `Change the resource to comply: ${withPeriod(first)}`
  const expressions = (texts.expressions ?? []).map(clean).filter((text) => text !== '')
  if (expressions.length > 0) return `Change the resource so that ${expressions.map((e) => `\`${e}\``).join(' and ')} ${expressions.length > 1 ? 'hold' : 'holds'}.`
  return 'Change the resource so that it passes this rule.'
}

/** The best rewrite of any sentence of the text: one naming fields if there is one, else the first. */
function rewriteText(text: string): string | undefined {
  const rewrites = sentencesOf(text).flatMap((sentence) => {
    const rewrite = rewriteSentence(sentence)
    return rewrite ? [rewrite] : []
  })
  return (rewrites.find((rewrite) => rewrite.namesFields) ?? rewrites[0])?.text
}

/** Descriptions explain the why at length; "This policy ensures X" is the sentence that says what to do. */
function rewriteDescription(text: string): string | undefined {
  for (const sentence of sentencesOf(text)) {
    const purpose = /^this (?:policy|rule) (?:ensures|requires|checks|validates|verifies|makes sure)(?: that)? (.+)$/i.exec(sentence)
    if (purpose?.[1]) return `Make sure ${lowerFirst(purpose[1])}.`
  }
  return rewriteText(text)
}

function clean(text: string | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim()
  // YAML authors sometimes quote inside a block scalar: the quotes are not part of the message.
  return /^"[^"]*"$/.test(flat) ? flat.slice(1, -1).trim() : flat
}

/** Sentences end at . ! ? followed by a capital, a quote or a backtick: `spec.containers` and "e.g. 'x'" are not ends. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<!\b(?:e\.g|i\.e|etc|vs)\.)(?<=[.!?])\s+(?=[A-Z`"'])/)
    .map((sentence) => sentence.trim().replace(/[.!]+$/, '').trim())
    .filter((sentence) => sentence !== '')
}

function firstSentence(text: string): string {
  return sentencesOf(text)[0] ?? text
}

function withPeriod(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * "Pods" -> "pods", "The" -> "the", "Privileged mode" -> "privileged mode"; identifiers
 * ("ServiceAccounts", "TLS", "DISABLE_OPA") and names ("Helm Tiller") keep their case.
 */
function lowerFirst(text: string): string {
  const words = /^([A-Z][a-z]*)\b(?: (\S+))?/.exec(text)
  if (!words?.[1]) return text
  const determiner = /^(?:The|A|An|All|Any|Every|Each|Some|No|Only|This|These|Those)$/.test(words[1])
  const nameFollows = words[2] !== undefined && /^[A-Z]/.test(words[2])
  if (!determiner && (words[1].length === 1 || nameFollows)) return text
  return text.charAt(0).toLowerCase() + text.slice(1)
}

/** "The fields a, b and c" -> "a, b and c": the field names are what the reader acts on. */
function fieldsOf(subject: string): { fields: string; plural: boolean } {
  const stripped = subject.replace(/^(?:the )?fields? /i, '').replace(/,$/, '').trim()
  const plural = /^(?:the )?fields /i.test(subject) || /,| and /.test(stripped)
  return { fields: stripped, plural }
}

/** A subject that ends in a conjunction or holds a verb is a clause, not a noun phrase: rewriting it would garble it. */
function isNounPhrase(subject: string): boolean {
  return subject !== '' && !/\b(?:and|or|but)$/i.test(subject) && !/\b(?:is|are|was|were|be|has|have|does|do|must|should|can|may|will|would|could)\b/i.test(subject)
}

/** A complement that holds another requirement ("true, or all containers must ...") is two sentences in one. */
function isSimple(complement: string): boolean {
  return !/\b(?:must|should|cannot)\b/i.test(complement)
}

/** A literal value: what "must be" it reads best as "set to". */
const LITERAL = /^(?:`[^`]+`|'[^']+'|"[^"]+"|-?\d+(?:\.\d+)?|true|false)$/i

/** Past participles and prepositions read after "be": "Make volumes be mounted", "Make ports be between". */
function needsBe(complement: string): boolean {
  const word = (complement.split(' ')[0] ?? '').toLowerCase().replace(/[^a-z]+$/, '')
  return /(?:ed|en)$/.test(word) || ['set', 'kept', 'built', 'run', 'between', 'in', 'within', 'at', 'from', 'of', 'one', 'a', 'an', 'the'].includes(word)
}

type Rule = (sentence: string) => Rewrite | undefined

/**
 * One rewrite per common phrasing, most specific first. `\s+must\s+` style patterns are lazy on
 * the subject, so the subject ends at the first modal verb.
 */
const RULES: readonly Rule[] = [
  // "If X, Y must Z": the condition stays in front of the rewritten requirement.
  (sentence) => {
    const conditional = /^((?:if|when|unless|where) [^,]+), (.+)$/i.exec(sentence)
    if (!conditional?.[1] || !conditional[2]) return undefined
    const inner = rewriteSentence(conditional[2])
    return inner ? { text: `${upperFirst(conditional[1])}, ${lowerFirst(inner.text)}`, namesFields: inner.namesFields } : undefined
  },
  // "The fields A, B must be unset or set to `false`."
  (sentence) => {
    const match = /^(.+?),? must (?:either )?be (?:unset|undefined) or (?:be )?set to (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1]) || !isSimple(match[2])) return undefined
    const { fields, plural } = fieldsOf(match[1])
    return { text: `Unset ${fields}, or set ${plural ? 'them' : 'it'} to ${match[2]}.`, namesFields: true }
  },
  // "The field A must be unset or not use any other names than ..."
  (sentence) => {
    const match = /^(.+?),? must (?:either )?be (?:unset|undefined) or (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1]) || !isSimple(match[2])) return undefined
    const { fields, plural } = fieldsOf(match[1])
    return { text: `Unset ${fields}, or make ${plural ? 'them' : 'it'} ${match[2]}.`, namesFields: true }
  },
  // "The field A must be unset."
  (sentence) => {
    const match = /^(.+?),? must (?:either )?be (?:unset|undefined)$/i.exec(sentence)
    if (!match?.[1] || !isNounPhrase(match[1])) return undefined
    return { text: `Remove ${fieldsOf(match[1]).fields}.`, namesFields: true }
  },
  // "The field A must be set to B", "A must be either 'x' or 'y'".
  (sentence) => {
    const match = /^(.+?),? must (?:either )?be (?:set to )?(either .+|one of .+)$/i.exec(sentence) ?? /^(.+?),? must (?:either )?be set to (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1]) || !isSimple(match[2])) return undefined
    const value = match[2].replace(/^either /i, '')
    return { text: `Set ${lowerFirst(fieldsOf(match[1]).fields)} to ${value}.`, namesFields: /[.[]/.test(match[1]) }
  },
  // "All containers must set the securityContext.privileged field to `false` or unset the field."
  (sentence) => {
    const match = /^(.+?) must set (?:the )?(\S+?)(?: field)? to (.+?)(,? or unset (?:the|that) field)?$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !match[3] || !isNounPhrase(match[1]) || !isSimple(match[3])) return undefined
    return { text: `On ${lowerFirst(match[1])}, set ${match[2]} to ${match[3]}${match[4] ? ', or unset it' : ''}.`, namesFields: /[.[]/.test(match[2]) }
  },
  // "A must not be set to B", "A must not be set".
  (sentence) => {
    const match = /^(.+?) (?:must not|should not|may not|cannot|can not|can't) be set(?: to (.+))?$/i.exec(sentence)
    if (!match?.[1] || !isNounPhrase(match[1]) || !isSimple(match[2] ?? '')) return undefined
    const subject = lowerFirst(match[1])
    return { text: match[2] ? `Do not set ${subject} to ${match[2]}.` : `Remove ${subject}.`, namesFields: /[.[]/.test(match[1]) }
  },
  // "A must be defined", "A should be specified", "B should now be used".
  (sentence) => {
    const match = /^(.+?) (?:must|should)(?: now)? be (set|defined|specified|provided|present|used)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1])) return undefined
    const verb = { set: 'Set', defined: 'Define', specified: 'Specify', provided: 'Provide', present: 'Add', used: 'Use' }[match[2].toLowerCase()] ?? 'Set'
    return { text: `${verb} ${lowerFirst(match[1])}.`, namesFields: /[.[]/.test(match[1]) }
  },
  // "The label X is required and must match ...", "An image tag is required."
  (sentence) => {
    const match = /^(.+?) (?:is|are) required(?: and must (.+)| (.+))?$/i.exec(sentence)
    if (!match?.[1] || !isNounPhrase(match[1]) || !isSimple(`${match[2] ?? ''} ${match[3] ?? ''}`)) return undefined
    const subject = lowerFirst(match[1])
    const purpose = /^to (.+)$/.exec(match[3] ?? '')
    if (purpose?.[1]) return { text: `Make ${subject} ${purpose[1]}.`, namesFields: false }
    if (match[2]) return { text: `Add ${subject}; it must ${match[2]}.`, namesFields: false }
    return { text: `Add ${subject}${match[3] ? ` ${match[3]}` : ''}.`, namesFields: false }
  },
  // "Only the following types of volumes may be used: a, b", "Only Secrets beginning with `safe-` may be consumed in env".
  (sentence) => {
    const match = /^only (.+?) (?:may|can|are allowed to|is allowed to) be (\w+)(.*)$/i.exec(sentence)
    if (!match?.[1] || !match[2]) return undefined
    if (match[2].toLowerCase() === 'used') return { text: `Use only ${match[1]}${match[3] ?? ''}.`, namesFields: false }
    return { text: `Allow only ${match[1]} to be ${match[2]}${match[3] ?? ''}.`, namesFields: false }
  },
  // "hostPath volumes are confined to /data".
  (sentence) => {
    const match = /^(.+?) (?:is|are) (?:confined|limited|restricted) to (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1])) return undefined
    return { text: `Keep ${lowerFirst(match[1])} within ${match[2]}.`, namesFields: false }
  },
  // "The only permitted hostPorts are in the range 5000-6000", "The only approved annotations are a and b".
  (sentence) => {
    const match = /^the only (?:permitted|allowed|approved|accepted) (.+?) (?:is|are) (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2]) return undefined
    return /^(?:in|within|between|from) /i.test(match[2])
      ? { text: `Keep ${match[1]} ${match[2]}.`, namesFields: false }
      : { text: `Use only ${match[2]} as ${match[1]}.`, namesFields: false }
  },
  // "at most 5 replicas", "at least one container": terse ValidatingAdmissionPolicy messages.
  (sentence) => {
    const match = /^(?:at (?:least|most)|no more than|no fewer than|fewer than|more than|up to|between) .+$/i.exec(sentence)
    return match ? { text: `Use ${lowerFirst(match[0])}.`, namesFields: false } : undefined
  },
  // "Use of host ports is disallowed", "Privileged mode is not allowed", "Wildcards are not permitted as hosts".
  (sentence) => {
    const match =
      /^(.+?) (?:is|are) (?:disallowed|forbidden|prohibited|restricted|not allowed|not permitted|deprecated)(.*)$/i.exec(sentence) ??
      /^(.+?) (?:cannot|must not|may not|should not) be (?:used|allowed|permitted)(.*)$/i.exec(sentence)
    if (!match?.[1] || !isNounPhrase(match[1])) return undefined
    const rest = match[2] ?? ''
    // "... in sysctls values" qualifies what to avoid; "... and will be removed" is another statement.
    if (rest !== '' && (!/^ (?:in|on|for|as|at|to|from|with|without|within|inside|outside|under|unless|when|if)\b/.test(rest) || !isSimple(rest))) return undefined
    const use = /^use of (.+)$/i.exec(match[1])
    return { text: use?.[1] ? `Do not use ${use[1]}${rest}.` : `Avoid ${lowerFirst(match[1])}${rest}.`, namesFields: false }
  },
  // "Cannot use Flux v1 annotation", "No Secrets from env": the subject is the resource itself.
  (sentence) => {
    const cannot = /^(?:cannot|must not|do not) (.+)$/i.exec(sentence)
    if (cannot?.[1]) return { text: `Do not ${cannot[1]}.`, namesFields: false }
    const no = /^no (.+)$/i.exec(sentence)
    return no?.[1] && isNounPhrase(no[1]) ? { text: `Avoid ${lowerFirst(no[1])}.`, namesFields: false } : undefined
  },
  // "Containers may not define CPU limits", "The serviceAccountName field may not be changed once created".
  (sentence) => {
    const match = /^(.+?) (?:must not|may not|cannot|can not|should not|must never|can't) (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1]) || !isSimple(match[2])) return undefined
    return { text: `Do not let ${lowerFirst(match[1])} ${match[2]}.`, namesFields: false }
  },
  // "The value of maxUnavailable must be greater than zero", "All hostPath volumes must be mounted as readOnly".
  (sentence) => {
    const match = /^(.+?) (?:must|should) be (.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1]) || !isSimple(match[2])) return undefined
    if (LITERAL.test(match[2])) return { text: `Set ${lowerFirst(match[1])} to ${match[2]}.`, namesFields: /[.[]/.test(match[1]) }
    return { text: `Make ${lowerFirst(match[1])} ${needsBe(match[2]) ? 'be ' : ''}${match[2]}.`, namesFields: false }
  },
  // "Containers must drop `ALL` capabilities", "Pods must define the priorityClassName field".
  (sentence) => {
    const match = /^(.+?) (?:must|should) (?!not\b)(.+)$/i.exec(sentence)
    if (!match?.[1] || !match[2] || !isNounPhrase(match[1]) || !isSimple(match[2])) return undefined
    return { text: `Make ${lowerFirst(match[1])} ${match[2]}.`, namesFields: false }
  },
]

function rewriteSentence(sentence: string): Rewrite | undefined {
  for (const rule of RULES) {
    const rewrite = rule(sentence)
    if (rewrite) return rewrite
  }
  return undefined
}
