// bench:outage: REST evaluations and admission reviews at an even rate while PostgreSQL is killed
// (SIGKILL, no shutdown) and restarted; then every answered request's audits are looked up.
// Last line: sent=N answered=N audits_expected=N audits_found=N duplicates=N outage_s=N
//
// Settings (environment): OUTAGE_RATE requests/s (default 200), OUTAGE_SECONDS of load (30),
// OUTAGE_AT seconds into the load when PostgreSQL is killed (8), OUTAGE_FOR seconds it stays down (10).
import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { loadConfig } from '../src/config.js'
import { startServer } from '../src/server/start-server.js'
import { sendPaced } from './paced-load.js'
import { startBenchPostgres } from './postgres-server.js'

const RATE = Number(process.env.OUTAGE_RATE ?? 200)
const SECONDS = Number(process.env.OUTAGE_SECONDS ?? 30)
const OUTAGE_AT = Number(process.env.OUTAGE_AT ?? 8)
const OUTAGE_FOR = Number(process.env.OUTAGE_FOR ?? 10)

interface Answer {
  status: number
  body: string
}

function post(send: typeof httpRequest | typeof httpsRequest, agent: HttpAgent, url: URL, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve) => {
    const outgoing = send({ agent, method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers, servername: 'localhost' }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    })
    outgoing.once('error', () => resolve({ status: 0, body: '' }))
    outgoing.end(body)
  })
}

function pod(index: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `bench-${index}`, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: index % 5 === 0 ? 'nginx:latest' : 'nginx:1.27' }] },
  }
}

async function metric(opsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text()
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `))
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1))
}

async function main(): Promise<void> {
  const postgres = await startBenchPostgres({ durable: true })
  const dir = await mkdtemp(join(tmpdir(), 'verdict-bench-outage-'))
  const server = await startServer(
    loadConfig(
      {
        VERDICT_API_PORT: '0',
        VERDICT_WEBHOOK_PORT: '0',
        VERDICT_OPS_PORT: '0',
        VERDICT_DATABASE_URL: postgres.url,
        VERDICT_DATA_DIR: join(dir, 'data'),
        VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'),
        VERDICT_LOG_LEVEL: 'silent',
        VERDICT_RATE_LIMIT: '1000000',
        VERDICT_RATE_BURST: '1000000',
      },
      [],
    ),
    { host: '127.0.0.1', logger: false },
  )
  try {
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim()
    const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const ruleset = { rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } }] }
    for (const [path, body] of [
      ['/api/rulesets/pods', ruleset],
      ['/api/policies/pods', { rulesets: ['pods'], action: 'Deny', match: { kinds: ['Pod'] } }],
    ] as const) {
      const response = await fetch(`${server.apiUrl}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) })
      if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    }

    const apiAgent = new HttpAgent({ keepAlive: true, maxSockets: Infinity })
    const webhookAgent = new HttpsAgent({ keepAlive: true, maxSockets: Infinity, ca: await readFile(server.webhook.certFile) })
    const evalUrl = new URL(`${server.apiUrl}/api/eval/policies/pods`)
    const webhookUrl = new URL(`https://127.0.0.1:${server.webhook.port}/validate?timeout=10s`)
    const answered: string[] = []
    let failed = 0
    const failures: string[] = []
    const noteFailure = (what: string, answer: Answer): void => {
      failed += 1
      if (failures.length < 5) failures.push(`${what} ${answer.status} ${answer.body.slice(0, 300)}`)
    }

    let outageSeconds = 0
    let restarted = 0
    let replayedAfterS = Number.NaN
    const outage = (async () => {
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_AT * 1000))
      const killedAt = performance.now()
      postgres.kill()
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_FOR * 1000))
      await postgres.restart()
      restarted = performance.now()
      outageSeconds = (restarted - killedAt) / 1000
      while ((await metric(server.opsUrl, 'verdict_audit_spooling')) !== 0) await new Promise((resolve) => setTimeout(resolve, 20))
      replayedAfterS = (performance.now() - restarted) / 1000
    })()

    const sent = await sendPaced(Math.round(RATE * SECONDS), RATE, async (index) => {
      if (index % 4 === 3) {
        const uid = randomUUID()
        const review = {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          request: {
            uid,
            kind: { group: '', version: 'v1', kind: 'Pod' },
            resource: { group: '', version: 'v1', resource: 'pods' },
            requestKind: { group: '', version: 'v1', kind: 'Pod' },
            requestResource: { group: '', version: 'v1', resource: 'pods' },
            name: `bench-${index}`,
            namespace: 'default',
            operation: 'CREATE',
            userInfo: { username: 'bench@example.com', groups: ['system:authenticated'] },
            object: pod(index),
            oldObject: null,
            dryRun: false,
            options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
          },
        }
        const answer = await post(httpsRequest, webhookAgent, webhookUrl, { 'content-type': 'application/json' }, JSON.stringify(review))
        if (answer.status === 200) answered.push(uid)
        else noteFailure('review', answer)
        return
      }
      const answer = await post(httpRequest, apiAgent, evalUrl, json, JSON.stringify({ inputData: pod(index) }))
      if (answer.status !== 200) return noteFailure('evaluation', answer)
      answered.push((JSON.parse(answer.body) as { requestId: string }).requestId)
    })
    await outage
    // Reviews hand their audits over after a short gathering window; the spool drains after the restart.
    const deadline = Date.now() + 120_000
    while ((await metric(server.opsUrl, 'verdict_audit_spooling')) !== 0 || (await metric(server.opsUrl, 'verdict_audit_queue_depth')) !== 0) {
      if (Date.now() > deadline) throw new Error('the spool did not drain within 2 minutes of the end of the load')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    apiAgent.destroy()
    webhookAgent.destroy()

    const connection = new pg.Client({ connectionString: postgres.url })
    await connection.connect()
    const rows = await connection.query<{ request_id: string; rows: number; distinct_rows: number }>(
      `SELECT request_id, count(*)::int AS rows, count(DISTINCT kind || '/' || name)::int AS distinct_rows FROM (
         SELECT request_id, 'policy' AS kind, policy_name AS name FROM policy_audits
         UNION ALL SELECT request_id, 'ruleset', ruleset_name FROM ruleset_audits) audits
       WHERE request_id = ANY($1::text[]) GROUP BY request_id`,
      [answered],
    )
    await connection.end()
    let found = 0
    let duplicates = 0
    for (const row of rows.rows) {
      found += row.distinct_rows
      duplicates += row.rows - row.distinct_rows
    }
    // Every answered evaluation or review writes one policy audit and one ruleset audit.
    const expected = answered.length * 2
    const spooled = await metric(server.opsUrl, 'verdict_audit_spool_entries_total{event="spooled"}')
    for (const failure of failures) console.log(`failed: ${failure}`)
    console.log(`rate=${RATE}/s for ${SECONDS} s; PostgreSQL killed at ${OUTAGE_AT} s; failed=${failed} spooled_evaluations=${Number.isNaN(spooled) ? 0 : spooled} spool_empty_s_after_restart=${replayedAfterS.toFixed(1)}`)
    console.log(`sent=${sent} answered=${answered.length} audits_expected=${expected} audits_found=${found} duplicates=${duplicates} outage_s=${outageSeconds.toFixed(1)}`)
  } finally {
    await server.close()
    await postgres.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
