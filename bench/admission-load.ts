// Open-loop AdmissionReviews over TLS at an even rate: bench/paced-load.ts's method (request i
// is due at start + i / rate, sent then whatever earlier ones are doing, latency measured from
// when it was due) on node:https, verifying the webhook's certificate against the CA it was given,
// as the API server does. Every review carries a uid of its own, as the API server's do, so each
// writes audits of its own.
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { sendPaced } from './paced-load.js'

export interface AdmissionLoadOptions {
  port: number
  /** PEM file of the CA (the webhook's self-signed certificate). */
  caFile: string
  /** The AdmissionReview JSON with the string "__UID__" where the uid goes. */
  reviewTemplate: string
  rate: number
  seconds: number
}

export interface AdmissionLoadResult {
  sent: number
  answered: number
  /** Transport errors, answers other than 200, and answers that are not an AdmissionReview for the uid sent. */
  failed: number
  /** Milliseconds from when each answered review was due to its last byte, ascending. */
  latenciesMs: number[]
}

const UID_PLACEHOLDER = '"__UID__"'

export async function admissionLoad(options: AdmissionLoadOptions): Promise<AdmissionLoadResult> {
  const [prefix, suffix] = options.reviewTemplate.split(UID_PLACEHOLDER)
  if (prefix === undefined || suffix === undefined) throw new Error(`the review template needs ${UID_PLACEHOLDER}`)
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, ca: readFileSync(options.caFile), servername: 'localhost' })
  const total = Math.round(options.rate * options.seconds)
  const run = `${process.pid.toString(36)}-${Date.now().toString(36)}`
  const latencies: number[] = []
  let failed = 0

  const send = (index: number, dueAt: number): Promise<void> =>
    new Promise((resolve) => {
      const uid = `${run}-${index}`
      const body = `${prefix}${JSON.stringify(uid)}${suffix}`
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port: options.port,
          method: 'POST',
          path: '/validate?timeout=10s',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.once('end', () => {
            const finished = performance.now()
            // The uid check is cheap next to a round trip and catches answers meant for another review.
            if (res.statusCode === 200 && Buffer.concat(chunks).includes(uid)) latencies.push(finished - dueAt)
            else failed += 1
            resolve()
          })
        },
      )
      req.once('error', () => {
        failed += 1
        resolve()
      })
      req.end(body)
    })

  const sent = await sendPaced(total, options.rate, send)
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return { sent, answered: latencies.length, failed, latenciesMs: latencies }
}

// As a program (`node admission-load.js '<options JSON>'`) it prints the result as one JSON line:
// each step runs in a fresh process, so one step's garbage cannot pause the next one's generator.
if (import.meta.url === `file://${process.argv[1]}`) {
  const options = JSON.parse(process.argv[2] ?? '{}') as AdmissionLoadOptions
  process.stdout.write(`${JSON.stringify(await admissionLoad(options))}\n`)
}
