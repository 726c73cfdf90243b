import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import * as yaml from 'js-yaml'
import { expect } from 'vitest'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAdmissionServer, type AdmissionServer, type AdmissionServerDeps } from '../../src/admission/admission-server.js'
import type { AdmissionLogger } from '../../src/admission/admission-logger.js'
import type { NamespaceSource } from '../../src/admission/namespace-source.js'
import { AuditWriter } from '../../src/audit/audit-writer.js'
import { importDocuments } from '../../src/import/index.js'
import { DefinitionCatalog } from '../../src/services/definition-catalog.js'
import { DefinitionService } from '../../src/services/definition-service.js'
import { listPolicyAudits, rulesetAuditsByRequestId, type PolicyAuditRecord, type RulesetAuditRecord } from '../../src/store/audits-repository.js'
import type { Db } from '../../src/store/db.js'
import { createTestDatabase, type TestDatabase } from '../support/databases.js'
import type { HttpsTarget } from './https-client.js'

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error'
  fields: object
  message: string
}

/** A logger that keeps what it is told, for assertions on what the webhook logs. */
export function recordingLogger(): AdmissionLogger & { lines: LogLine[] } {
  const lines: LogLine[] = []
  const at = (level: LogLine['level']) => (fields: object, message: string) => void lines.push({ level, fields, message })
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/** Namespaces as an informer would hold them, from name and labels. */
export function fixedNamespaces(labels: Record<string, Record<string, string>>): NamespaceSource {
  return {
    get: (name) =>
      labels[name] ? { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels[name] } } } : undefined,
  }
}

export interface Harness {
  database: TestDatabase
  db: Db
  catalog: DefinitionCatalog
  definitions: DefinitionService
  audits: AuditWriter
  logger: AdmissionLogger & { lines: LogLine[] }
  dataDir: string
  /** Commits every audit the webhooks started here have taken so far. */
  settleAudits(): Promise<void>
  /** Starts a webhook on this store; every server started is closed by close(). */
  start(overrides?: Partial<AdmissionServerDeps>): Promise<AdmissionServer & { target: HttpsTarget }>
  close(): Promise<void>
}

/** A PGlite store with catalog, audit writer and definition service, as the service composes them. */
export async function startHarness(): Promise<Harness> {
  const database = await createTestDatabase('pglite')
  const db = database.db
  const catalog = new DefinitionCatalog(db)
  await catalog.start()
  const audits = new AuditWriter(db)
  const definitions = new DefinitionService(db, catalog)
  const logger = recordingLogger()
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-admission-'))
  const servers: AdmissionServer[] = []
  return {
    database,
    db,
    catalog,
    definitions,
    audits,
    logger,
    dataDir,
    async settleAudits() {
      for (const server of servers) server.flushAudits()
      await audits.flush()
    },
    async start(overrides = {}) {
      const server = await startAdmissionServer({
        config: { webhookPort: 0, dataDir, podNamespace: 'verdict', tlsCertFile: undefined, tlsKeyFile: undefined },
        catalog,
        audits,
        namespaces: { get: () => undefined },
        logger,
        host: '127.0.0.1',
        ...overrides,
      })
      servers.push(server)
      return Object.assign(server, { target: { port: server.port, ca: readFileSync(server.certFile) } })
    },
    async close() {
      for (const server of servers) await server.close()
      await audits.close()
      await catalog.stop()
      await database.dispose()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Every policy audit written under one request id (an admission review writes one per judging policy). */
export async function policyAuditsOf(db: Db, requestId: string): Promise<PolicyAuditRecord[]> {
  const all = await listPolicyAudits(db, { name: '*', start: new Date(0), end: new Date(Date.now() + 60_000), page: 1, pageSize: 1000 })
  return all.filter((audit) => audit.requestId === requestId).sort((a, b) => a.policyName.localeCompare(b.policyName))
}

export async function rulesetAuditsOf(db: Db, requestId: string): Promise<RulesetAuditRecord[]> {
  return (await rulesetAuditsByRequestId(db, requestId)).sort((a, b) => a.rulesetName.localeCompare(b.rulesetName))
}

/** Imports foreign policy documents (YAML) and stores what they became, requiring that no rule was skipped. */
export async function storeImported(h: Harness, documentsYaml: string, by: string): Promise<void> {
  for (const document of importDocuments(yaml.loadAll(documentsYaml))) {
    expect(document.skipped).toEqual([])
    for (const { name, ...ruleset } of document.rulesets) await h.definitions.createRuleset(name, ruleset, { by })
    for (const { name, ...policy } of document.policies) await h.definitions.createPolicy(name, policy, { by })
  }
}
