import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { AuditWriter } from '../audit/audit-writer.js'
import type { Config } from '../config.js'
import type { ClusterData, Exemptions } from '../engine/index.js'
import type { ViolationEvents } from '../events/violation.js'
import type { DefinitionCatalog } from '../services/definition-catalog.js'
import type { AdmissionLogger } from './admission-logger.js'
import { AdmissionPolicies } from './admission-policies.js'
import { BoundedAuditRecorder } from './bounded-audit-recorder.js'
import { handleAdmissionReview, type ReviewErrorBody, type ReviewOutcome } from './handle-admission-review.js'
import type { GeneratedVapView } from './generated-vap-view.js'
import type { NamespaceSource } from './namespace-source.js'
import { readBody } from './read-body.js'
import { VapDelegation } from './vap-delegation.js'
import { CertificateReloader, type KeyPair } from './tls/certificate-reloader.js'
import { webhookCertificateFiles } from './tls/webhook-certificate-files.js'

export type AdmissionServerConfig = Pick<Config, 'webhookPort' | 'tlsCertFile' | 'tlsKeyFile' | 'dataDir' | 'podNamespace'>

export interface AdmissionServerDeps {
  config: AdmissionServerConfig
  catalog: DefinitionCatalog
  audits: AuditWriter
  namespaces: NamespaceSource
  /** ConfigMaps for context entries (the controller's cache); absent without a cluster. */
  cluster?: ClusterData
  logger: AdmissionLogger
  /** Interface to listen on; default every interface. */
  host?: string
  /**
   * Longest a review waits for its audit commit before it is answered anyway. Default 0: answered
   * as soon as it is decided, the audits committed by the group-commit writer right after. Measured
   * with bench/admission.ts, waiting for a durable commit put PostgreSQL's insert and fsync time
   * into every review: p99 26-200 ms against 3-6 ms at 500 reviews/s on two cores.
   */
  auditWaitMs?: number
  /**
   * With auditWaitMs 0: how long audits gather before going to the writer together; default 10 ms.
   * At 500 reviews/s the writer otherwise commits almost every review on its own (the commit
   * finishes before the next review arrives), and PostgreSQL's per-commit work then costs as
   * much CPU as the webhook itself.
   */
  auditGatherMs?: number
  /** How often the certificate files are compared with what is served; default 5 s. */
  certificateCheckMs?: number
  /** Service names the generated certificate is valid for (with their namespace forms); default `verdict`. */
  serviceNames?: readonly string[]
  /** Namespaces whose requests are allowed unjudged; default Verdict's own (config.podNamespace). */
  exemptNamespaces?: readonly string[]
  /** Largest AdmissionReview accepted; default 16 MiB. */
  maxBodyBytes?: number
  /** Called after every judged or skipped review, for metrics. */
  onReview?: (report: ReviewReport) => void
  /** The PolicyExceptions honoured and the clock they are judged at, asked for at each review; none when absent. */
  exemptions?: () => Exemptions
  /** Hears of each rule result an exception let through (metrics). */
  onExempted?: (exception: string) => void
  /** Where denials are recorded as Kubernetes Events (the controller's recorder); none when absent. */
  events?: ViolationEvents
  /**
   * The generated ValidatingAdmissionPolicies in the cluster (the controller's watch): the rules
   * those in force judge are left to the API server. None when absent.
   */
  generatedVaps?: GeneratedVapView
}

export interface ReviewReport extends ReviewOutcome {
  durationMs: number
}

export interface AdmissionServer {
  /** The bound port (the configured one, or the ephemeral one for port 0). */
  readonly port: number
  /** The certificate being served: the configured file or the generated one. */
  readonly certFile: string
  /** Hands the audits gathered so far to the audit writer now (its flush() then commits them). */
  flushAudits(): void
  /** Stops listening, lets the reviews in progress finish, stops following certificate files, hands the last audits to the writer. */
  close(): Promise<void>
}

/**
 * An object and its oldObject are each up to etcd's 1.5 MiB, and JSON of a decoded object can be
 * larger than its stored form; a review refused for size is a failed webhook call for the API
 * server, so the limit is generous rather than the REST API's.
 */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024
/**
 * The API server's webhook client keeps idle connections for 90 s. A server that closes them
 * first races the client reusing one, and a POST lost that way is not retried: a failed call.
 */
const KEEP_ALIVE_MS = 120_000
/** After close(), reviews still running get this long before their connections are cut. */
const CLOSE_GRACE_MS = 5_000

