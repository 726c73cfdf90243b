import { broadExceptions } from '../recommendations/broad-exception.js'
import { erroringPolicies } from '../recommendations/erroring-policy.js'
import { expiringExceptions } from '../recommendations/expiring-exception.js'
import { erroringRules } from '../recommendations/erroring-rule.js'
import { frequentViolations } from '../recommendations/frequent-violation.js'
import { idlePolicies, idlePolicyCandidates } from '../recommendations/idle-policy.js'
import { readyToDeny, readyToDenyCandidates } from '../recommendations/ready-to-deny.js'
import { RECOMMENDATION_TYPES, type Recommendation, type RecommendationType, type RecommendationWindow } from '../recommendations/recommendation.js'
import type { RuleResultScan } from '../recommendations/rule-results.js'
import { policiesByRuleset } from '../recommendations/ruleset-usage.js'
import { unusedExceptions, type ExceptionWithStamp } from '../recommendations/unused-exception.js'
import { unusedRulesets } from '../recommendations/unused-ruleset.js'
import { VIOLATIONS_IN_CLUSTER_LISTED, violationsInCluster, type PolicyClusterFigures } from '../recommendations/violations-in-cluster.js'
import { clusterFigures } from '../store/background-verdicts-repository.js'
import { lastExceptionApplications } from '../store/exception-applications.js'
import type { Queryable } from '../store/db.js'
import {
  auditCountsByName,
  lastPolicyAudits,
  policiesWithFailures,
  RULE_RESULT_SCAN_LIMIT,
  ruleResultFigures,
} from '../store/recommendation-figures.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { InvalidRequestError } from './service-errors.js'

export const DEFAULT_RECOMMENDATION_DAYS = 7
/** VERDICT_UNUSED_EXCEPTION_DAYS's default. */
export const DEFAULT_UNUSED_EXCEPTION_DAYS = 30
export const MAX_RECOMMENDATION_DAYS = 365

export interface RecommendationQuery {
  /** The window: this many days up to now (1 to 365, default 7). */
  days?: number
  /** Only these kinds; all when absent or empty. */
  types?: readonly RecommendationType[]
}

export interface RecommendationsResponse {
  recommendations: Recommendation[]
  generatedAt: string
  days: number
}

const DAY_MS = 86_400_000

export interface RecommendationServiceOptions {
  now?: () => Date
  ruleScanLimit?: number
  exceptions?: () => readonly ExceptionWithStamp[]
  unusedExceptionDays?: number
}

/**
 * Recommendations from the definitions (the catalog's in-memory view, as evaluation sees them)
 * and audit figures the store aggregates over the window. Only the figures the requested kinds
 * need are asked for, and the costly ones (failures, last audits) only for the few candidates the
 * cheap ones leave.
 */
export class RecommendationService {
  readonly #db: Queryable
  readonly #catalog: DefinitionCatalog
  readonly #now: () => Date
  readonly #ruleScanLimit: number
  readonly #exceptions: () => readonly ExceptionWithStamp[]
  readonly #unusedExceptionDays: number

  /**
   * `exceptions`: the stored PolicyExceptions (the exception catalog's), for the exception kinds;
   * none when absent. `unusedExceptionDays`: VERDICT_UNUSED_EXCEPTION_DAYS.
   */
  constructor(db: Queryable, catalog: DefinitionCatalog, options: RecommendationServiceOptions = {}) {
    this.#db = db
    this.#catalog = catalog
    this.#now = options.now ?? (() => new Date())
    this.#ruleScanLimit = options.ruleScanLimit ?? RULE_RESULT_SCAN_LIMIT
    this.#exceptions = options.exceptions ?? (() => [])
    this.#unusedExceptionDays = options.unusedExceptionDays ?? DEFAULT_UNUSED_EXCEPTION_DAYS
  }

