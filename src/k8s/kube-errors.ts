import { ApiException } from '@kubernetes/client-node'

/** The HTTP status of a failed Kubernetes call: ApiException from the typed clients, statusCode from watches. */
export function statusCodeOf(error: unknown): number | undefined {
  if (error instanceof ApiException) return error.code
  if (typeof error === 'object' && error !== null) {
    const { statusCode, code } = error as { statusCode?: unknown; code?: unknown }
    if (typeof statusCode === 'number') return statusCode
    if (typeof code === 'number') return code
  }
  return undefined
}

export function isNotFound(error: unknown): boolean {
  return statusCodeOf(error) === 404
}

export function isConflict(error: unknown): boolean {
  return statusCodeOf(error) === 409
}

/** A short description for logs: the ApiException body carries the API server's own message. */
export function describeKubeError(error: unknown): string {
  if (error instanceof ApiException) {
    const body = error.body as { message?: unknown } | string | undefined
    const message = typeof body === 'object' && body !== null && typeof body.message === 'string' ? body.message : String(body ?? '')
    return `HTTP ${error.code}${message ? `: ${message}` : ''}`
  }
  return error instanceof Error ? error.message : String(error)
}
