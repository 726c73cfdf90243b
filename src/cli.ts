import { evalUsage, runEval } from './commands/eval-command.js'
import { importUsage, runImport } from './commands/import-command.js'
import { migrateUsage, runMigrate } from './commands/migrate-command.js'
import { runScanCommand, scanUsage } from './commands/scan-command.js'
import { runServe, serveHelp } from './commands/serve-command.js'
import { runTest, testUsage } from './commands/test-command.js'
import { runToken, tokenUsage } from './commands/token-command.js'
import { EXIT_BAD_INPUT, UsageError } from './commands/usage-error.js'
import { LoadError, RulesetCompileError } from './engine/index.js'
import { ImportError } from './import/index.js'
import { readBuildInfo } from './server/build-info.js'
import { ConflictError, InvalidRequestError, NotFoundError } from './services/service-errors.js'

type Command = (argv: string[], print: (line: string) => void, warn: (line: string) => void) => number | Promise<number>

const commands: Record<string, { run: Command; usage: string }> = {
  serve: { run: runServe, usage: serveHelp() },
  eval: { run: runEval, usage: evalUsage },
  scan: { run: runScanCommand, usage: scanUsage },
  import: { run: runImport, usage: importUsage },
  test: { run: runTest, usage: testUsage },
  token: { run: runToken, usage: tokenUsage },
  migrate: { run: runMigrate, usage: migrateUsage },
}

function usage(): string {
  return [
    'verdict: policy engine for Kubernetes resources and JSON documents',
    '',
    'Commands:',
    ...Object.values(commands).map((command) => `  ${command.usage.split('\n')[0]}`),
    '  verdict version',
    '',
    'verdict <command> --help explains one command.',
  ].join('\n')
}

function packageVersion(): string {
  const { version, commit } = readBuildInfo()
  return commit === 'unknown' ? version : `${version} (${commit})`
}

async function main(argv: string[]): Promise<number> {
  const print = (line: string): void => void process.stdout.write(`${line}\n`)
  const warn = (line: string): void => void process.stderr.write(`${line}\n`)
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    print(usage())
    return name === undefined ? EXIT_BAD_INPUT : 0
  }
  if (name === 'version' || name === '--version') {
    print(packageVersion())
    return 0
  }
  const command = commands[name]
  if (!command) {
    warn(`verdict: unknown command "${name}"\n\n${usage()}`)
    return EXIT_BAD_INPUT
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    print(command.usage)
    return 0
  }
  try {
    return await command.run(rest, print, warn)
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

process.exitCode = await main(process.argv.slice(2))
