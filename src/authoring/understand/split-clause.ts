import { FORMAT_NAME } from './read-predicate.js'

/**
 * Splits a sentence into the clauses that each state a requirement: "storage_encrypted must be
 * true, publicly_accessible must be false, and backup_retention_period has to be at least 7
 * days" is three; "hostNetwork, hostPID and hostIPC all have to be false" is one (the names
 * before the verb share it).
 */

const PREDICATE = /\b(must|mustn'?t|has to|have to|needs? to|needs|should|shall|can'?t|cannot|may not|may|is|are|isn'?t|aren'?t|at least|at most|between|one of|limited to|required|mandatory|not allowed|no more than|set to|gets?|be|max|min|maximum|minimum|up to|no|never|disallow|forbid|ban|block|deny)\b|[=:]\s/i

/** "version as semver", "an expires date formatted YYYY-MM-DD": a format is a predicate too. */
const NAMES_A_FORMAT = new RegExp(String.raw`\b(?:as|in) ${FORMAT_NAME}|\bformatted\b`, 'i')

/** "min_tls_version TLS1_2": a checklist entry, a field name and its value, is a clause of its own. */
const FIELD_AND_VALUE = /^\s*[`"']?[a-z][a-z0-9]*(?:[_.][a-z0-9_.]+|[A-Z][A-Za-z0-9]*)[`"']?\s+[`"']?[\w.:/@%-]+[`"']?\s*[.!]?$/