/** The validating admission webhook: HTTPS, `POST /validate` (AdmissionReview v1) and `GET /healthz`. */
export async function startAdmissionServer(deps: AdmissionServerDeps): Promise<AdmissionServer> {
  const { config, logger } = deps
  const files = await webhookCertificateFiles(config, deps.serviceNames ?? ['verdict'], logger)
  // Only start() makes the reloader apply a pair, and that happens once the server exists.
  const reloader = new CertificateReloader(files, (pair: KeyPair) => server.setSecureContext(pair), {
    logger,
    ...(deps.certificateCheckMs === undefined ? {} : { checkEveryMs: deps.certificateCheckMs }),
  })
  const initial = await reloader.load()
  const policies = new AdmissionPolicies(deps.catalog)
  // Compiles every admission ruleset now rather than in the first review, which would wait for it.
  policies.current()
  const audits = new BoundedAuditRecorder(deps.audits, logger, {
    waitMs: deps.auditWaitMs ?? 0,
    ...(deps.auditGatherMs === undefined ? {} : { gatherMs: deps.auditGatherMs }),
  })
  const delegation = deps.generatedVaps ? new VapDelegation(deps.catalog, deps.generatedVaps, deps.namespaces) : undefined
  const reviewDeps = {
    policies,
    namespaces: deps.namespaces,
    ...(deps.cluster ? { cluster: deps.cluster } : {}),
    audits,
    skip: { exemptNamespaces: new Set(deps.exemptNamespaces ?? [config.podNamespace]) },
    logger,
    ...(deps.exemptions ? { exemptions: deps.exemptions } : {}),
    ...(deps.onExempted ? { onExempted: deps.onExempted } : {}),
    ...(deps.events ? { events: deps.events } : {}),
    ...(delegation ? { delegation } : {}),
  }
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const onReview = deps.onReview ?? (() => {})

  const validate = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = performance.now()
    const body = await readBody(request, maxBodyBytes)
    if (body.tooLarge) {
      sendJson(response, 413, { error: 'payload too large', details: `body: an AdmissionReview must not exceed ${maxBodyBytes} bytes` }, true)
      return
    }
    const handled = await handleAdmissionReview(body.text, reviewDeps)
    sendJson(response, handled.status, handled.body)
    if (handled.outcome) notify(onReview, { ...handled.outcome, durationMs: performance.now() - started }, logger)
  }

  const server: Server = createServer({ ...initial, keepAliveTimeout: KEEP_ALIVE_MS, requestTimeout: 30_000 }, (request, response) => {
    route(request, response, validate).catch((error: unknown) => {
      logger.error({ err: error, url: request.url }, 'admission review failed')
      if (!response.headersSent) sendJson(response, 500, { error: 'internal error', details: 'the review could not be judged; the webhook log has the cause' })
      else response.destroy()
    })
  })
  server.on('tlsClientError', (error) => logger.debug({ err: error }, 'webhook TLS handshake failed'))
  try {
    await listen(server, config.webhookPort, deps.host)
  } catch (error) {
    policies.close()
    delegation?.close()
    throw error
  }
  reloader.start()
  const port = (server.address() as AddressInfo).port
  logger.info({ port, certFile: files.certFile }, 'admission webhook listening (POST /validate)')

  return {
    port,
    certFile: files.certFile,
    flushAudits: () => audits.flush(),
    async close() {
      reloader.stop()
      policies.close()
      delegation?.close()
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
      await new Promise<void>((resolve) => server.close(() => resolve()))
      clearTimeout(cut)
      // The audits of the last reviews go to the writer, whose close() commits them.
      audits.flush()
    },
  }
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  validate: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<void> {
  // The API server appends `?timeout=10s` to the path it was given.
  const path = (request.url ?? '/').split('?', 1)[0]
  if (path === '/validate') {
    if (request.method === 'POST') return validate(request, response)
    return methodNotAllowed(request, response, 'POST')
  }
  if (path === '/healthz') {
    if (request.method === 'GET' || request.method === 'HEAD') return sendJson(response, 200, { status: 'ok' })
    return methodNotAllowed(request, response, 'GET, HEAD')
  }
  request.resume()
  sendJson(response, 404, { error: 'not found', details: `path: ${path} is not served here; AdmissionReviews go to POST /validate` })
}

function methodNotAllowed(request: IncomingMessage, response: ServerResponse, allow: string): void {
  request.resume()
  response.setHeader('allow', allow)
  sendJson(response, 405, { error: 'method not allowed', details: `method: ${request.method ?? ''} is not allowed here; use ${allow}` })
}

function sendJson(response: ServerResponse, status: number, body: object | ReviewErrorBody, closeConnection = false): void {
  const text = JSON.stringify(body)
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }
  // The unread rest of a refused body would otherwise be parsed as the next request.
  if (closeConnection) headers.connection = 'close'
  response.writeHead(status, headers)
  response.end(text)
}

function notify(onReview: (report: ReviewReport) => void, report: ReviewReport, logger: AdmissionLogger): void {
  try {
    onReview(report)
  } catch (error) {
    // A metrics callback must not turn an answered review into an error.
    logger.warn({ err: error }, 'the admission review observer failed')
  }
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    const done = (): void => {
      server.off('error', reject)
      resolve()
    }
    if (host === undefined) server.listen(port, done)
    else server.listen(port, host, done)
  })
}
