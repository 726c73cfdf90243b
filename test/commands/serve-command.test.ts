import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { temporaryDataParent } from '../support/data-directory.js'
import { serveProcess, stopProcess, type ServedProcess } from '../support/serve-process.js'

/** `bin/verdict serve` as `make run` starts it. */
function serve(dataDir: string): Promise<ServedProcess> {
  return serveProcess(['--data-dir', dataDir])
}

const stop = (served: ServedProcess, signal?: NodeJS.Signals) => stopProcess(served, signal)

/** Polls a condition until it holds: the test waits for what happens, never for a length of time. */
function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (condition()) return resolve()
      if (Date.now() > deadline) return reject(new Error(`gave up waiting for ${what}`))
      setTimeout(check, 20)
    }
    check()
  })
}

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

  it('killed (SIGKILL) under load keeps every answered evaluation\'s audit, stops its PostgreSQL, and starts again on the same store', async () => {
    const killedDir = join(dir, 'killed')
    const first = await serve(killedDir)
    const token = readFileSync(join(killedDir, 'admin-token'), 'utf8').trim()
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const created = await fetch(`${first.apiUrl}/api/rulesets/r`, { method: 'POST', headers, body: JSON.stringify({ rules: [{ name: 'a', validate: { cel: [{ expression: 'has(object.n)' }] } }] }) })
    expect(created.status).toBe(201)
    const answered: string[] = []
    let sent = 0
    const client = async (): Promise<void> => {
      for (;;) {
        sent += 1
        try {
          const response = await fetch(`${first.apiUrl}/api/eval/rulesets/r`, { method: 'POST', headers, body: JSON.stringify({ inputData: { n: sent } }) })
          if (response.status === 200) answered.push(((await response.json()) as { requestId: string }).requestId)
        } catch {
          return // the process is gone
        }
      }
    }
    const clients = Array.from({ length: 8 }, () => client())
    await until(() => answered.length >= 200, 'answered evaluations')
    expect(await stop(first, 'SIGKILL')).toBeNull()
    await Promise.all(clients)
    // The watchdog shuts its PostgreSQL down once the pipe from the killed process closes.
    await until(() => !existsSync(join(killedDir, 'postgres', 'postmaster.pid')), 'the embedded PostgreSQL to stop')

    const second = await serve(killedDir)
    try {
      const found = new Set<string>()
      for (let page = 1; ; page += 1) {
        const listed = (await (await fetch(`${second.apiUrl}/api/audits/rulesets/r?page=${page}&pageSize=1000`, { headers })).json()) as { rulesetAudits: { requestId: string }[] }
        for (const audit of listed.rulesetAudits) found.add(audit.requestId)
        if (listed.rulesetAudits.length < 1000) break
      }
      expect(answered.filter((id) => !found.has(id))).toEqual([])
    } finally {
      expect(await stop(second)).toBe(0)
    }
  })

  it('exits 1 when its embedded PostgreSQL ends on its own, so the pod restarts it', async () => {
    const lostDir = join(dir, 'lost')
    const served = await serve(lostDir)
    const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)))
    const postmaster = Number(readFileSync(join(lostDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])
    process.kill(postmaster, 'SIGKILL')
    expect(await exited).toBe(1)
    expect(served.logs).toContainEqual(expect.objectContaining({ level: 60, msg: expect.stringMatching(/^the embedded database's server ended on its own/) }))
  })
})

