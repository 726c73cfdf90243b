import { LoadError, RulesetCompileError } from '../engine/index.js'
import { ImportError } from '../import/index.js'
import { readBuildInfo } from '../server/build-info.js'
import { ConflictError, InvalidRequestError, NotFoundError } from '../services/service-errors.js'
import type { CliContext } from './cli-context.js'
import { EXIT_BAD_INPUT, UsageError } from './usage-error.js'

type Command = (argv: string[], print: (line: string) => void, warn: (line: string) => void, context: CliContext) => number | Promise<number>

interface LoadedCommand {
  run: Command
  usage: string
}

/**
 * Each command is imported when it is run: what one needs is not loaded by another (`scan` and
 * `test` alone would bring the Kubernetes client and the Kyverno test runner into `serve`).
 */
const commands: Record<string, () => Promise<LoadedCommand>> = {
  serve: async () => {
    const { runServe, serveHelp } = await import('./serve-command.js')
    return { run: runServe, usage: serveHelp() }
  },
  eval: async () => {
    const { evalUsage, runEval } = await import('./eval-command.js')
    return { run: runEval, usage: evalUsage }
  },
  scan: async () => {
    const { runScanCommand, scanUsage } = await import('./scan-command.js')
    return { run: runScanCommand, usage: scanUsage }
  },
  import: async () => {
    const { importUsage, runImport } = await import('./import-command.js')
    return { run: runImport, usage: importUsage }
  },
  export: async () => {
    const { exportUsage, runExport } = await import('./export-command.js')
    return { run: runExport, usage: exportUsage }
  },
  test: async () => {
    const { runTest, testUsage } = await import('./test-command.js')
    return { run: runTest, usage: testUsage }
  },
  token: async () => {
    const { runToken, tokenUsage } = await import('./token-command.js')
    return { run: runToken, usage: tokenUsage }
  },
  migrate: async () => {
    const { migrateUsage, runMigrate } = await import('./migrate-command.js')
    return { run: runMigrate, usage: migrateUsage }
  },
}

async function usage(): Promise<string> {
  const loaded = await Promise.all(Object.values(commands).map((load) => load()))
  return [
    'verdict: policy engine for Kubernetes resources and JSON documents',
    '',
    'Commands:',
    ...loaded.map((command) => `  ${command.usage.split('\n')[0]}`),
    '  verdict version',
    '',
    'verdict <command> --help explains one command.',
  ].join('\n')
}

function packageVersion(): string {
  const { version, commit } = readBuildInfo()
  return commit === 'unknown' ? version : `${version} (${commit})`
}

/**
 * `verdict <argv>`: runs one command in the given context and answers its exit status, never
 * exiting the process itself. bin/verdict runs it with the process's own context (src/cli.ts);
 * tests run it in their own process with theirs.
 */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const print = (line: string): void => void context.stdout.write(`${line}\n`)
  const warn = (line: string): void => void context.stderr.write(`${line}\n`)
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    print(await usage())
    return name === undefined ? EXIT_BAD_INPUT : 0
  }
  if (name === 'version' || name === '--version') {
    print(packageVersion())
    return 0
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!load) {
    warn(`verdict: unknown command "${name}"\n\n${await usage()}`)
    return EXIT_BAD_INPUT
  }
  const command = await load()
  if (rest.includes('--help') || rest.includes('-h')) {
    print(command.usage)
    return 0
  }
  try {
    return await command.run(rest, print, warn, context)
  } catch (error) {
    warn(`verdict ${name}: ${describeError(error)}`)
    return EXIT_BAD_INPUT
  }
}

/** Every failure the user can fix reads as one clear message; anything else still never prints a stack. */
function describeError(error: unknown): string {
  if (error instanceof UsageError || error instanceof LoadError || error instanceof RulesetCompileError) return error.message
  if (error instanceof ImportError) return `${error.field}: ${error.message}`
  if (error instanceof Error && error.name === 'StoreUnavailableError') return `the store is unavailable: ${error.message}`
  if (error instanceof InvalidRequestError || error instanceof NotFoundError || error instanceof ConflictError) return error.details
  if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) return error.message
  return `internal error: ${error instanceof Error ? error.message : String(error)}`
}