const SPLIT = /\s*(?:,\s*(?:and|but|while|plus|so)?\s+|;\s*|\s+-\s+|\s+and\s+(?=(?:the\s+|its\s+|their\s+|every\s+|each\s+|all\s+)?[`"']?[\w.[\]*/-]+[`"']?\s+(?:must|has to|have to|needs? to|should|can'?t|cannot|may not|is|are|isn'?t|aren'?t|at least|at most|no more than|no less than|no fewer than)\b)|(?<=\b(?:required|mandatory|set|present|defined|an? [a-z]+))\s+and\s+(?=(?:also\s+)?(?:must|has to|have to|needs? to|should|shall|can'?t|cannot|may not)\b)|\s+and\s+(?=[`"']?[A-Za-z][\w.-]*[`"']?:\s)|\s+and\s+(?=(?:every|each|all|any)\s+\w+(?:\s+\w+){0,3}\s+(?:must|has to|have to|needs? to|should|can'?t|cannot|may not)\b)|(?<!\b(?:nothing|none|all|anything|everything|no one|nobody))\s+but\s+)/i

/** A clause that ends on a value ("role must be viewer") followed by "editor or admin" is one list of values, not names for the next verb. */
const ENDS_ON_VALUE = /(?:\b(?:be|is|are|of|either|to|equals?)|:)\s+[`"']?[\w./:@*-]+[`"']?$/i
const ALTERNATIVE_VALUES = /^(?:[`"']?[\w./:@*-]+[`"']?\s+(?:or|and)\s+)?[`"']?[\w./:@*-]+[`"']?$/i

function continuesValueList(previous: string | undefined, pending: string[]): boolean {
  if (previous === undefined || !ENDS_ON_VALUE.test(previous)) return false
  const last = pending[pending.length - 1] ?? ''
  return /\s(?:or|and)\s/i.test(last) && pending.every((item) => ALTERNATIVE_VALUES.test(item))
}

export function splitClause(sentence: string): string[] {
  const pieces: string[] = []
  let rest = sentence
  for (let guard = 0; guard < 40; guard += 1) {
    const match = SPLIT.exec(rest)
    if (!match) break
    pieces.push(rest.slice(0, match.index))
    rest = rest.slice(match.index + match[0].length)
  }
  pieces.push(rest)
  // Pieces without a predicate of their own belong to a neighbour: names before a verb go forward, anything else back.
  const clauses: string[] = []
  let pending: string[] = []
  // Parallel items only: "needs rolloutPercent, an integer from 0 to 100" describes the one thing it needs.
  const needs = PARALLEL_FIRST.test(pieces[0] ?? '')
  for (const piece of pieces.map((text) => text.trim()).filter((text) => text.length > 0)) {
    // "needs a name, an owner and a tier": after a verb that asks for things, each item is one of them.
    // "unset is the 3s default, which is fine": a relative clause says something about the clause before.
    if (/^(?:which|that)\s+(?:is|are|'s)\b/i.test(piece) && clauses.length > 0 && pending.length === 0) {
      clauses[clauses.length - 1] = `${clauses[clauses.length - 1] ?? ''}, ${piece}`
      continue
    }
    // "..., unless `mode` is `batch`", "auth must be on, except for routes whose path is /healthz": a condition or an exception
    // belongs to the clause before it; read alone, its own predicate would become a requirement (the exempt objects demanded of everyone).
    if ((TRAILING_CONDITION.test(piece) || EXCEPTS.test(piece)) && clauses.length > 0 && pending.length === 0) {
      clauses[clauses.length - 1] = `${clauses[clauses.length - 1] ?? ''}, ${piece}`
      continue
    }
    // "maxReplicas at most 20, and strictly greater than minReplicas", "server.port is required and must be ...": the clause before lends its subject.
    const subject = clauses.length > 0 && pending.length === 0 && SUBJECTLESS.test(piece) ? subjectOf(clauses[clauses.length - 1] ?? '') : undefined
    if (subject) {
      clauses.push(`${subject} ${piece}`)
      continue
    }
    const item = needs && clauses.length > 0 && pending.length === 0 && NEEDED_ITEM.test(piece) && !OWN_VERB.test(piece)
    if (!item && !PREDICATE.test(piece) && !NAMES_A_FORMAT.test(piece) && !FIELD_AND_VALUE.test(piece)) {
      pending.push(piece)
      continue
    }
    if (pending.length > 0 && continuesValueList(clauses[clauses.length - 1], pending)) {
      clauses[clauses.length - 1] = `${clauses[clauses.length - 1] ?? ''}, ${pending.join(', ')}`
      pending = []
    }
    if (pending.length > 0) {
      const namesOnly = pending.every((item) => item.split(/\s+/).length <= 3)
      // "In the prod namespace, secrets must ...": words before the first clause, with nothing before them to belong to, lead into it.
      if (namesOnly || (clauses.length === 0 && pending.every((item) => LEADS_IN.test(item)))) {
        clauses.push(`${pending.join(', ')}, ${piece}`.replace(/^,\s*/, ''))
        pending = []
        continue
      }
      if (clauses.length > 0) clauses[clauses.length - 1] = `${clauses[clauses.length - 1] ?? ''}, ${pending.join(', ')}`
      else clauses.push(pending.join(', '))
      pending = []
    }
    clauses.push(piece)
  }
  if (pending.length > 0) {
    if (clauses.length > 0) clauses[clauses.length - 1] = `${clauses[clauses.length - 1] ?? ''}, ${pending.join(', ')}`
    else clauses.push(pending.join(', '))
  }
  return lendVerb(clauses)
}

const TRAILING_CONDITION = /^(?:unless|except(?:\s+(?:when|if|for|in))?|only\s+(?:when|if)|but\s+only\s+(?:when|if))\b/i

/** "In the prod namespace", "for every public bucket", "when replicas exceed 3": a scope said before what it scopes. */
const LEADS_IN = /^(?:in|inside|within|outside|for|on|across|when|whenever|where|if|unless|except)\b/i

/** "unless ...", "except for ...": words that take something out of the clause before them. */
const EXCEPTS = /^(?:unless|except|excepting|excluding|other than|apart from|save for|but not)\b/i

/** A clause that starts on its predicate: its subject is the one before. */
const SUBJECTLESS = /^(?:also\s+|then\s+)?(?:must|mustn'?t|has to|have to|needs? to|should|shall|can'?t|cannot|may not|at least|at most|no more than|no less than|no fewer than|(?:strictly\s+)?(?:greater|less|more|fewer|higher|lower) than)\b/i
/** A subject is a field written as one (a code token or a path), before the first predicate of its clause. */
const FIELD_SUBJECT = /^(?:(?:the|its|their|every|each|all|any)\s+)?([`"']?[A-Za-z_][\w.[\]*/-]*[`"']?)\s+(?=\S)/

function subjectOf(clause: string): string | undefined {
  const subject = FIELD_SUBJECT.exec(clause)?.[1]
  if (!subject) return undefined
  const predicate = PREDICATE.exec(clause.slice(clause.indexOf(subject) + subject.length))
  if (!predicate) return undefined
  // A plain word is a subject only right before its verb ("objective is a percentage"); a field name anywhere before it.
  const codeLike = /[._[`"']|[a-z][A-Z]/.test(subject)
  return codeLike || predicate.index === 1 ? subject : undefined
}

/** "every entry in `flags` needs a key in snake_case": the subject and the verb that asks. */
const SUBJECT_AND_VERB = /^(.*?\b(?:needs|need|requires|require|must (?:have|set|declare|define|carry|include|contain|specify))\s+)\S/i
/** A later item with a verb of its own ("owner must be an email") asks its own thing. */
const OWN_VERB = /\b(must|mustn'?t|has to|have to|needs?|should|shall|can'?t|cannot|may|is|are|isn'?t|aren'?t|required|requires?|mandatory|allowed|forbidden|banned|rejected)\b/i

/**
 * "every entry in `flags` needs a key in snake_case, an owner as email, and an expires date
 * formatted YYYY-MM-DD": the items after the first are what the same subject needs.
 */
function lendVerb(clauses: string[]): string[] {
  const head = SUBJECT_AND_VERB.exec(clauses[0] ?? '')?.[1]
  if (!head || clauses.length < 2) return clauses
  return clauses.map((clause, index) => (index > 0 && !OWN_VERB.test(clause) && NEEDED_ITEM.test(clause) ? `${head}${clause}` : clause))
}

const NEEDED_ITEM = /^(?:an?|the)\s+(?!(?:integer|number|string|boolean|list|array|map|value|whole number|positive|non-negative)\b)\S/i
const PARALLEL_FIRST = /\b(?:needs|need|requires|require|must (?:have|set|declare|define|carry|include|contain|specify))\s+(?:an?|the)\s+\S/i
