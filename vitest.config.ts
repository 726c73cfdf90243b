import { globSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

/**
 * Test files of code alone: no store, no server process, no module mocks, no process-wide state
 * left changed. They share their worker's loaded modules (isolate: false), which spares each file
 * the second or so of loading the service's module graph afresh.
 */
const UNIT_FOLDERS = ['engine', 'import', 'authoring', 'recommendations', 'remediation', 'kyverno-test', 'charts', 'docs', 'events']
const UNIT_FILES = ['test/config.test.ts', 'test/readme.test.ts']
/** Below those folders, but serving on the run's databases (globalSetup): with the integration tests. */
const NEEDS_DATABASES = [
  'test/engine/compile/stored-variable-order.test.ts',
  'test/engine/compile/variable-cycle-crd.test.ts',
  'test/engine/evaluate/hostile-rules-service.test.ts',
  'test/authoring/api/**',
]

/**
 * Files that need a process and modules of their own, run isolated and without the database
 * globalSetup (a PGlite they need is made and migrated in place, see test/support/databases.ts):
 * those that replace a module (vi.mock: a module another file loaded first would keep the real
 * one), and those that set V8 flags for the whole process (the heap's growing factor, --expose-gc).
 */
const ISOLATED_FILES = [
  'test/admission/cluster-data.test.ts',
  'test/services/evaluation-service.test.ts',
  'test/server/heap-growth.test.ts',
  'test/server/idle-heap-release.test.ts',
]

/**
 * A worker that runs file after file keeps every file's modules, a heap far larger than one file's:
 * with V8's default young generation, allocation-heavy tests then spend most of their time
 * collecting (a property test of 15-20 s took over 30). 64 MiB semi-spaces keep short-lived garbage young.
 */
const SHARED_WORKER_ARGV = ['--max-semi-space-size=64']

const unitFiles = globSync([...UNIT_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`), ...UNIT_FILES], { exclude: NEEDS_DATABASES })

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Hooks start real servers (PGlite, PostgreSQL, the service) and, since the in-memory store loads
    // PGlite on first use, pay its load there: as long as a test on a busy machine.
    hookTimeout: 30_000,
    // One per core: every test takes its own ports, temporary directories and databases.
    maxWorkers: '100%',
    // Files that share their worker's modules start from the engine's default settings.
    setupFiles: ['test/support/engine-defaults.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: unitFiles, isolate: false, execArgv: SHARED_WORKER_ARGV } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...unitFiles, ...ISOLATED_FILES],
          isolate: false,
          execArgv: SHARED_WORKER_ARGV,
          // One PostgreSQL server and the migrated templates for the whole run; the build the CLI and console tests run.
          globalSetup: ['test/cli-setup.ts', 'test/support/database-setup.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES } },
    ],
  },
})
