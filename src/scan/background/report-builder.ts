import { createHash } from 'node:crypto'
import { isNotedSkip, type PolicyAction, type RuleResult, type Severity } from '../../engine/index.js'
import { canonicalJson } from '../../k8s/canonical-json.js'
import type { ExistingVerdict } from './judge-existing.js'

/** The object a report result is about, as `resources[]` of a report's result names it. */
export interface ReportedObject {
  apiVersion: string
  kind: string
  name: string
  namespace: string
  uid?: string
}

export type ReportResultStatus = 'pass' | 'fail' | 'warn' | 'error' | 'skip'
export type ReportSummary = Record<ReportResultStatus, number>

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by'
export const POLICY_LABEL = 'verdict.dev/policy'

interface ReportState {
  policy: string
  namespace: string
  summary: ReportSummary
  /**
   * The failing results, each as the few values its JSON is made from. A scan holds every report
   * until its end, and a large cluster's reports hold hundreds of thousands of results: as canonical
   * JSON text each took about 330 bytes (65 MB for 20,000 Pods failing ten rules each), as a record
   * sharing the object and the rule's strings about 40. The JSON is made again, one report at a
   * time, for the digest and for the object written.
   */
  results: KeptResult[]
  /** The results' size as JSON, kept under MAX_RESULTS_BYTES. */
  bytes: number
}

/** One failing result of a report: the object and the rule's own strings are shared, not copied. */
interface KeptResult {
  readonly object: ReportedObject
  readonly ruleset: string
  readonly rule: string
  readonly status: ReportResultStatus
  /** Cut to MAX_MESSAGE_LENGTH. */
  readonly message: string | undefined
  readonly severity: Severity
  /** On a skip: the PolicyException that let the rule through. */
  readonly exception: string | undefined
  /** On a skip: why the rule is switched off (`enabled: false`). */
  readonly disabledReason: string | undefined
}

/**
 * One report a scan built, in no API group's shape yet: a policy's verdicts in one namespace ('' for
 * cluster-scoped objects). report-apis.ts gives it the shape of `wgpolicyk8s.io` or `openreports.io`;
 * both groups get the same summary, labels and results from here.
 */
export interface BuiltReport {
  readonly policy: string
  /** '' for the cluster-scoped report. */
  readonly namespace: string
  readonly name: string
  readonly labels: Record<string, string>
  /** Every (object, rule) judged, counted exactly, whatever the cap on results. */
  readonly summary: ReportSummary
  /** The `maxResults` the results were capped at. */
  readonly maxResults: number
  /** Each listed result as canonical JSON without its timestamp, made as a digest reads it rather than all at once. */
  resultTexts(): Iterable<string>
  /** The listed results as objects to write, each with the scan's timestamp. */
  results(): Record<string, unknown>[]
}

/**
 * etcd refuses objects over 1.5 MiB: results stop well before, whatever `maxResults` says, and a
 * result's message is cut, so that long messages (a rule may substitute a whole list into one)
 * cannot make a report unwritable.
 */
const MAX_RESULTS_BYTES = 1024 * 1024
const MAX_MESSAGE_LENGTH = 1024

/** Where the builder stood, to go back to when a list restarts (see rollback). */
export interface ReportMark {
  readonly summaries: ReadonlyMap<string, ReportSummary>
  readonly lengths: ReadonlyMap<string, number>
  readonly bytes: ReadonlyMap<string, number>
}

/**
 * The reports of a scan, whichever API group they are written to: per policy, one for each
 * namespace with judged objects and one for cluster-scoped ones. The summary counts every (object,
 * rule) judged, exactly; results list only the failing ones (fail, warn for a Warn policy, error)
 * and the skips an exception or a switched-off rule made, at most `maxResults` per report and
 * MAX_RESULTS_BYTES of them, so a namespace with a hundred thousand failing Pods cannot grow etcd
 * past one object's limit.
 */
export class ReportBuilder {
  readonly #maxResults: number
  readonly #timestamp: { seconds: number; nanos: number }
  readonly #timestampBytes: number
  readonly #reports = new Map<string, ReportState>()

  constructor(options: { maxResults: number; now: Date }) {
    this.#maxResults = options.maxResults
    this.#timestamp = { seconds: Math.floor(options.now.getTime() / 1000), nanos: 0 }
    this.#timestampBytes = `,"timestamp":${JSON.stringify(this.#timestamp)}`.length
  }

