import type { Recognition, RuleTemplate } from './catalog/index.js'
import { judgesKind } from './text/kinds.js'
import type { Clause } from './text/clause.js'

/** The least score a template needs to take a clause. */
export const RECOGNITION_THRESHOLD = 1

export interface Candidate {
  template: RuleTemplate
  recognition: Recognition
}

export interface ClauseRecognition {
  /** The template the clause maps to; undefined when none scores enough or two tie. */
  best?: Candidate
  /** Templates tied with the best score (two or more means the clause is ambiguous). */
  tied: Candidate[]
  /** Every template with a score above 0, best first (catalog order among equals). */
  ranked: Candidate[]
}

/**
 * Which template a clause asks for. Templates of another platform, or that cannot judge the
 * kinds the clause (or its labels) names, do not compete. Generic JSON templates give way to
 * a platform template with the same score: "replicas at least 2" about Deployments is the
 * replicas rule, not a generic bound on a field.
 */
export function recognizeClause(clause: Clause, catalog: readonly RuleTemplate[]): ClauseRecognition {
  const ranked: Candidate[] = []
  for (const template of catalog) {
    if (!competes(template, clause)) continue
    const recognition = template.recognize(clause)
    if (recognition.score > 0) ranked.push({ template, recognition })
  }
  ranked.sort((a, b) => effectiveScore(b) - effectiveScore(a))
  const top = ranked[0]
  if (!top || top.recognition.score < RECOGNITION_THRESHOLD) return { tied: [], ranked }
  const tied = ranked.filter((candidate) => effectiveScore(candidate) === effectiveScore(top))
  return tied.length === 1 ? { best: top, tied, ranked } : { tied, ranked }
}

function effectiveScore(candidate: Candidate): number {
  return candidate.recognition.score - (candidate.template.platform === 'generic' ? 0.5 : 0)
}

function competes(template: RuleTemplate, clause: Clause): boolean {
  // A Kubernetes kind has a schema: its fields are read through it, never as a generic document's keys.
  if (template.platform === 'generic') return clause.platform !== 'terraform' && !(clause.platform === 'kubernetes' && clause.kinds.length > 0)
  if (template.platform !== clause.platform) return false
  if (template.platform !== 'kubernetes' || clause.kinds.length === 0) return true
  return clause.kinds.some((kind) => judgesKind(template.kinds, kind))
}
