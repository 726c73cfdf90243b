import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { ScanInputError } from '../scan-error.js'

const MANIFEST_FILE = /\.(ya?ml|json)$/i

/**
 * The files named, with each directory replaced by the *.yaml, *.yml and *.json files below it,
 * sorted so that results come in the same order on every machine. `-` (standard input) passes
 * through. Hidden entries (.git, .github) are not walked: they hold no manifests to judge. A file
 * named explicitly is read whatever its extension.
 */
export function manifestFiles(paths: readonly string[]): string[] {
  const files: string[] = []
  const walked = new Set<string>()
  for (const path of paths) {
    if (path === '-') {
      files.push(path)
      continue
    }
    if (statOf(path).isDirectory()) walk(path, files, walked)
    else files.push(path)
  }
  return [...new Set(files)]
}

function walk(directory: string, files: string[], walked: Set<string>): void {
  // A symbolic link back up the tree would otherwise be walked forever.
  const real = realpathSync(directory)
  if (walked.has(real)) return
  walked.add(real)
  const names = readdirSync(directory).filter((name) => !name.startsWith('.')).sort()
  for (const name of names) {
    const path = join(directory, name)
    const stat = statOf(path)
    if (stat.isDirectory()) walk(path, files, walked)
    else if (stat.isFile() && MANIFEST_FILE.test(name)) files.push(path)
  }
}

function statOf(path: string): Stats {
  try {
    return statSync(path)
  } catch (error) {
    throw new ScanInputError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}
