import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../api/build-app.js'
import { auditRoutes } from '../api/routes/audits.js'
import { consoleRoutes } from '../api/routes/console.js'
import { serviceLoggerOptions } from './service-logger.js'
import { evaluationRoutes } from '../api/routes/evaluations.js'
import { NO_NAMESPACES, startAdmissionServer } from '../admission/index.js'
import { authoringRoutes } from '../api/routes/authoring.js'
import { labelRoutes } from '../api/routes/labels.js'
import { policyRoutes } from '../api/routes/policies.js'
import { recommendationRoutesOn } from '../api/routes/recommendations.js'
import { remediationRoutesOn } from '../api/routes/remediations.js'
import { rulesetRoutes } from '../api/routes/rulesets.js'
import { timeseriesRoutesOn } from '../api/routes/timeseries.js'
import { tokenRoutes } from '../api/routes/tokens.js'
import { whoamiRoutes } from '../api/routes/whoami.js'
import { AuditWriter } from '../audit/audit-writer.js'
import { logSpoolEvent, openAuditSpool } from '../audit/open-audit-spool.js'
import { startAuditPartitionJob } from '../audit/audit-partition-job.js'
import type { Config } from '../config.js'
import { setCelLimits, type ClusterData } from '../engine/index.js'
import { AuditQueryService } from '../services/audit-query-service.js'
import { DefinitionCatalog } from '../services/definition-catalog.js'
import { ChatCompletionsModel } from '../authoring/model/clause-model.js'
import { startController } from '../k8s/start-controller.js'
import { startOpsServer } from '../ops/ops-server.js'
import { VerdictMetrics } from '../ops/verdict-metrics.js'
import { AuthoringService } from '../services/authoring-service.js'
import { RulesetAuthor } from '../services/ruleset-author.js'
import { DefinitionService } from '../services/definition-service.js'
import { EvaluationService } from '../services/evaluation-service.js'
import { ExceptionApplications } from '../services/exception-applications.js'
import { ExceptionCatalog } from '../services/exception-catalog.js'
import { ExceptionService } from '../services/exception-service.js'
import { exceptionRoutes } from '../api/routes/exceptions.js'
import { TokenService } from '../services/token-service.js'
import type { Db } from '../store/db.js'
import { migrate } from '../store/migrate.js'
import type { PgliteImport } from '../store/embedded/pglite-store-import.js'
import { openDb } from '../store/open-db.js'
import { bootstrapAdminToken } from './bootstrap-admin-token.js'
import { readBuildInfo } from './build-info.js'
import { readiness } from './readiness.js'

export interface StartOptions {
  /** Interface to listen on; tests use 127.0.0.1. */
  host?: string
  /** pino options or false; default JSON logs at the configured level. */
  logger?: false | { level: string }
  /** The embedded database's server ended on its own: nothing can be stored until Verdict starts again, so `verdict serve` exits. */
  onStoreLost?: (reason: string) => void
  /** The clock exceptions are judged by (expiry, state); tests move it. The real time by default. */
  now?: () => Date
  /**
   * A store already open, served instead of the configured one (still migrated, and closed with the
   * server): tests start from a copy of a migrated template, as an empty PGlite costs seconds.
   */
  db?: Db
}

export interface RunningServer {
  readonly app: FastifyInstance
  readonly apiUrl: string
  /** The operations listener: /metrics, /healthz, /readyz. */
  readonly opsUrl: string
  /** The admission webhook (HTTPS, POST /validate) and the certificate it serves. */
  readonly webhook: { readonly port: number; readonly certFile: string }
  readonly db: Db
  readonly catalog: DefinitionCatalog
  readonly exceptions: ExceptionCatalog
  readonly tokens: TokenService
  /** Where the generated admin token was written, when this start made one. */
  readonly adminTokenFile: string | undefined
  close(): Promise<void>
}

