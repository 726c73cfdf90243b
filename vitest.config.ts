import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // Hooks start real servers (PGlite, PostgreSQL, the service) and, since the in-memory store loads
    // PGlite on first use, pay its load there: as long as a test on a busy machine.
    hookTimeout: 30_000,
    globalSetup: ['test/cli-setup.ts', 'test/support/database-setup.ts'],
  },
})
