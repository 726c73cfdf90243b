import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { nodeHttp } from '../server/node-http.js'
import type { VerdictMetrics } from './verdict-metrics.js'

export interface OpsServer {
  readonly port: number
  close(): Promise<void>
}

export interface OpsServerDeps {
  port: number
  host: string
  metrics: VerdictMetrics
  /** Ready means the store answers and the caches are loaded; the reason when not. */
  readiness: () => Promise<{ ready: true; note?: string } | { ready: false; reason: string }>
}

/**
 * The operations listener (no authentication, as Prometheus and kubelet probes expect):
 * `/metrics`, `/healthz` (the process serves) and `/readyz` (it can do its work).
 */
export async function startOpsServer(deps: OpsServerDeps): Promise<OpsServer> {
  const server = nodeHttp.createServer((request, response) => {
    void route(request, response, deps).catch(() => send(response, 500, 'text/plain', 'internal error\n'))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(deps.port, deps.host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
  }
}

async function route(request: IncomingMessage, response: ServerResponse, deps: OpsServerDeps): Promise<void> {
  const path = (request.url ?? '/').split('?')[0]
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'only GET\n')
  if (path === '/metrics') return send(response, 200, deps.metrics.registry.contentType, await deps.metrics.registry.metrics())
  if (path === '/healthz') return send(response, 200, 'text/plain', 'ok\n')
  if (path === '/readyz') {
    const readiness = await deps.readiness()
    if (!readiness.ready) return send(response, 503, 'text/plain', `not ready: ${readiness.reason}\n`)
    return send(response, 200, 'text/plain', readiness.note === undefined ? 'ready\n' : `ready (${readiness.note})\n`)
  }
  return send(response, 404, 'text/plain', 'not found\n')
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body)
}
