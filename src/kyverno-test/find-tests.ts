import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/**
 * Every `kyverno-test.yaml` below the directories (the `.kyverno-test` folders are hidden, so walk
 * them too), as absolute paths; relative roots are below `cwd`.
 */
export function findTestFiles(roots: readonly string[], cwd: string = process.cwd()): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== '.git') walk(path)
      } else if (entry.name === 'kyverno-test.yaml') {
        found.push(path)
      }
    }
  }
  for (const root of roots) {
    const absolute = resolve(cwd, root)
    if (statSync(absolute).isFile()) found.push(absolute)
    else walk(absolute)
  }
  return [...new Set(found)].sort()
}

/** The directory of the policy a test belongs to: the parent of its `.kyverno-test` folder. */
export function testDirectoryOf(testFile: string): string {
  const dir = dirname(testFile)
  return dir.endsWith('.kyverno-test') ? dirname(dir) : dir
}

/** `index.json` of the conformance data, in a root or up to three folders above it. */
export function findIndexFile(roots: readonly string[], cwd: string = process.cwd()): string | undefined {
  for (const root of roots) {
    let dir = resolve(cwd, root)
    for (let depth = 0; depth < 4; depth += 1) {
      const candidate = join(dir, 'index.json')
      if (existsSync(candidate)) return candidate
      dir = dirname(dir)
    }
  }
  return undefined
}
