import { readFileSync } from 'node:fs'

export interface BuildInfo {
  version: string
  commit: string
}

/** package.json's version and the commit `make build` recorded (unknown when built otherwise). */
export function readBuildInfo(): BuildInfo {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  let commit = process.env.VERDICT_COMMIT ?? 'unknown'
  try {
    commit = (JSON.parse(readFileSync(new URL('../../build-info.json', import.meta.url), 'utf8')) as { commit?: string }).commit ?? commit
  } catch {
    // Not built by `make build` (tests, tsc by hand): the environment or "unknown" stands.
  }
  return { version: pkg.version, commit }
}
