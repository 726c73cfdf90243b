/** What test/support/database-setup.ts hands every test file through vitest's provide/inject. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded PostgreSQL server's `postgres` database, for CREATE / DROP DATABASE. */
    verdictPostgresAdminUrl: string
    /** A database on that server with every migration applied, to copy per test file. */
    verdictPostgresTemplate: string
    /** A PGlite data directory tarball with every migration applied. */
    verdictPgliteTemplate: string
    /** A PGlite data directory tarball straight after initdb, for migration tests. */
    verdictPgliteBlank: string
  }
}

export {}
