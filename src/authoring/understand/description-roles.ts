import { normalizeInstruction } from './segment-instruction.js'
import { statedAsRequirement } from './stated-requirement.js'
import { flaggedWhen } from './flagged-when.js'

/**
 * Policy descriptions as people publish them: a title, background, rationale and notes around
 * one operative sentence ("This policy ensures / validates / requires / prevents ..."). When a
 * text has such a sentence, it (with its direct continuations and the sentences that say what is
 * skipped) is the requirement; everything else is context and never becomes a rule. A text
 * without one is read as written: every sentence there may be a requirement.
 */
export interface DescriptionRoles {
  /** The sentences to read for requirements, in order, as one text. */
  requirementText: string
  /** The sentences set aside, with why. */
  context: Array<{ text: string; role: 'heading' | 'rationale'; note: string }>
  /** Sentences kept because they narrow the requirement ("... are skipped"): each must become a modifier. */
  scopes: string[]
}

const ACTING_VERB = String.raw`(?:ensures?|validates?|requires?|prevents?|blocks?|checks?|enforces?|forbids?|disallows?|prohibits?|denies|deny|rejects?|restricts?|verifies|verify|mandates?|limits?|audits?|flags?|disables?|only allows?)`

/**
 * "This policy ensures ...", "This policy, requiring Kubernetes v1.19 or later, ensures ...",
 * "This sample ensures ...", "It checks ...": the sentence that says what the policy does.
 */
const OPERATIVE = new RegExp(String.raw`^(?:this|the)\s+(?:policy|sample|rule|validation|check)(?:\s*,[^,]{1,80},)?\s+(?:also\s+)?(?:${ACTING_VERB}|(?:illustrates|demonstrates|shows)\s+how\s+to\s+\w+)\b`, 'i')
const CONTINUATION = new RegExp(String.raw`^(?:(?:in addition|additionally|also|furthermore)\b,?|it\s+(?:also\s+)?${ACTING_VERB}\b)`, 'i')

/** What a policy needs to run, where to read more, how it was written: never a requirement on documents. */
const NOTE = /^(?:note\b|see\b|for more (?:information|details)|please read|refer to|https?:\/\/)|\brequires? (?:kyverno|kubernetes)\b|\bto function properly\b|\bis mutually exclusive\b/i

/** A sentence saying which documents the requirement leaves alone: it narrows it and must be read. */
const SKIPS = /\b(?:is|are|will be|gets?|get)\s+(?:skipped|exempt(?:ed)?|excluded|ignored|not (?:checked|validated|evaluated))\b|\bexempt(?:ed|s)? from\b/i

/** "... should be followed if Pods do not need to speak to the API server": when the practice applies, which narrows it too. */
const APPLIES_WHEN = /\b(?:should|must|can|may|is to|are to)\s+(?:only\s+)?be\s+(?:followed|applied|used|enforced|adopted)\s+(?:only\s+)?(?:if|when|where|unless|for (?:pods|workloads|containers|namespaces|clusters) that)\b/i

/** "(see https://...)", ", requiring Kubernetes v1.19 or later,": asides about versions and links inside the operative sentence. */
const VERSION_ASIDE = /\s*,\s*(?:requiring|which requires|available (?:in|from|since)|introduced in|since)\s+[^,]*\bv?\d+(?:\.\d+)+\+?[^,]*,\s*/gi
const LINK_ASIDE = /\s*\((?:see\s+)?https?:\/\/[^)]*\)/gi

