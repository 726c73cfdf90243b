import { readFileSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { isatty } from 'node:tty'

/** Where a command writes: a terminal, a pipe, or a test's buffer. */
export interface CliOutput {
  /** Only a terminal gets the progress line of a long scan. */
  readonly isTTY?: boolean
  write(text: string): unknown
}

/**
 * Everything a command reads from and writes to outside its arguments: the process's own for
 * bin/verdict, a test's for the in-process runner. A command reads no process-wide state instead
 * (no process.cwd(), process.env, process.stdin or process.exit), so a test can run `verdict <args>`
 * in its own process and see exactly what a user would see.
 */
export interface CliContext {
  /** Relative paths in arguments name files from here; SARIF locations are relative to it. */
  readonly cwd: string
  /** The environment settings are read from (VERDICT_*, KUBECONFIG, HOME). */
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: {
    /** A terminal: a command that would read standard input refuses instead of waiting. */
    readonly isTTY: boolean
    /** All of standard input, read when a command is asked to (`-`). */
    read(): string
  }
  readonly stdout: CliOutput
  readonly stderr: CliOutput
  /** Resolves when the user asks a long-running command (serve) to stop: SIGINT or SIGTERM for the process. */
  untilStopped(): Promise<void>
}

/** The context of the running process, for bin/verdict. */
export function processContext(): CliContext {
  return {
    cwd: process.cwd(),
    env: process.env,
    // isatty rather than process.stdin.isTTY: opening process.stdin would put a pipe into non-blocking
    // mode, and readFileSync(0) could then fail with EAGAIN.
    stdin: { isTTY: isatty(0), read: () => readFileSync(0, 'utf8') },
    stdout: process.stdout,
    stderr: process.stderr,
    untilStopped: () =>
      new Promise((stop) => {
        process.once('SIGINT', () => stop())
        process.once('SIGTERM', () => stop())
      }),
  }
}

/** A path argument as the file system should open it: relative paths name files below the context's cwd. */
export function resolvePath(context: Pick<CliContext, 'cwd'>, path: string): string {
  return isAbsolute(path) ? path : resolve(context.cwd, path)
}
