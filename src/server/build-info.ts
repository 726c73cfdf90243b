import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface BuildInfo {
  version: string
  commit: string
}

/** The repository (or installed package) root: the nearest folder above this module with package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('package.json not found above the verdict modules')
    dir = parent
  }
  return dir
}

/** package.json's version and the commit `make build` recorded in dist/ (unknown when built otherwise). */
export function readBuildInfo(): BuildInfo {
  const root = packageRoot()
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  let commit = process.env.VERDICT_COMMIT ?? 'unknown'
  try {
    commit = (JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8')) as { commit?: string }).commit ?? commit
  } catch {
    // Not built by `make build` (tests, tsc by hand): the environment or "unknown" stands.
  }
  return { version: pkg.version, commit }
}
