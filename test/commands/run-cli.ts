import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CliContext } from '../../src/commands/cli-context.js'
import { runCli as runCommandLine } from '../../src/commands/run-cli.js'

export const repoRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))))
export const fixtures = join(repoRoot, 'test', 'fixtures')

export interface CliRun {
  /** The exit status; null when a process was ended by a signal. */
  status: number | null
  stdout: string
  stderr: string
}

export interface CliRunOptions {
  /** The working directory (default the fixtures folder, so paths in messages stay short). */
  cwd?: string
  /** Standard input; without it, an empty pipe (never a terminal). */
  input?: string
  /** Over this process's environment; undefined unsets a variable. */
  env?: Record<string, string | undefined>
}

/**
 * Runs `verdict <args>` in this process, through the function bin/verdict runs, and answers what a
 * user would see: its output and exit status. Servers the test runs in this process (a Verdict, a
 * fake API server) answer it while it runs.
 */
export async function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const context: CliContext = {
    cwd: options.cwd ?? fixtures,
    env: { ...process.env, ...options.env },
    stdin: { isTTY: false, read: () => options.input ?? '' },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    untilStopped: () => new Promise<void>(() => {}),
  }
  const status = await runCommandLine(args, context)
  return { status, stdout, stderr }
}

/** Runs the built bin/verdict as a process: for what only a process shows (its exit status, signals, a real pipe). */
export function runCliProcess(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, 'bin', 'verdict'), args, { cwd: options.cwd ?? fixtures, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}
