/** The pino methods the controller logs with; the service's fastify logger fits. */
export interface ControllerLogger {
  debug(fields: Record<string, unknown>, message: string): void
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
  error(fields: Record<string, unknown>, message: string): void
}

/** Exponential backoff between attempts: initial, doubled each time, capped. */
export interface Backoff {
  initialMs: number
  maxMs: number
}

export function backoffDelay(backoff: Backoff, failures: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, failures - 1))
}
