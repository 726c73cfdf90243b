import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AuditSpool, SpoolFullError } from '../../src/audit/audit-spool.js'
import type { AuditRows } from '../../src/store/audits-repository.js'

function evaluation(requestId: string, size = 20): AuditRows {
  const updatedAt = new Date('2026-11-21T10:00:00.123Z')
  const input = JSON.stringify({ id: requestId, pad: 'x'.repeat(size) })
  return {
    policyAudits: [{ requestId, policyName: 'p', input, inputFormat: 'json', output: { policy: 'p', passed: true, results: [] }, updatedBy: 'u', updatedAt }],
    rulesetAudits: [{ requestId, rulesetName: 'r', input, inputFormat: 'json', output: { ruleset: 'r', passed: true, results: [] }, updatedBy: 'u', updatedAt }],
  }
}

/** Reads and acknowledges everything; the request ids in order. */
async function drain(spool: AuditSpool): Promise<string[]> {
  const ids: string[] = []
  for (let chunk = await spool.read(); chunk; chunk = await spool.read()) {
    ids.push(...chunk.entries.map((entry) => entry.policyAudits[0]?.requestId ?? ''))
    await chunk.acknowledge()
  }
  return ids
}

describe('AuditSpool', () => {
  let dir: string
  const damaged: string[] = []

  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'verdict-spool-')), 'spool')
    damaged.length = 0
  })

  afterEach(async () => {
    await rm(join(dir, '..'), { recursive: true, force: true })
  })

  const open = (options: { maxBytes?: number; segmentBytes?: number } = {}) =>
    AuditSpool.open({ dir, ...options, onDamagedRecord: (detail) => damaged.push(detail.reason) })

  it('gives back what was appended, in order, with dates as dates, and is empty once acknowledged', async () => {
    const spool = await open()
    expect(spool.isEmpty).toBe(true)
    await spool.append([evaluation('a'), evaluation('b')])
    await spool.append([evaluation('c')])
    expect(spool.isEmpty).toBe(false)
    const chunk = await spool.read()
    expect(chunk?.entries).toEqual([evaluation('a'), evaluation('b'), evaluation('c')])
    expect(chunk?.entries[0]?.policyAudits[0]?.updatedAt).toBeInstanceOf(Date)
    await chunk?.acknowledge()
    expect(await spool.read()).toBeUndefined()
    expect(spool.isEmpty).toBe(true)
    expect(spool.bytes).toBe(0)
    expect((await readdir(dir)).filter((name) => name.endsWith('.log'))).toEqual([])
    await spool.close()
  })

  it('gathers the appends of one turn of the event loop into one write', async () => {
    const spool = await open()
    await Promise.all([spool.append([evaluation('a')]), spool.append([evaluation('b')]), spool.append([evaluation('c')])])
    expect(await readdir(dir)).toEqual(['000000000001.log'])
    expect((await readFile(join(dir, '000000000001.log'), 'utf8')).split('\n')).toHaveLength(4)
    await spool.close()
  })

  it('a released chunk is read again; an acknowledged one never', async () => {
    const spool = await open()
    await spool.append([evaluation('a'), evaluation('b')])
    const first = await spool.read()
    await expect(spool.read()).rejects.toThrow('not acknowledged')
    first?.release()
    expect(await drain(spool)).toEqual(['a', 'b'])
    await spool.close()
  })

  it('rolls over to new segment files and reads across them, deleting each once read', async () => {
    const spool = await open({ segmentBytes: 1000 })
    for (let index = 0; index < 12; index += 1) await spool.append([evaluation(`e${index}`, 200)])
    const segments = (await readdir(dir)).filter((name) => name.endsWith('.log'))
    expect(segments.length).toBeGreaterThan(3)
    expect(await drain(spool)).toEqual(Array.from({ length: 12 }, (_, index) => `e${index}`))
    expect((await readdir(dir)).filter((name) => name.endsWith('.log'))).toEqual([])
    await spool.close()
  })

  it('keeps everything across a close and reopen; new appends come after the old ones', async () => {
    const first = await open()
    await first.append([evaluation('old-1'), evaluation('old-2')])
    await first.close()
    const second = await open()
    expect(second.isEmpty).toBe(false)
    expect(second.bytes).toBeGreaterThan(0)
    await second.append([evaluation('new-1')])
    expect(await drain(second)).toEqual(['old-1', 'old-2', 'new-1'])
    await second.close()
  })

  it('skips a torn record at the end of a segment (a crash mid-append) and reports it', async () => {
    const first = await open()
    await first.append([evaluation('whole')])
    await first.close()
    await appendFile(join(dir, '000000000001.log'), '0badc0de {"v":1,"rows":{"policyAu')
    const second = await open()
    expect(await drain(second)).toEqual(['whole'])
    expect(damaged).toEqual(['torn record at the end of a segment'])
    expect(second.isEmpty).toBe(true)
    await second.close()
  })

  it('skips a damaged record in the middle, keeps it in rejected.log, and reads the rest', async () => {
    const first = await open()
    await first.append([evaluation('a'), evaluation('b'), evaluation('c')])
    await first.close()
    const path = join(dir, '000000000001.log')
    const lines = (await readFile(path, 'utf8')).split('\n')
    lines[1] = (lines[1] ?? '').replace('"b"', '"B"')
    await writeFile(path, lines.join('\n'))
    const second = await open()
    expect(await drain(second)).toEqual(['a', 'c'])
    expect(damaged).toEqual(['checksum mismatch'])
    // The copy is appended without waiting; give it a moment by re-reading until it is there.
    let rejected = ''
    for (let attempt = 0; attempt < 50 && !rejected.includes('"B"'); attempt += 1) {
      rejected = await readFile(join(dir, 'rejected.log'), 'utf8').catch(() => '')
      if (!rejected.includes('"B"')) await new Promise((resolve) => setImmediate(resolve))
    }
    expect(rejected).toContain('"B"')
    await second.close()
  })

  it('refuses appends beyond maxBytes with SpoolFullError and keeps what it took', async () => {
    const spool = await open({ maxBytes: 2500 })
    await spool.append([evaluation('fits', 300)])
    await expect(spool.append([evaluation('too-big', 2000)])).rejects.toBeInstanceOf(SpoolFullError)
    await spool.append([evaluation('fits-too', 300)])
    expect(await drain(spool)).toEqual(['fits', 'fits-too'])
    await spool.close()
  })

  it('is empty again when the reader caught up while an append was under way that then failed', async () => {
    const spool = await open({ maxBytes: 2500 })
    await spool.append([evaluation('kept', 300)])
    const chunk = await spool.read()
    const refused = spool.append([evaluation('too-big', 3000)]).catch((error: unknown) => error)
    await chunk?.acknowledge()
    expect(await refused).toBeInstanceOf(SpoolFullError)
    expect(await spool.read()).toBeUndefined()
    expect(spool.isEmpty).toBe(true)
    await spool.close()
  })

  it('a segment left empty by a crash right after its creation is removed at open', async () => {
    const first = await open()
    await first.close()
    await writeFile(join(dir, '000000000007.log'), '')
    await truncate(join(dir, '000000000007.log'), 0)
    const second = await open()
    expect(second.isEmpty).toBe(true)
    expect(await readdir(dir)).toEqual([])
    await second.close()
  })

  it('refuses appends after close', async () => {
    const spool = await open()
    await spool.close()
    await expect(spool.append([evaluation('late')])).rejects.toThrow('closed')
  })
})
