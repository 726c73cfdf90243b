import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export interface ServedProcess {
  child: ChildProcess
  apiUrl: string
  /** Every JSON log line so far (more arrive while it runs). */
  logs: Record<string, unknown>[]
}

/**
 * Starts `bin/verdict serve` (the built CLI, as `make run` does) on ephemeral ports with extra
 * arguments and environment, and resolves once it logs where the API listens.
 */
export function serveProcess(args: readonly string[], env: Record<string, string> = {}): Promise<ServedProcess> {
  const child = spawn(join(repoRoot, 'bin', 'verdict'), ['serve', '--api-port', '0', '--webhook-port', '0', '--ops-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  })
  const logs: Record<string, unknown>[] = []
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      let newline: number
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>
        buffer = buffer.slice(newline + 1)
        logs.push(line)
        if (typeof line.apiUrl === 'string') {
          child.removeAllListeners('exit')
          resolve({ child, apiUrl: line.apiUrl, logs })
        }
      }
    })
  })
}

/** Sends `signal` and resolves with the exit code (null when killed by the signal). */
export function stopProcess(served: ServedProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (served.child.exitCode !== null) return resolve(served.child.exitCode)
    served.child.once('exit', (code) => resolve(code))
    served.child.kill(signal)
  })
}
