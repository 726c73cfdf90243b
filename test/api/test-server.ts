import { Writable } from 'node:stream'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { expect } from 'vitest'
import { buildApp } from '../../src/api/build-app.js'
import type { Principal } from '../../src/api/principal.js'
import { loadConfig, type Config } from '../../src/config.js'
import { thingRoutes } from './test-routes.js'

export const TOKENS: Readonly<Record<string, Principal>> = {
  'reader-secret': { tokenId: 'tok-reader', owner: 'reader@example.com', scopes: ['rulesets:read'] },
  'writer-secret': { tokenId: 'tok-writer', owner: 'writer@example.com', scopes: ['rulesets:read', 'rulesets:write'] },
  'admin-secret': { tokenId: 'tok-admin', owner: 'admin@example.com', scopes: ['admin'] },
  'plain-secret': { tokenId: 'tok-plain', owner: 'plain@example.com', scopes: [] },
}

export const VERSION = { version: '1.2.3', commit: 'abc1234' }

export interface TestServer {
  readonly url: string
  readonly app: FastifyInstance
  /** Every log line the server wrote, parsed. */
  readonly logs: Array<Record<string, unknown>>
  /** Resolves with the first log line, past or future, that matches. */
  waitForLog(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>
  close(): Promise<void>
}

export interface TestServerOptions {
  readonly config?: Partial<Config>
  readonly routes?: FastifyPluginAsync[]
  readonly authenticate?: (bearer: string) => Promise<Principal | null>
}

export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  const logs: Array<Record<string, unknown>> = []
  const waiters = new Set<(line: Record<string, unknown>) => void>()
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text.trim() === '') continue
        const line = JSON.parse(text) as Record<string, unknown>
        logs.push(line)
        for (const waiter of waiters) waiter(line)
      }
      done()
    },
  })
  const waitForLog = (matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    const seen = logs.find(matches)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve) => {
      const waiter = (line: Record<string, unknown>): void => {
        if (!matches(line)) return
        waiters.delete(waiter)
        resolve(line)
      }
      waiters.add(waiter)
    })
  }
  const app = await buildApp({
    config: { ...loadConfig({}, []), ...options.config },
    authenticate: options.authenticate ?? (async (bearer) => TOKENS[bearer] ?? null),
    routes: options.routes ?? [thingRoutes],
    version: VERSION,
    logger: { level: 'info', stream },
  })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: address, app, logs, waitForLog, close: () => app.close() }
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}

/** Every response, whatever its status, carries these. */
export function expectStamped(response: Response): void {
  expect(response.headers.get('x-api-version')).toBe('1.0')
  expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._~:+/=-]{1,128}$/)
}

export async function expectError(response: Response, status: number, error: string, details: string | RegExp): Promise<void> {
  expectStamped(response)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as Record<string, unknown>
  expect({ status: response.status, error: body.error }).toEqual({ status, error })
  expect(Object.keys(body).sort()).toEqual(['details', 'error'])
  if (typeof details === 'string') expect(body.details).toBe(details)
  else expect(body.details).toMatch(details)
}
