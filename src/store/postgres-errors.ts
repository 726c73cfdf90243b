import { StoreUnavailableError } from './db.js'

/** Socket-level failures: the server is not there, or the path to it is broken. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE'])

/**
 * SQLSTATEs that mean "the server cannot serve you now" rather than "your statement is wrong":
 * class 08 (connection exception), shutdown or crash recovery (57P01-57P03), too many connections.
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300'
}

/** Messages node-postgres raises without a code when a connection dies or cannot be opened in time. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
]

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))) return true
  // Connecting to a name with several addresses fails with one error per address.
  if (error instanceof AggregateError && error.errors.some(isUnavailable)) return true
  return CONNECTION_MESSAGES.some((message) => error.message.includes(message))
}

/** Turns connection failures into StoreUnavailableError and leaves statement errors (with their SQLSTATE) alone. */
export function mapPostgresError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !isUnavailable(error)) return error
  const detail = error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error)
  return new StoreUnavailableError(`database unavailable: ${detail}`, { cause: error })
}