/** The whole service on one store: migrations, tokens, definitions, audits, and the REST API listening. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // The store opens before the app that owns the logger exists; its server's lines log once there is one.
  const logger: { current?: FastifyBaseLogger } = {}
  let imported: PgliteImport | undefined
  const db = options.db ?? await openDb({
    onImported: (result) => (imported = result),
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    onServerLog: (line, level) => logger.current?.[level]({ postgres: line }, 'embedded database'),
    onServerExit: (code, signal) => {
      const reason = `the embedded database's server ended on its own (exit ${code ?? signal})`
      logger.current?.fatal(reason)
      options.onStoreLost?.(reason)
    },
  })
  const cleanups: (() => Promise<void>)[] = [() => db.close()]
  const closeAll = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
  try {
    // One budget for every evaluation of this process: REST, webhook, explanations and the controller's.
    setCelLimits({ maxCost: config.celMaxCost, maxMillis: config.celMaxMillis })
    await migrate(db)
    const tokens = new TokenService(db)
    await tokens.start()
    cleanups.push(() => tokens.stop())
    const bootstrap = await bootstrapAdminToken(tokens, {
      tokenFile: config.adminTokenFile,
      ...(config.bootstrapToken ? { bootstrapSecret: config.bootstrapToken } : {}),
    })
    const spool = await openAuditSpool(config, (detail) => logger.current?.error(detail, 'a damaged audit spool record was skipped (kept in rejected.log)'))
    const metrics = new VerdictMetrics({
      auditQueueDepth: () => audits.queueDepth,
      auditSpoolBytes: () => spool?.bytes ?? 0,
      auditSpooling: () => audits.spooling,
    })
    const audits = new AuditWriter(db, {
      onBatch: (report) => metrics.auditBatch(report),
      ...(spool ? { spool } : {}),
      onSpoolEvent: (event) => {
        metrics.spoolEvent(event)
        logSpoolEvent(logger.current, event, spool?.dir)
      },
    })
    cleanups.push(() => audits.close())
    const catalog = new DefinitionCatalog(db, {
      onError: (error) => logger.current?.error({ err: error }, 'refreshing rulesets and policies failed'),
      onSetAside: ({ kind, name, version, problems }) =>
        logger.current?.error({ kind, name, version, problems }, `stored ${kind} "${name}" is invalid (its schema or its expressions) and is set aside: nothing evaluates it until it is fixed or deleted`),
    })
    await catalog.start()
    cleanups.push(() => catalog.stop())
    const now = options.now ?? (() => new Date())
    const exceptions = new ExceptionCatalog(db, {
      onError: (error) => logger.current?.error({ err: error }, 'refreshing policy exceptions failed'),
      onSetAside: ({ name, version, problems }) =>
        logger.current?.error({ name, version, problems }, `stored exception "${name}" is invalid and is set aside: it lets nothing through until it is fixed or deleted`),
    })
    await exceptions.start()
    cleanups.push(() => exceptions.stop())
    const exemptions = () => exceptions.exemptions(now())
    const applications = new ExceptionApplications(db, { now, onError: (error) => logger.current?.warn({ err: error }, 'noting when policy exceptions last applied failed') })
    cleanups.push(() => applications.settled())
    const model = config.llmUrl
      ? new ChatCompletionsModel({ url: config.llmUrl, ...(config.llmModel ? { model: config.llmModel } : {}), ...(config.llmApiKey ? { apiKey: config.llmApiKey } : {}) })
      : undefined
    const definitions = new DefinitionService(db, catalog, { author: new RulesetAuthor(model ? { model } : {}) })
    const authoring = new AuthoringService(catalog)
    // The controller starts after the app (it logs through it); REST evaluations read its ConfigMap cache once it runs.
    const cluster: { current?: ClusterData } = {}
    const app = await buildApp({
      config,
      authenticate: (secret) => tokens.authenticate(secret),
      routes: [
        rulesetRoutes(definitions),
        policyRoutes(definitions),
        exceptionRoutes(new ExceptionService(db, exceptions, { now, requireExpiry: config.exceptionRequireExpiry })),
        evaluationRoutes(
          new EvaluationService(catalog, audits, {
            onEvaluated: (kind, name, passed, ms) => metrics.evaluated(kind, name, passed, ms),
            cluster: () => cluster.current,
            exemptions,
            onExempted: (exception) => {
              metrics.exempted(exception, 'api')
              applications.applied(exception)
            },
          }),
        ),
        auditRoutes(new AuditQueryService(db)),
        timeseriesRoutesOn(db),
        recommendationRoutesOn(db, catalog, { exceptions: () => exceptions.stored(), now, unusedExceptionDays: config.unusedExceptionDays }),
        remediationRoutesOn(db, catalog),
        labelRoutes(definitions, authoring),
        authoringRoutes(authoring),
        tokenRoutes(tokens),
        whoamiRoutes(),
        consoleRoutes(),
      ],
      version: readBuildInfo(),
      onRateLimited: () => metrics.rateLimited(),
      ...(options.logger === undefined ? await serviceLoggerOptions(config) : { logger: options.logger }),
    })
    logger.current = app.log
    if (imported) app.log.info({ tables: imported.tables, rows: imported.rows, movedTo: imported.movedTo }, 'copied the store an earlier Verdict kept in PGlite into the embedded PostgreSQL')
    // After the catalog (the controller writes through it) and stopped before it: a leader hands its Lease over first.
    const controller = await startController({
      config,
      db,
      catalog,
      logger: app.log.child({ component: 'controller' }),
      onReconciled: (kind, result) => metrics.reconciled(kind, result),
      writeAudits: (rows) => audits.write(rows),
      exceptions,
      onExempted: (exception) => applications.applied(exception),
      now,
      onEvents: (report) => metrics.eventReported(report),
    })
    if (controller) {
      cleanups.push(() => controller.stop())
      cluster.current = controller.configMaps
    }
    // Every replica answers admission reviews; closed before the audit writer so its last audits are committed.
    const admission = await startAdmissionServer({
      config,
      catalog,
      audits,
      namespaces: controller?.namespaces ?? NO_NAMESPACES,
      ...(controller ? { cluster: controller.configMaps } : {}),
      ...(controller?.events ? { events: controller.events } : {}),
      ...(controller?.generatedVaps ? { generatedVaps: controller.generatedVaps } : {}),
      logger: app.log.child({ component: 'admission' }),
      host: options.host ?? '0.0.0.0',
      onReview: (report) => metrics.admitted(report.operation, report.allowed, report.durationMs),
      exemptions,
      onExempted: (exception) => {
        metrics.exempted(exception, 'admission')
        applications.applied(exception)
      },
    })
    cleanups.push(() => admission.close())
    const ops = await startOpsServer({
      port: config.opsPort,
      host: options.host ?? '0.0.0.0',
      metrics,
      readiness: () => readiness({ db, audits, spool }),
    })
    cleanups.push(() => ops.close())
    app.log.info({ webhookPort: admission.port, certFile: admission.certFile }, 'admission webhook listening (HTTPS, POST /validate)')
    // The API stops taking requests first, then the audits it accepted are flushed.
    cleanups.push(() => app.close())
    await app.listen({ port: config.apiPort, host: options.host ?? '0.0.0.0' })
    const address = app.server.address() as AddressInfo
    const scheme = config.apiTlsCertFile ? 'https' : 'http'
    const apiUrl = `${scheme}://${options.host ?? '127.0.0.1'}:${address.port}`
    app.log.info({ apiUrl, store: config.databaseUrl ? 'postgresql' : config.dataDir === 'memory://' ? 'memory' : `embedded:${config.dataDir}` }, 'verdict API listening')
    if (bootstrap.tokenFile) app.log.info({ adminTokenFile: bootstrap.tokenFile, tokenId: bootstrap.tokenId }, 'created the first admin token; its secret is in this file')
    else if (bootstrap.tokenId) app.log.info({ tokenId: bootstrap.tokenId }, 'created the first admin token from VERDICT_BOOTSTRAP_TOKEN')
    else if (existsSync(config.adminTokenFile)) app.log.info({ adminTokenFile: config.adminTokenFile }, 'the admin token made at the first start is in this file')

    const partitions = startAuditPartitionJob({
      db,
      retentionDays: config.auditRetentionDays,
      // With a controller only its leader creates and drops; the database functions take a lock, so replicas outside Kubernetes never do it together.
      isLeader: () => controller?.isLeader() ?? true,
      logger: app.log.child({ component: 'audit-partitions' }),
    })
    cleanups.push(() => partitions.stop())

    return {
      app,
      apiUrl,
      opsUrl: `http://${options.host ?? '127.0.0.1'}:${ops.port}`,
      webhook: { port: admission.port, certFile: admission.certFile },
      db, catalog, exceptions, tokens, adminTokenFile: bootstrap.tokenFile, close: closeAll }
  } catch (error) {
    await closeAll()
    throw error
  }
}
