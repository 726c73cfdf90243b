/** How much a line of the embedded server's log matters, in Verdict's log levels. */
export type ServerLogLevel = 'info' | 'warn' | 'error'

/**
 * PostgreSQL starts each message with its severity (`LOG:`, `WARNING:`, `FATAL:`...); the lines that
 * follow one (`HINT:`, `DETAIL:`, a statement) belong to it and take its level. LOG is what a
 * server says in its ordinary course (a checkpoint that came early, a shutdown), hence info.
 */
export function levelOfServerLine(line: string, previous: ServerLogLevel): ServerLogLevel {
  const severity = /^([A-Z]+):/.exec(line)?.[1]
  switch (severity) {
    case 'LOG':
    case 'INFO':
    case 'NOTICE':
    case 'DEBUG':
      return 'info'
    case 'WARNING':
      return 'warn'
    case 'ERROR':
    case 'FATAL':
    case 'PANIC':
      return 'error'
    default:
      return previous
  }
}
