import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))))
export const fixtures = join(repoRoot, 'test', 'fixtures')

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs bin/verdict as a user would, from the fixtures folder so paths in messages stay short. */
export function runCli(args: string[], cwd: string = fixtures, input?: string): CliRun {
  const run = spawnSync(join(repoRoot, 'bin', 'verdict'), args, { cwd, encoding: 'utf8', ...(input === undefined ? {} : { input }) })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}
