import { processContext } from './commands/cli-context.js'
import { runCli } from './commands/run-cli.js'

// bin/verdict: the one command line of the process, with its own working directory, environment and streams.
process.exitCode = await runCli(process.argv.slice(2), processContext())
