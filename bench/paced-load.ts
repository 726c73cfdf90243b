// Open-loop load at an even rate, for latency figures that mean "at N requests/s".
//
// autocannon's overallRate is a per-second quota: every connection sends as fast as it can until
// it has made its share for the current second, then waits for the next one, so "1,000 req/s"
// arrives as a closed-loop burst at the start of each second. Its coordinated-omission
// correction also assumes one request every ceil(1 / rate-per-connection) = 1 ms, which adds
// made-up samples to every answer slower than 1 ms. Both say more about the load generator than
// about the server (a bare fastify route shows a 10 ms p99 that way on this machine).
//
// Here request i is due at start + i / rate, is sent at that moment whatever earlier requests
// are doing (on a free keep-alive socket, or a new one), and its latency is measured from when
// it was due: a stall in the server shows in every request it delays.
import { Agent, request } from 'node:http'

export interface PacedLoadOptions {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  /** Requests per second, evenly spaced. */
  rate: number
  seconds: number
}

export interface PacedLoadResult {
  sent: number
  answered: number
  /** Transport errors and answers outside 2xx. */
  failed: number
  /** Milliseconds from when each answered request was due to its last byte, ascending. */
  latenciesMs: number[]
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity })
  const target = new URL(options.url)
  const total = Math.round(options.rate * options.seconds)
  const latencies: number[] = []
  let failed = 0

  const send = (dueAt: number): Promise<void> =>
    new Promise((resolve) => {
      const req = request(
        { agent, method: options.method, hostname: target.hostname, port: target.port, path: target.pathname + target.search, headers: options.headers },
        (res) => {
          res.resume()
          res.once('end', () => {
            if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - dueAt)
            else failed += 1
            resolve()
          })
        },
      )
      req.once('error', () => {
        failed += 1
        resolve()
      })
      req.end(options.body)
    })

  const sent = await sendPaced(total, options.rate, (_index, dueAt) => send(dueAt))
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return { sent, answered: latencies.length, failed, latenciesMs: latencies }
}

/**
 * Calls `send(i, dueAt)` for i = 0 .. total-1 at start + i / rate, whatever earlier calls are
 * doing (open loop), and resolves with the count once every call has settled.
 */
export async function sendPaced(total: number, rate: number, send: (index: number, dueAt: number) => Promise<void>): Promise<number> {
  const intervalMs = 1000 / rate
  const outstanding: Promise<void>[] = []
  const start = performance.now()
  let sent = 0
  while (sent < total) {
    const now = performance.now()
    // Everything due by now goes out at once, so a late timer never lowers the rate.
    while (sent < total && start + sent * intervalMs <= now) {
      outstanding.push(send(sent, start + sent * intervalMs))
      sent += 1
    }
    const nextDue = start + sent * intervalMs
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDue - performance.now())))
  }
  await Promise.all(outstanding)
  return sent
}

/** The latency below which `fraction` of the answers fall (nearest rank). */
export function percentile(sortedMs: readonly number[], fraction: number): number {
  if (sortedMs.length === 0) return Number.NaN
  const rank = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil(fraction * sortedMs.length) - 1))
  return sortedMs[rank] ?? Number.NaN
}

// Run as a program (`node paced-load.js '<options JSON>'`), it prints the result as one JSON
// line: bench/api.ts runs the latency measurement in a fresh process, so the garbage that the
// throughput runs left in its own heap cannot pause the load generator and pass for server latency.
if (import.meta.url === `file://${process.argv[1]}`) {
  const options = JSON.parse(process.argv[2] ?? '{}') as PacedLoadOptions
  process.stdout.write(`${JSON.stringify(await pacedLoad(options))}\n`)
}
