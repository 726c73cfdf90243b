import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { BatchReport, SpoolEvent } from '../audit/audit-writer.js'
import type { EventReport } from '../events/event-recorder.js'

/**
 * The Prometheus metrics of one Verdict process, on a registry of its own (not prom-client's
 * global one), so tests can run several services in one process.
 */
export class VerdictMetrics {
  readonly registry = new Registry()
  readonly #evaluations: Counter<'kind' | 'name' | 'result'>
  readonly #evaluationSeconds: Histogram<'kind'>
  readonly #admissions: Counter<'operation' | 'allowed'>
  readonly #admissionSeconds: Histogram<'operation'>
  readonly #auditWriteSeconds: Histogram<'outcome'>
  readonly #rateLimited: Counter
  readonly #spoolEntries: Counter<'event'>
  readonly #reconciles: Counter<'kind' | 'result'>
  readonly #exemptions: Counter<'exception' | 'path'>
  readonly #eventWrites: Counter<'write'>
  readonly #eventDrops: Counter<'reason'>

  constructor(options: { auditQueueDepth: () => number; auditSpoolBytes?: () => number; auditSpooling?: () => boolean }) {
    collectDefaultMetrics({ register: this.registry })
    this.#evaluations = new Counter({
      name: 'verdict_evaluations_total',
      help: 'REST evaluations by kind (policy or ruleset), name and result (pass or fail)',
      labelNames: ['kind', 'name', 'result'],
      registers: [this.registry],
    })
    this.#evaluationSeconds = new Histogram({
      name: 'verdict_evaluation_duration_seconds',
      help: 'time to judge a REST evaluation, audits included',
      labelNames: ['kind'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [this.registry],
    })
    this.#admissions = new Counter({
      name: 'verdict_admission_requests_total',
      help: 'AdmissionReviews answered, by operation and decision',
      labelNames: ['operation', 'allowed'],
      registers: [this.registry],
    })
    this.#admissionSeconds = new Histogram({
      name: 'verdict_admission_duration_seconds',
      help: 'time to answer an AdmissionReview (the API server gives up at the webhook timeout, at most 10 s)',
      labelNames: ['operation'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    })
    new Gauge({
      name: 'verdict_audit_queue_depth',
      help: 'audit writes waiting or being committed',
      registers: [this.registry],
      collect() {
        this.set(options.auditQueueDepth())
      },
    })
    this.#auditWriteSeconds = new Histogram({
      name: 'verdict_audit_write_duration_seconds',
      help: 'time to commit one group-commit batch of audits, by outcome (ok or error)',
      labelNames: ['outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    })
    this.#rateLimited = new Counter({ name: 'verdict_rate_limited_total', help: 'API requests refused with 429', registers: [this.registry] })
    new Gauge({
      name: 'verdict_audit_spool_bytes',
      help: 'bytes of audits in the local spool, waiting for the store to come back',
      registers: [this.registry],
      collect() {
        this.set(options.auditSpoolBytes?.() ?? 0)
      },
    })
    new Gauge({
      name: 'verdict_audit_spooling',
      help: '1 while audits go to the local spool instead of the store',
      registers: [this.registry],
      collect() {
        this.set(options.auditSpooling?.() ? 1 : 0)
      },
    })
    this.#spoolEntries = new Counter({
      name: 'verdict_audit_spool_entries_total',
      help: 'evaluations whose audits were spooled, replayed into the store, found already stored on replay (skipped), or refused by a full or failing spool (rejected)',
      labelNames: ['event'],
      registers: [this.registry],
    })
    this.#reconciles = new Counter({
      name: 'verdict_controller_reconciles_total',
      help: 'Ruleset, Policy and PolicyException objects reconciled by the controller, by kind and result (Reconciled, Invalid, MissingRulesets, Conflict, deleted, error)',
      labelNames: ['kind', 'result'],
      registers: [this.registry],
    })
    this.#exemptions = new Counter({
      name: 'verdict_exception_applications_total',
      help: 'rule results a PolicyException let through (reported as skip naming it), by exception and path (admission or api)',
      labelNames: ['exception', 'path'],
      registers: [this.registry],
    })
    this.#eventWrites = new Counter({
      name: 'verdict_events_written_total',
      help: 'Kubernetes Events written for violations, by write: create (a new Event) or patch (repeats added to its series)',
      labelNames: ['write'],
      registers: [this.registry],
    })
    this.#eventDrops = new Counter({
      name: 'verdict_events_dropped_total',
      help: 'violations no Kubernetes Event records, by reason: rate-limited, queue-full, write-failed, evicted, shutdown',
      labelNames: ['reason'],
      registers: [this.registry],
    })
  }

  /** An Event written, or violations no Event records. */
  eventReported(report: EventReport): void {
    if (report.type === 'written') this.#eventWrites.inc({ write: report.write })
    else this.#eventDrops.inc({ reason: report.reason }, report.violations)
  }

  /** Rule results a PolicyException let through, by exception and path (admission or api). */
  exempted(exception: string, path: 'admission' | 'api'): void {
    this.#exemptions.inc({ exception, path })
  }

  spoolEvent(event: SpoolEvent): void {
    if (event.type === 'spooled') this.#spoolEntries.inc({ event: 'spooled' }, event.entries)
    else if (event.type === 'rejected') this.#spoolEntries.inc({ event: 'rejected' }, event.entries)
    else if (event.type === 'replayed') {
      this.#spoolEntries.inc({ event: 'replayed' }, event.entries)
      if (event.skipped > 0) this.#spoolEntries.inc({ event: 'skipped-rows' }, event.skipped)
    }
  }

  reconciled(kind: string, result: string): void {
    this.#reconciles.inc({ kind, result })
  }

  evaluated(kind: 'policy' | 'ruleset', name: string, passed: boolean, durationMs: number): void {
    this.#evaluations.inc({ kind, name, result: passed ? 'pass' : 'fail' })
    this.#evaluationSeconds.observe({ kind }, durationMs / 1000)
  }

  admitted(operation: string, allowed: boolean, durationMs: number): void {
    this.#admissions.inc({ operation, allowed: String(allowed) })
    this.#admissionSeconds.observe({ operation }, durationMs / 1000)
  }

  auditBatch(report: BatchReport): void {
    this.#auditWriteSeconds.observe({ outcome: report.error === undefined ? 'ok' : 'error' }, report.durationMs / 1000)
  }

  rateLimited(): void {
    this.#rateLimited.inc()
  }
}
