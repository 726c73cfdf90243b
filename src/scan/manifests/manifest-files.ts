import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs'
import { join, resolve } from 'node:path'
import { ScanInputError } from '../scan-error.js'

const MANIFEST_FILE = /\.(ya?ml|json)$/i

/**
 * The files named, with each directory replaced by the *.yaml, *.yml and *.json files below it,
 * sorted so that results come in the same order on every machine. `-` (standard input) passes
 * through. Hidden entries (.git, .github) are not walked: they hold no manifests to judge. A file
 * named explicitly is read whatever its extension. Relative paths name files below `cwd` and stay
 * relative in what is returned, as the user wrote them.
 */
export function manifestFiles(paths: readonly string[], cwd: string = process.cwd()): string[] {
  const files: string[] = []
  const walked = new Set<string>()
  for (const path of paths) {
    if (path === '-') {
      files.push(path)
      continue
    }
    if (statOf(path, cwd).isDirectory()) walk(path, cwd, files, walked)
    else files.push(path)
  }
  return [...new Set(files)]
}

function walk(directory: string, cwd: string, files: string[], walked: Set<string>): void {
  // A symbolic link back up the tree would otherwise be walked forever.
  const real = realpathSync(resolve(cwd, directory))
  if (walked.has(real)) return
  walked.add(real)
  const names = readdirSync(real).filter((name) => !name.startsWith('.')).sort()
  for (const name of names) {
    const path = join(directory, name)
    const stat = statOf(path, cwd)
    if (stat.isDirectory()) walk(path, cwd, files, walked)
    else if (stat.isFile() && MANIFEST_FILE.test(name)) files.push(path)
  }
}

function statOf(path: string, cwd: string): Stats {
  try {
    return statSync(resolve(cwd, path))
  } catch (error) {
    throw new ScanInputError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}
