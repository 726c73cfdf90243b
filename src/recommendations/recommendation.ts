/**
 * What `GET /api/recommendations` answers with: findings drawn from the definitions and the
 * audits of the last N days, each about one target and carrying the figures that justify it.
 * Every kind lives in its own file of this folder as a pure function of definitions and figures
 * the store has already aggregated, so each can be tested without a database.
 */

/** The kinds, in the order the response lists them: broken things first, then gaps, then tidying. */
export const RECOMMENDATION_TYPES = [
  'erroring-policy',
  'erroring-rule',
  'uncovered-pod-security-control',
  'ready-to-deny',
  'violations-in-cluster',
  'frequent-violation',
  'idle-policy',
  'unused-ruleset',
  'expiring-exception',
  'unused-exception',
  'broad-exception',
] as const

export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number]

/**
 * What a finding is about. `control` is a Pod Security Standards control (a catalog template id
 * such as `pss-privileged`): an uncovered control is about something no definition has yet.
 */
export interface RecommendationTarget {
  kind: 'policy' | 'ruleset' | 'rule' | 'control' | 'exception'
  name: string
  /** For a rule: the ruleset it belongs to. */
  ruleset?: string
}

/** Evidence is JSON a client can show as is: counts, ratios, ISO 8601 timestamps, names. */
export type EvidenceValue = string | number | boolean | null | readonly string[]

export interface Recommendation {
  /** The same finding has the same id on every call, so a client can remember that it was dismissed. */
  id: string
  type: RecommendationType
  target: RecommendationTarget
  message: string
  evidence: Readonly<Record<string, EvidenceValue>>
}

/** The period the audit figures cover: the `days` before `to`, both ends inclusive. */
export interface RecommendationWindow {
  days: number
  from: Date
  to: Date
}

/**
 * Readable and stable: the type and the target's path. Ruleset and policy names are DNS names
 * (no `/`), so `ruleset/rule` cannot be confused with another target.
 */
export function recommendationId(type: RecommendationType, target: RecommendationTarget): string {
  const path = target.kind === 'rule' ? `${target.ruleset ?? ''}/${target.name}` : target.name
  return `${type}:${path}`
}

export function recommendation(type: RecommendationType, target: RecommendationTarget, message: string, evidence: Recommendation['evidence']): Recommendation {
  return { id: recommendationId(type, target), type, target, message, evidence }
}

/** "in the last 7 days" / "in the last day", for messages. */
export function lastDays(window: RecommendationWindow): string {
  return window.days === 1 ? 'in the last day' : `in the last ${window.days} days`
}

/** "1 evaluation" / "3 evaluations". */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** A ratio rounded to three decimals, for evidence (0.625), and as a percentage for messages. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000
}

export function percent(value: number): string {
  return `${Math.round(value * 1000) / 10}%`
}
