import type { FastifyBaseLogger } from 'fastify'
import { pino } from 'pino'
import type { Config } from '../config.js'

/**
 * How the service logs: JSON lines (what log collectors read; fastify's own logger, as before), or
 * human-readable lines from pino-pretty, in this process and synchronously (no worker thread), for
 * a terminal. VERDICT_LOG_FORMAT chooses; unset, a terminal gets pretty lines and anything else
 * (a pod's log, a pipe, a file) JSON. pino-pretty and its dependencies are loaded only for pretty
 * lines: a deployment logging JSON never holds them.
 */
export async function serviceLoggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>, out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Promise<{ loggerInstance?: FastifyBaseLogger }> {
  const format = config.logFormat ?? (out.isTTY === true ? 'pretty' : 'json')
  if (format === 'json') return {}
  const { default: pretty } = await import('pino-pretty')
  const stream = pretty({ destination: out, sync: true, colorize: out.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
  return { loggerInstance: pino({ level: config.logLevel }, stream) as unknown as FastifyBaseLogger } // pino's Logger is fastify's base logger at run time; the declared generics differ
}