  add(object: ReportedObject, verdict: ExistingVerdict): void {
    const key = `${verdict.policy}\u0000${object.namespace}`
    let report = this.#reports.get(key)
    if (!report) {
      report = { policy: verdict.policy, namespace: object.namespace, summary: { pass: 0, fail: 0, warn: 0, error: 0, skip: 0 }, results: [], bytes: 0 }
      this.#reports.set(key, report)
    }
    for (const result of verdict.judged) {
      const status = reportStatus(result, verdict.action)
      report.summary[status]++
      // Skips an exception or a switched-off rule made are listed, saying so: a report never hides what was let through.
      if (status === 'pass' || (status === 'skip' && !isNotedSkip(result)) || report.results.length >= this.#maxResults) continue
      const message = result.message === undefined || result.message.length <= MAX_MESSAGE_LENGTH ? result.message : `${result.message.slice(0, MAX_MESSAGE_LENGTH)}…`
      const kept: KeptResult = { object, ruleset: result.ruleset, rule: result.rule, status, message, severity: result.severity, exception: result.exception, disabledReason: result.disabled === true ? (result.disabledReason ?? '') : undefined }
      const size = canonicalJson(resultEntry(verdict.policy, kept)).length + this.#timestampBytes
      if (report.bytes + size > MAX_RESULTS_BYTES) continue
      report.bytes += size
      report.results.push(kept)
    }
  }

  mark(): ReportMark {
    const summaries = new Map<string, ReportSummary>()
    const lengths = new Map<string, number>()
    const bytes = new Map<string, number>()
    for (const [key, report] of this.#reports) {
      summaries.set(key, { ...report.summary })
      lengths.set(key, report.results.length)
      bytes.set(key, report.bytes)
    }
    return { summaries, lengths, bytes }
  }

  /** Forgets what was added since `mark`: the objects of a list that must be read again from the start. */
  rollback(mark: ReportMark): void {
    for (const [key, report] of this.#reports) {
      const summary = mark.summaries.get(key)
      if (!summary) {
        this.#reports.delete(key)
        continue
      }
      report.summary = { ...summary }
      report.results.length = mark.lengths.get(key) ?? 0
      report.bytes = mark.bytes.get(key) ?? 0
    }
  }

  /** The policies that judged anything, each with its reports (namespace '' is the cluster report). */
  reports(): Map<string, BuiltReport[]> {
    const byPolicy = new Map<string, BuiltReport[]>()
    for (const report of this.#reports.values()) {
      const list = byPolicy.get(report.policy) ?? []
      list.push(this.#built(report))
      byPolicy.set(report.policy, list)
    }
    return byPolicy
  }

  #built(report: ReportState): BuiltReport {
    const timestamp = this.#timestamp
    return {
      policy: report.policy,
      namespace: report.namespace,
      name: reportName(report.policy),
      labels: reportLabels(report.policy),
      summary: { ...report.summary },
      maxResults: this.#maxResults,
      resultTexts: () => resultTexts(report),
      // Through canonical JSON, so that the object written has the key order the digest was made from.
      results: () => report.results.map((kept) => ({ ...(JSON.parse(canonicalJson(resultEntry(report.policy, kept))) as Record<string, unknown>), timestamp })),
    }
  }
}

/** A result as a report of either group lists it, without its timestamp (BuiltReport.results adds the scan's). */
function resultEntry(policy: string, kept: KeptResult): Record<string, unknown> {
  const { object } = kept
  const resource: Record<string, unknown> = { apiVersion: object.apiVersion, kind: object.kind, name: object.name }
  if (object.namespace !== '') resource.namespace = object.namespace
  if (object.uid !== undefined) resource.uid = object.uid
  const entry: Record<string, unknown> = {
    policy,
    rule: kept.rule,
    result: kept.status,
    scored: true,
    source: 'verdict',
    resources: [resource],
    properties: {
      ruleset: kept.ruleset,
      ...(kept.exception === undefined ? {} : { exception: kept.exception }),
      // Report properties are strings, in both groups.
      ...(kept.disabledReason === undefined ? {} : { disabled: 'true', disabledReason: kept.disabledReason }),
    },
  }
  if (kept.message !== undefined) entry.message = kept.message
  entry.severity = kept.severity
  return entry
}

/** Each result of a report as canonical JSON, made as the digest reads it rather than all at once. */
function* resultTexts(report: ReportState): Iterable<string> {
  for (const kept of report.results) yield canonicalJson(resultEntry(report.policy, kept))
}

function reportStatus(result: RuleResult, action: PolicyAction): ReportResultStatus {
  if (result.status === 'fail') return action === 'Warn' ? 'warn' : 'fail'
  return result.status
}

/**
 * What a report says, digested: its top-level fields but metadata and results (the summary, and
 * what its API group adds: see report-apis.ts), its labels, and its results in order, each as
 * canonical JSON without its timestamp. Equal digests, same report, so a stable cluster's scan
 * rewrites nothing; key order does not count (the API server hands custom resources back with
 * sorted keys).
 */
export function reportContentDigest(head: unknown, labels: unknown, results: Iterable<string>): string {
  const hash = createHash('sha256').update(canonicalJson(head ?? null)).update('\n').update(canonicalJson(labels ?? null))
  for (const result of results) hash.update('\n').update(result)
  return hash.digest('base64url')
}

/** The digest of a report as the cluster holds it (reportContentDigest). */
export function existingReportDigest(report: Record<string, unknown>): string {
  const { apiVersion: _apiVersion, kind: _kind, metadata, results, ...head } = report
  const texts = (Array.isArray(results) ? (results as unknown[]) : []).map((result) => {
    if (typeof result !== 'object' || result === null) return canonicalJson(result)
    const { timestamp: _timestamp, ...rest } = result as Record<string, unknown>
    return canonicalJson(rest)
  })
  return reportContentDigest(head, (metadata as Record<string, unknown> | undefined)?.labels, texts)
}

/** The labels every report of a policy carries: what Verdict lists and deletes by. */
export function reportLabels(policy: string): Record<string, string> {
  return { [MANAGED_BY_LABEL]: 'verdict', [POLICY_LABEL]: labelValue(policy) }
}

/** `verdict-<policy>`, within the 253 characters of an object name (policy names are DNS subdomains already). */
export function reportName(policy: string): string {
  const name = `verdict-${policy}`
  return name.length <= 253 ? name : `${name.slice(0, 240)}-${hashOf(policy)}`
}

/** A label value holds 63 characters at most: a longer policy name is cut and told apart by a hash. */
function labelValue(policy: string): string {
  if (policy.length <= 63) return policy
  return `${policy.slice(0, 52).replace(/[^a-z0-9]+$/, '')}-${hashOf(policy)}`
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 10)
}
