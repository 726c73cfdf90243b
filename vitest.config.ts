import { globSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

/**
 * Test files of code alone: no store, no server process, no module mocks, no process-wide state
 * left changed. They share their worker's loaded modules (isolate: false), which spares each file
 * the second or so of loading the service's module graph afresh.
 */
const UNIT_FOLDERS = ['engine', 'import', 'authoring', 'recommendations', 'remediation', 'kyverno-test', 'charts', 'docs']
const UNIT_FILES = ['test/config.test.ts', 'test/readme.test.ts']
/** Below those folders, but serving on the run's databases (globalSetup): with the integration tests. */
const NEEDS_DATABASES = [
  'test/engine/compile/stored-variable-order.test.ts',
  'test/engine/compile/variable-cycle-crd.test.ts',
  'test/engine/evaluate/hostile-rules-service.test.ts',
  'test/authoring/api/**',
]

/**
 * Files that replace a module (vi.mock) need modules of their own: a module another file loaded
 * first would keep the real one. They run isolated, without the database globalSetup (a PGlite they
 * need is made and migrated in place, see test/support/databases.ts).
 */
const MOCKING_FILES = ['test/admission/cluster-data.test.ts', 'test/services/evaluation-service.test.ts']

const unitFiles = globSync([...UNIT_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`), ...UNIT_FILES], { exclude: NEEDS_DATABASES })

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Hooks start real servers (PGlite, PostgreSQL, the service) and, since the in-memory store loads
    // PGlite on first use, pay its load there: as long as a test on a busy machine.
    hookTimeout: 30_000,
    // One per core: every test takes its own ports, temporary directories and databases.
    maxWorkers: 2,
    // Files that share their worker's modules start from the engine's default settings.
    setupFiles: ['test/support/engine-defaults.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: unitFiles, isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...unitFiles, ...MOCKING_FILES],
          isolate: false,
          // One PostgreSQL server and the migrated templates for the whole run; the build the CLI and console tests run.
          globalSetup: ['test/cli-setup.ts', 'test/support/database-setup.ts'],
        },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING_FILES } },
    ],
  },
})
