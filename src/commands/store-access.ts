import { ConfigError, loadConfig } from '../config.js'
import type { Db } from '../store/db.js'
import { migrate } from '../store/migrate.js'
import { MEMORY_DATA_DIR, openDb } from '../store/open-db.js'
import { resolvePath, type CliContext } from './cli-context.js'
import { UsageError } from './usage-error.js'

/**
 * The store the service would use with the same environment and flags, migrated unless asked not
 * to; a relative data directory is below the context's cwd.
 */
export async function openConfiguredStore(argv: string[], context: CliContext, options: { migrate?: boolean } = {}): Promise<{ db: Db; rest: string[] }> {
  const { settings, rest } = splitSettingFlags(argv)
  let config
  try {
    config = loadConfig(context.env, settings)
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message)
    throw error
  }
  const db = await openDb({
    dataDir: config.dataDir === MEMORY_DATA_DIR ? config.dataDir : resolvePath(context, config.dataDir),
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    onImported: ({ tables, rows, movedTo }) => context.stderr.write(`copied the store an earlier Verdict kept in PGlite (${rows} rows in ${tables} tables) into the embedded PostgreSQL; the earlier store is now ${movedTo}\n`),
  })
  try {
    if (options.migrate !== false) await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return { db, rest }
}

const STORE_FLAGS = ['--data-dir', '--database-url']

/** `--data-dir` and `--database-url` choose the store; every other argument belongs to the command. */
function splitSettingFlags(argv: string[]): { settings: string[]; rest: string[] } {
  const settings: string[] = []
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const flag = STORE_FLAGS.find((name) => arg === name || arg.startsWith(`${name}=`))
    if (!flag) rest.push(arg)
    else if (arg.includes('=')) settings.push(arg)
    else settings.push(arg, argv[++i] ?? '')
  }
  return { settings, rest }
}
