import type { Db } from '../store/db.js'
import {
  type AuditSource,
  countPolicyAudits,
  countRulesetAudits,
  listPolicyAudits,
  listRulesetAudits,
  policyAuditByRequestId,
  rulesetAuditsByRequestId,
} from '../store/audits-repository.js'
import { parseTimestamp } from './rfc3339-timestamp.js'
import { InvalidRequestError, NotFoundError } from './service-errors.js'

/** The query parameters of the audit routes, as they arrive (strings, possibly absent). */
export interface AuditQuery {
  startTimestamp?: string
  endTimestamp?: string
  page?: string | number
  pageSize?: string | number
  /** Only audits of this source (the route's schema allows admission, api and background). */
  source?: AuditSource
  /** Only audits that passed (true) or failed (false). */
  passed?: boolean
}

interface Window {
  start: Date
  end: Date
  /** Echoed back as sent, or the defaults used. */
  startTimestamp: string
  endTimestamp: string
}

export const MAX_PAGE_SIZE = 1000
const DEFAULT_PAGE_SIZE = 10
const EPOCH = '1970-01-01T00:00:00.000Z'

/** The eight audit routes of the spec: validated parameters in, the spec's shapes out. */
export class AuditQueryService {
  readonly #db: Db
  readonly #now: () => Date

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db
    this.#now = now
  }

  async listPolicyAudits(policyName: string, query: AuditQuery) {
    const window = this.#window(query)
    const { page, pageSize } = paging(query)
    const policyAudits = await listPolicyAudits(this.#db, { name: policyName, start: window.start, end: window.end, page, pageSize, ...listFiltersOf(query) })
    return { policyName, startTimestamp: window.startTimestamp, endTimestamp: window.endTimestamp, page, pageSize, policyAudits }
  }

  async countPolicyAudits(policyName: string, query: AuditQuery) {
    const window = this.#window(query)
    const policyAuditsCount = await countPolicyAudits(this.#db, { name: policyName, start: window.start, end: window.end })
    return { policyName, policyAuditsCount, startTimestamp: window.startTimestamp, endTimestamp: window.endTimestamp }
  }

  async policyAuditByRequestId(requestId: string) {
    const policyAudit = await policyAuditByRequestId(this.#db, requestId)
    if (!policyAudit) throw new NotFoundError('policy audit for request', requestId)
    return { requestId, policyAudit }
  }

  async listRulesetAudits(rulesetName: string, query: AuditQuery) {
    const window = this.#window(query)
    const { page, pageSize } = paging(query)
    const rulesetAudits = await listRulesetAudits(this.#db, { name: rulesetName, start: window.start, end: window.end, page, pageSize, ...listFiltersOf(query) })
    return { rulesetName, startTimestamp: window.startTimestamp, endTimestamp: window.endTimestamp, page, pageSize, rulesetAudits }
  }

  async countRulesetAudits(rulesetName: string, query: AuditQuery) {
    const window = this.#window(query)
    const rulesetAuditsCount = await countRulesetAudits(this.#db, { name: rulesetName, start: window.start, end: window.end })
    return { rulesetName, rulesetAuditsCount, startTimestamp: window.startTimestamp, endTimestamp: window.endTimestamp }
  }

  async rulesetAuditsByRequestId(requestId: string) {
    const rulesetAudits = await rulesetAuditsByRequestId(this.#db, requestId)
    if (rulesetAudits.length === 0) throw new NotFoundError('ruleset audits for request', requestId)
    return { requestId, rulesetAudits }
  }

  #window(query: AuditQuery): Window {
    const startTimestamp = query.startTimestamp ?? EPOCH
    const endTimestamp = query.endTimestamp ?? this.#now().toISOString()
    const start = parseTimestamp('query.startTimestamp', startTimestamp)
    const end = parseTimestamp('query.endTimestamp', endTimestamp)
    if (start.getTime() > end.getTime()) {
      throw new InvalidRequestError(`query.startTimestamp: ${startTimestamp} is after query.endTimestamp ${endTimestamp}`)
    }
    return { start, end, startTimestamp, endTimestamp }
  }
}

function paging(query: AuditQuery): { page: number; pageSize: number } {
  return {
    page: wholeNumber('query.page', query.page, 1, 1, Number.MAX_SAFE_INTEGER),
    pageSize: wholeNumber('query.pageSize', query.pageSize, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  }
}

function wholeNumber(field: string, value: string | number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  const number = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`
    throw new InvalidRequestError(`${field}: must be an integer ${range}, got ${JSON.stringify(value)}`)
  }
  return number
}

/** The list filters a query carries: source and outcome. */
function listFiltersOf(query: AuditQuery): { source?: AuditSource; passed?: boolean } {
  return { ...(query.source === undefined ? {} : { source: query.source }), ...(query.passed === undefined ? {} : { passed: query.passed }) }
}
