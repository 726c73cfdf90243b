import { describe, expect, it } from 'vitest'
import { levelOfServerLine, type ServerLogLevel } from '../../../src/store/embedded/server-log.js'

describe('levelOfServerLine', () => {
  it('reads the severity PostgreSQL starts a message with; following lines take the level of theirs', () => {
    const lines = [
      'LOG:  checkpoints are occurring too frequently (26 seconds apart)',
      'HINT:  Consider increasing the configuration parameter "max_wal_size".',
      'WARNING:  there is no transaction in progress',
      'ERROR:  relation "x" does not exist',
      'STATEMENT:  SELECT * FROM x',
      'FATAL:  the database system is shutting down',
      'PANIC:  could not write to file "pg_wal/xlogtemp.1": No space left on device',
      'LOG:  database system is shut down',
      'a line of its own',
    ]
    let level: ServerLogLevel = 'info'
    const levels = lines.map((line) => (level = levelOfServerLine(line, level)))
    expect(levels).toEqual(['info', 'info', 'warn', 'error', 'error', 'error', 'error', 'info', 'info'])
  })
})
