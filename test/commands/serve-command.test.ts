import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { repoRoot } from './run-cli.js'

interface Served {
  child: ChildProcess
  apiUrl: string
  logs: Record<string, unknown>[]
}

/** Starts `bin/verdict serve` as `make run` does, on an ephemeral port, and waits for its listening line. */
function serve(dataDir: string): Promise<Served> {
  const child = spawn(join(repoRoot, 'bin', 'verdict'), ['serve', '--api-port', '0', '--webhook-port', '0', '--ops-port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
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

function stop(served: Served): Promise<number | null> {
  return new Promise((resolve) => {
    served.child.once('exit', (code) => resolve(code))
    served.child.kill('SIGTERM')
  })
}

describe('verdict serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-serve-'))
  const dataDir = join(dir, 'data')

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('logs where the admin token is, serves, and on SIGTERM exits 0 with its audits kept', async () => {
    const first = await serve(dataDir)
    const tokenFile = join(dataDir, 'admin-token')
    expect(first.logs).toContainEqual(expect.objectContaining({ adminTokenFile: tokenFile }))
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
    const token = readFileSync(tokenFile, 'utf8').trim()
    expect(JSON.stringify(first.logs)).not.toContain(token)
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const created = await fetch(`${first.apiUrl}/api/rulesets/r`, { method: 'POST', headers, body: JSON.stringify({ rules: [{ name: 'a', validate: { cel: [{ expression: 'true' }] } }] }) })
    expect(created.status).toBe(201)
    const evaluation = (await (await fetch(`${first.apiUrl}/api/eval/rulesets/r`, { method: 'POST', headers, body: '{"inputData": {}}' })).json()) as { requestId: string }
    expect(await stop(first)).toBe(0)

    const second = await serve(dataDir)
    try {
      expect(second.logs).toContainEqual(expect.objectContaining({ adminTokenFile: tokenFile }))
      const audits = await fetch(`${second.apiUrl}/api/audits/rulesets/uuid/${evaluation.requestId}`, { headers })
      expect(audits.status).toBe(200)
      expect(((await audits.json()) as { rulesetAudits: unknown[] }).rulesetAudits).toHaveLength(1)
    } finally {
      expect(await stop(second)).toBe(0)
    }
  })
})
