import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The CLI is tested as users run it, from the build; build it when a bare `vitest` run finds none. */
export default function setup(): void {
  const root = dirname(dirname(fileURLToPath(import.meta.url)))
  if (existsSync(join(root, 'dist', 'src', 'cli.js'))) return
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
}
