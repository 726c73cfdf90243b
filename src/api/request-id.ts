import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * A caller's id is kept only when it is a plain token: it ends up in logs, in headers and in
 * audit records, where control characters, quotes or kilobytes of text have no business.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._~:+/=-]{1,128}$/

export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER]
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
}
