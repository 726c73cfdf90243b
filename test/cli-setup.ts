import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The CLI and the console are tested as users run them, from the build; a bare `vitest` run that
 * finds none builds them (`make unit` always builds first).
 */
export default function setup(): void {
  const root = dirname(dirname(fileURLToPath(import.meta.url)))
  if (!existsSync(join(root, 'dist', 'src', 'cli.js'))) execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
  if (!existsSync(join(root, 'dist', 'console', 'index.html'))) execFileSync(process.execPath, [join(root, 'scripts', 'build-console.mjs')], { cwd: root, stdio: 'inherit' })
}
