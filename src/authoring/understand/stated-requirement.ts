/**
 * An operative sentence states what a compliant document does ("This policy requires that a Pod
 * defines the priorityClassName field", "validates that the annotation `x` is specified"); once
 * its lead is set aside, that statement is the requirement. Said with a modal it reads as one:
 * "a Pod must define the priorityClassName field", "the annotation `x` must be specified". A
 * statement that already has a modal ("should be no higher than") is left as written. After "requires
 * that" English may put the bare verb ("that the accessModes be set to X", "that a Pod not use Y"):
 * the modal goes before it.
 */
const MODAL = /\b(?:must|mustn't|should|shouldn't|shall|has to|have to|needs? to|may|can|cannot|can't|is required to|are required to|will|won't)\b/i

const RELATIVE_BEFORE = /\b(?:which|that|who)$/i

/** Verbs a description uses for what a document does, in their base form. */
const VERBS = 'define specify set declare use provide contain include carry mount run reference request expose match drop add pull list configure enable disable pin refer point'.split(' ')

export function statedAsRequirement(statement: string): string {
  // Words inside code spans and quotes are values and names, never the verb.
  const masked = statement.replace(/`[^`]*`|"[^"]*"/g, (span) => 'x'.repeat(span.length))
  if (MODAL.test(masked)) return statement
  const candidates: Array<{ index: number; length: number; replacement: string }> = []
  // "Pods which set the annotation X set it to `true`": the verb of a relative clause is not the statement's.
  const mainVerb = (pattern: RegExp): RegExpExecArray | undefined => [...masked.matchAll(new RegExp(pattern.source, 'gi'))].find((match) => !RELATIVE_BEFORE.test(masked.slice(0, match.index)))
  const be = mainVerb(/\s(is|are)(\s+not)?(?=\s)/)
  if (be) candidates.push({ index: be.index, length: be[0].length, replacement: be[2] ? ' must not be' : ' must be' })
  // "that the accessModes be set to X", "that containers not be privileged": the mandative subjunctive.
  const subjunctive = mainVerb(/(?<!\bto)\s(not\s+)?be(?=\s)/)
  if (subjunctive) candidates.push({ index: subjunctive.index, length: subjunctive[0].length, replacement: subjunctive[1] ? ' must not be' : ' must be' })
  const have = mainVerb(/\s(has|have)(?=\s)/)
  if (have) candidates.push({ index: have.index, length: have[0].length, replacement: ' must have' })
  const doesNot = mainVerb(/\s(?:does not|do not|doesn't|don't)\s+(\w+)(?=\s)/)
  if (doesNot?.[1]) candidates.push({ index: doesNot.index, length: doesNot[0].length, replacement: ` must not ${doesNot[1]}` })
  // "that all X not use Y": the subjunctive's "not" belongs to the modal, "must not use".
  for (const match of masked.matchAll(/\s((?:not\s+)?)((?:[a-z]+ly\s+)?)([a-z]+)(?=\s)/gi)) {
    const base = baseForm(match[3] ?? '')
    if (base === undefined || match.index === 0 || RELATIVE_BEFORE.test(masked.slice(0, match.index))) continue
    candidates.push({ index: match.index, length: match[0].length, replacement: ` must ${match[1] ?? ''}${match[2] ?? ''}${base}` })
    break
  }
  const first = candidates.filter((candidate) => candidate.index > 0).sort((left, right) => left.index - right.index)[0]
  if (!first) return statement
  return statement.slice(0, first.index) + first.replacement + statement.slice(first.index + first.length)
}

/** "defines" → "define", "specifies" → "specify", "matches" → "match", "set" → "set"; undefined for any other word. */
function baseForm(word: string): string | undefined {
  const lower = word.toLowerCase()
  const forms = [lower, lower.replace(/ies$/, 'y'), lower.replace(/(?<=(?:ch|sh|x|ss))es$/, ''), lower.replace(/s$/, '')]
  return forms.find((form) => VERBS.includes(form))
}
