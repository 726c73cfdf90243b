import { readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { temporaryDataParent } from '../support/data-directory.js'
import { serveProcess, stopProcess, type ServedProcess } from '../support/serve-process.js'

/** `bin/verdict serve` as `make run` starts it. */
function serve(dataDir: string): Promise<ServedProcess> {
  return serveProcess(['--data-dir', dataDir])
}

const stop = (served: ServedProcess) => stopProcess(served)

describe('verdict serve', () => {
  const dir = temporaryDataParent('verdict-serve-')
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
