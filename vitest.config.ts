import { globSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

/**
 * Test files of code alone: no store, no server process, no module mocks, no process-wide state
 * left changed. They share their worker's loaded modules (isolate: false), which spares each file
 * the second or so of loading the service's module graph afresh.
 */
const UNIT_FOLDERS = ['engine', 'import', 'authoring', 'recommendations', 'remediation', 'kyverno-test', 'charts', 'docs']
const UNIT_FILES = ['test/config.test.ts', 'test/readme.test.ts']
/** Below those folders, but serving on the run's databases (globalSetup): isolated with the others that do. */
const NEEDS_DATABASES = [
  'test/engine/compile/stored-variable-order.test.ts',
  'test/engine/compile/variable-cycle-crd.test.ts',
  'test/engine/evaluate/hostile-rules-service.test.ts',
  'test/authoring/api/**',
]

const unitFiles = globSync([...UNIT_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`), ...UNIT_FILES], { exclude: NEEDS_DATABASES })

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Hooks start real servers (PGlite, PostgreSQL, the service) and, since the in-memory store loads
    // PGlite on first use, pay its load there: as long as a test on a busy machine.
    hookTimeout: 30_000,
    // One per core: every test takes its own ports, temporary directories and databases.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: unitFiles, isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: unitFiles,
          // Each file in a fresh module graph; one PostgreSQL server and the migrated templates for the whole run.
          globalSetup: ['test/cli-setup.ts', 'test/support/database-setup.ts'],
        },
      },
    ],
  },
})
