// The servers bench/api.ts loads, in a process of their own so the load generator does not share
// their event loop: a bare fastify route answering a constant, and the Verdict service on the
// PostgreSQL whose URL is the first argument. Prints one JSON line with the URLs and the admin token.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { loadConfig } from '../src/config.js'
import { startServer } from '../src/server/start-server.js'

const databaseUrl = process.argv[2]
if (!databaseUrl) throw new Error('usage: api-target.js <postgres url>')
const dir = mkdtempSync(join(tmpdir(), 'verdict-bench-api-'))

const bare = Fastify({ logger: false })
bare.post('/constant', async () => ({ passed: true }))
await bare.listen({ port: 0, host: '127.0.0.1' })
const bareAddress = bare.server.address()
const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}/constant`

const config = loadConfig(
  {
    VERDICT_API_PORT: '0',
    VERDICT_WEBHOOK_PORT: '0',
    VERDICT_OPS_PORT: '0',
    VERDICT_DATABASE_URL: databaseUrl,
    VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'),
    VERDICT_LOG_LEVEL: 'warn',
    // The benchmark measures throughput, not the per-token limiter.
    VERDICT_RATE_LIMIT: '1000000',
    VERDICT_RATE_BURST: '1000000',
  },
  [],
)
const server = await startServer(config, { host: '127.0.0.1', logger: false })
const token = readFileSync(join(dir, 'admin-token'), 'utf8').trim()
process.stdout.write(`${JSON.stringify({ bareUrl, apiUrl: server.apiUrl, token })}\n`)

// BENCH_TARGET_PROFILE=dir: SIGUSR2 starts a V8 CPU profile, the next SIGUSR2 writes it there, so
// the profile covers exactly the run bench/api.ts brackets with them (the durable evaluations).
const profileDir = process.env.BENCH_TARGET_PROFILE
if (profileDir) {
  const session = new Session()
  session.connect()
  let profiling = false
  process.on('SIGUSR2', () => {
    if (!profiling) {
      profiling = true
      session.post('Profiler.enable', () => session.post('Profiler.start'))
      return
    }
    profiling = false
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(profileDir, `eval-${Date.now()}.cpuprofile`), JSON.stringify(result.profile))
    })
  })
}

process.once('SIGTERM', () => {
  void (async () => {
    await server.close()
    await bare.close()
    rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  })()
})