  async recommend(query: RecommendationQuery = {}): Promise<RecommendationsResponse> {
    const days = query.days ?? DEFAULT_RECOMMENDATION_DAYS
    if (!Number.isSafeInteger(days) || days < 1 || days > MAX_RECOMMENDATION_DAYS) {
      throw new InvalidRequestError(`query.days: must be an integer from 1 to ${MAX_RECOMMENDATION_DAYS}, got ${JSON.stringify(days)}`)
    }
    const wanted = new Set<RecommendationType>(query.types && query.types.length > 0 ? query.types : RECOMMENDATION_TYPES)
    const to = this.#now()
    const window: RecommendationWindow = { days, from: new Date(to.getTime() - days * DAY_MS), to }
    return { recommendations: await this.#find(wanted, window), generatedAt: to.toISOString(), days }
  }

  async #find(wanted: ReadonlySet<RecommendationType>, window: RecommendationWindow): Promise<Recommendation[]> {
    const policies = this.#catalog.policies()
    const rulesets = this.#catalog.rulesets()
    const needs = (...types: RecommendationType[]) => types.some((type) => wanted.has(type))
    const [policyAudits, rulesetAudits, scan] = await Promise.all([
      needs('ready-to-deny', 'idle-policy', 'erroring-policy') ? auditCountsByName(this.#db, 'policy', window) : new Map<string, number>(),
      needs('unused-ruleset', 'erroring-rule', 'frequent-violation') ? auditCountsByName(this.#db, 'ruleset', window) : new Map<string, number>(),
      needs('erroring-rule', 'frequent-violation') ? ruleResultFigures(this.#db, window, this.#ruleScanLimit) : undefined,
    ])
    const [failing, lastAudits, cluster, lastApplied] = await Promise.all([
      needs('ready-to-deny') ? policiesWithFailures(this.#db, readyToDenyCandidates(policies, policyAudits), window) : new Set<string>(),
      needs('idle-policy') ? lastPolicyAudits(this.#db, idlePolicyCandidates(policies, policyAudits, window)) : new Map<string, Date | null>(),
      needs('ready-to-deny', 'violations-in-cluster') ? clusterFigures(this.#db, VIOLATIONS_IN_CLUSTER_LISTED) : new Map<string, PolicyClusterFigures>(),
      needs('unused-exception') ? lastExceptionApplications(this.#db) : new Map<string, string>(),
    ])
    const ruleScan: RuleResultScan = scan ?? { tallies: [], scannedAudits: 0, sampled: false, countedFrom: window.from }
    // The Pod Security controls come from the authoring catalog: loaded when this kind is asked for, not at start.
    const podSecurity = needs('uncovered-pod-security-control') ? await import('../recommendations/uncovered-pod-security-control.js') : undefined
    const kinds: Record<RecommendationType, () => Recommendation[]> = {
      'erroring-policy': () => erroringPolicies(policies, rulesets, policyAudits, window),
      'erroring-rule': () => erroringRules(rulesets, { scan: ruleScan, rulesetAudits, policiesByRuleset: policiesByRuleset(policies, rulesets) }, window),
      'uncovered-pod-security-control': () => podSecurity?.uncoveredPodSecurityControls(policies, rulesets, (ruleset) => this.#catalog.compiled(ruleset)) ?? [],
      'ready-to-deny': () => readyToDeny(policies, { policyAudits, failing, cluster }, window),
      'violations-in-cluster': () => violationsInCluster(policies, cluster),
      'frequent-violation': () => frequentViolations(rulesets, { scan: ruleScan, rulesetAudits }, window),
      'idle-policy': () => idlePolicies(policies, { policyAudits, lastAudits }, window),
      'unused-ruleset': () => unusedRulesets(policies, rulesets, rulesetAudits, window),
      'expiring-exception': () => expiringExceptions(this.#exceptions(), window.to),
      'unused-exception': () => unusedExceptions(this.#exceptions(), lastApplied, window.to, this.#unusedExceptionDays),
      'broad-exception': () => broadExceptions(this.#exceptions()),
    }
    // RECOMMENDATION_TYPES is the response's order; each kind keeps its own order within it.
    return RECOMMENDATION_TYPES.filter((type) => wanted.has(type)).flatMap((type) => kinds[type]())
  }
}
