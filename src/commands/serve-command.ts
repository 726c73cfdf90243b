import { ConfigError, formatSettingsHelp, loadConfig } from '../config.js'
import { limitHeapGrowth } from '../server/heap-growth.js'
import { startIdleHeapRelease } from '../server/idle-heap-release.js'
import { startServer } from '../server/start-server.js'
import { resolvePath, type CliContext } from './cli-context.js'
import { UsageError } from './usage-error.js'

export const serveUsage = `verdict serve [--<setting> <value>...]

Starts the REST API (and, as they arrive, the admission webhook and the controller) on the
embedded store, or on PostgreSQL when VERDICT_DATABASE_URL is set. On an empty store it creates an
admin token and logs the file holding it.

`

export function serveHelp(): string {
  return `${serveUsage}${formatSettingsHelp()}`
}

/**
 * Runs until asked to stop (SIGINT or SIGTERM), then drains requests and flushes audits before
 * exiting 0. When the embedded database's server ends on its own it exits 1 the same way, so the pod
 * restarts and starts the server again, rather than answering 503 for ever.
 */
export async function runServe(argv: string[], _print: (line: string) => void, _warn: (line: string) => void, context: CliContext): Promise<number> {
  let config
  try {
    config = loadConfig(context.env, argv)
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message)
    throw error
  }
  // The service is the process: its files (data directory, certificates) are named from the process's
  // working directory, and a context elsewhere would read others than it says.
  if (resolvePath(context, '.') !== process.cwd()) throw new UsageError(`serve: runs in the working directory of its own process (${process.cwd()}), not ${context.cwd}`)
  let storeLost = (): void => {}
  const lost = new Promise<number>((resolve) => (storeLost = () => resolve(1)))
  // Process-wide memory policy belongs to the process that serves, not to startServer (tests and
  // embedders run many servers in one process): before start-up's allocations, the first burst it bounds.
  limitHeapGrowth()
  const server = await startServer(config, { onStoreLost: () => storeLost() })
  const heapRelease = startIdleHeapRelease({
    onRelease: ({ rssBefore, rssAfter, ms }) =>
      server.app.log.info({ rssBeforeMiB: mebibytes(rssBefore), rssAfterMiB: mebibytes(rssAfter), ms: Math.round(ms) }, 'returned memory to the system after a burst'),
  })
  const code = await Promise.race([lost, context.untilStopped().then(() => 0)])
  heapRelease.stop()
  server.app.log.info('shutting down: draining requests and flushing audits')
  await server.close()
  return code
}

function mebibytes(bytes: number): number {
  return Math.round(bytes / 104857.6) / 10
}
