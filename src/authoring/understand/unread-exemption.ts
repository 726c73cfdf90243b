/**
 * "Recording rules are exempt from all of this", "Jobs run to completion, no probes needed",
 * "StorageClasses for other provisioners are out of scope", "DaemonSets in kube-system are the one
 * exception": a sentence that takes objects out of
 * the requirements. When nothing reads it as an exemption (it ends up explaining or restating),
 * the rules would judge the exempt objects too, so it refuses instead of being passed over.
 */
const EXEMPTION_SAID = /\b(?:are|is|get|gets|being)\s+(?:exempt(?:ed)?|excluded|skipped|ignored|not (?:covered|checked|affected|judged|in scope)|out of scope)\b|\bexempt from\b|\bno\s+(?:[\w-]+\s+){0,2}(?:needed|required)\b|\bdo(?:es)?(?:n'?t| not)\s+(?:even\s+)?need\b|\bnever need\b|\bnot (?:covered|in scope)\b|\b(?:only |one |sole |single )?(?:exemptions?|exceptions?)\s+(?:is|are|where|when|for)\b|\b(?:are|is)\s+(?:the\s+|an?\s+)?(?:only\s+|one\s+|sole\s+|single\s+)?(?:exemptions?|exceptions?)\b/i

/** "Two exceptions where a version tag is fine: ...": said to be exceptions in so many words (with `namedOnly`, for a sentence that permits). */
const EXCEPTION_NAMED = /\b(?:only |one |sole |single |two |three )?(?:exemptions?|exceptions?)\s+(?:is|are|where|when|for)\b/i

/** "Other resource types are ignored": what the rules never select in the first place. */
const OTHERS_UNSELECTED = /^\W*(?:all\s+|any\s+)?other\s+(?:resource\s+|object\s+|document\s+)?(?:types?|kinds?|resources?|objects?|documents?|files?)\b/i

const FILLER = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'in', 'on', 'for', 'with', 'that', 'which', 'whose', 'are', 'is', 'all', 'any', 'every', 'each', 'this', 'these', 'those', 'ones', 'from', 'it', 'them', 'they'])

/**
 * The words that exempt, or undefined when the sentence exempts nothing, exempts only what is not
 * selected anyway, or names what a condition or exemption already read is about ("Single-replica
 * deployments are exempt" beside "when `spec.replicas` is greater than one").
 */
export function exemptionUnread(text: string, readScopes: readonly string[], namedOnly = false): string | undefined {
  const match = (namedOnly ? EXCEPTION_NAMED : EXEMPTION_SAID).exec(text)
  if (!match) return undefined
  const subject = text.slice(0, match.index)
  if (OTHERS_UNSELECTED.test(subject)) return undefined
  const scopeWords = new Set(readScopes.flatMap(stems))
  if (stems(subject).some((word) => !FILLER.has(word) && scopeWords.has(word))) return undefined
  return match[0]
}

function stems(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2 && !FILLER.has(word))
    .map((word) => word.replace(/s$/, ''))
}
