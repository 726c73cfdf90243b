import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fixtures, repoRoot, type CliRun } from './run-cli.js'

/** Runs the CLI without blocking this process, so that a server running in it (a Verdict, a fake API server) can answer. */
export function runCliAsync(args: string[], env: Record<string, string | undefined> = {}, cwd: string = fixtures): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, 'bin', 'verdict'), args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}