export function describeRoles(instruction: string): DescriptionRoles | undefined {
  const normalized = normalizeInstruction(instruction)
  // Bullet lists and paragraphs are instructions written as instructions, not published descriptions.
  if (/\n\s*\S/.test(normalized.trim())) return undefined
  const sentences = splitDescription(normalized.trim())
  if (!sentences.some((sentence) => OPERATIVE.test(sentence))) return undefined
  const kept: string[] = []
  const context: DescriptionRoles['context'] = []
  const scopes: string[] = []
  let previousKept = false
  sentences.forEach((sentence, index) => {
    const operative = OPERATIVE.test(sentence) && !NOTE.test(sentence)
    const continuation = previousKept && CONTINUATION.test(sentence) && !NOTE.test(sentence)
    if (operative || continuation) {
      kept.push(cleanOperative(sentence))
      previousKept = true
      return
    }
    previousKept = false
    if ((SKIPS.test(sentence) || APPLIES_WHEN.test(sentence)) && !NOTE.test(sentence)) {
      kept.push(sentence)
      scopes.push(sentence)
      return
    }
    if (index === 0 && sentences.length > 1) context.push({ text: sentence, role: 'heading', note: 'the title; the operative sentence says what is required' })
    else context.push({ text: sentence, role: 'rationale', note: NOTE.test(sentence) ? 'a note about the policy, not a requirement on documents' : 'background; the operative sentence says what is required' })
  })
  return { requirementText: kept.join(' '), context, scopes }
}

/** "This policy ensures that X": what follows is the requirement, stated. */
const ENSURES = /^(?:this|the)\s+(?:policy|sample|rule|validation|check)\s+(?:also\s+)?(?:ensures?|validates?|requires?|checks?|enforces?|verifies|mandates?|(?:illustrates|demonstrates|shows)\s+how\s+to\s+(?:ensure|require|enforce|validate|check))\s+(?:that\b,?\s*)?(?=\S)/i
/** "This policy prevents X", "restricts the use of X": X is what is not allowed ("restricts X to Y" is not this: it says what is allowed). */
const PREVENTS = /^(?:this|the)\s+(?:policy|sample|rule|validation|check)\s+(?:also\s+)?(?:prevents?|blocks?|forbids?|disallows?|prohibits?|denies|rejects?|disables?|restricts?\s+(?:the\s+)?(?:use|usage)\s+of)\s+(?=\S)/i

/** The operative sentence without its asides, its lead ("This policy ensures that") turned into the requirement it states. */
function cleanOperative(sentence: string): string {
  const cleaned = sentence.replace(LINK_ASIDE, '').replace(VERSION_ASIDE, ' ').replace(/\s+/g, ' ').trim()
  const flagged = flaggedWhen(cleaned)
  if (flagged) return flagged
  const ensures = ENSURES.exec(cleaned)
  if (ensures) return capitalize(statedAsRequirement(whatIsEnsured(cleaned.slice(ensures[0].length))))
  const prevents = PREVENTS.exec(cleaned)
  if (prevents) return `Disallow ${cleaned.slice(prevents[0].length)}`
  return cleaned
}

/**
 * "checks every container to ensure that if ...", "checks all Pods to ensure they have ...",
 * "checks to ensure that all images use ...": what is checked, then the requirement in full; a
 * pronoun there stands for what is checked.
 */
const CHECKED_TO_ENSURE = /^(?:((?:every|each|all|any)\s+[\w-]+(?:\s+[\w-]+)?)\s+)?to\s+(?:ensure|make sure|verify|validate|check)\s+(?:that\b,?\s*)?(?=\S)/i

function whatIsEnsured(statement: string): string {
  const checked = CHECKED_TO_ENSURE.exec(statement)
  if (!checked) return statement
  const rest = statement.slice(checked[0].length)
  const subject = checked[1]
  return subject !== undefined && /^(?:they|it)\b/i.test(rest) ? rest.replace(/^(?:they|it)\b/i, subject) : rest
}

function capitalize(text: string): string {
  return /^[a-z]+\s/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

/**
 * Sentences of one paragraph: ends at ". ", "! ", "? " before a capital, a quote or a code span,
 * never inside backticks, after "e.g." / "i.e." or inside a URL.
 */
export function splitDescription(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  let inCode = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? ''
    if (char === '`') inCode = !inCode
    if (inCode || !/[.!?]/.test(char)) continue
    const rest = text.slice(index + 1)
    if (!/^\s+[A-Z"'`(]/.test(rest) && rest.trim() !== '') continue
    const candidate = text.slice(start, index + 1)
    if (/\b(?:e\.g|i\.e|etc|vs|cf)\.$/i.test(candidate)) continue
    sentences.push(candidate.trim())
    start = index + 1
  }
  const tail = text.slice(start).trim()
  if (tail !== '') sentences.push(tail)
  return sentences.filter((sentence) => /[A-Za-z0-9]/.test(sentence))
}
