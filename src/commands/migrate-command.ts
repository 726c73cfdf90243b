import { migrate } from '../store/migrate.js'
import type { CliContext } from './cli-context.js'
import { openConfiguredStore } from './store-access.js'
import { UsageError } from './usage-error.js'

export const migrateUsage = `verdict migrate [--data-dir DIR | --database-url URL]

Applies the store's schema migrations (the service also does this at start) and lists what it applied.`

export async function runMigrate(argv: string[], print: (line: string) => void, _warn: (line: string) => void, context: CliContext): Promise<number> {
  const { db, rest } = await openConfiguredStore(argv, context, { migrate: false })
  try {
    if (rest.length > 0) throw new UsageError(`migrate: unexpected argument ${rest[0]}`)
    const { applied } = await migrate(db)
    for (const name of applied) print(`applied ${name}`)
    print(applied.length === 0 ? 'the schema is up to date' : `${applied.length} migrations applied`)
    return 0
  } finally {
    await db.close()
  }
}
