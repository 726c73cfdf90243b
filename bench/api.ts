// REST evaluation with durable audits against a bare fastify endpoint, in the same run on the same
// machine: (a) a fastify route that answers a constant, (b) POST /api/eval/policies/{name} with a
// 10-rule ruleset, each answer sent only after its audit rows are committed to PostgreSQL (fsync
// on), a fixed number of requests with the CPU time the service and PostgreSQL spent on them, and
// (a) again at the rate (b) reached, for the CPU HTTP alone costs at that load. Then
// (b) at a fixed 1,000 requests/s, evenly paced (bench/paced-load.ts says why not
// autocannon's overallRate), for its latency. The servers run in a child process.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon, { type Result } from 'autocannon'
import pg from 'pg'
import { percentile, type PacedLoadOptions, type PacedLoadResult } from './paced-load.js'
import { startBenchPostgres } from './postgres-server.js'
import { processCpuMs, processTreeCpuMs } from './process-cpu.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const FIXED_RATE = Number(process.env.BENCH_FIXED_RATE ?? 1000)
/** The durable evaluations whose CPU cost is measured: a fixed amount of work, not a fixed time. */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50_000)

const here = fileURLToPath(new URL('.', import.meta.url))
const pod = JSON.parse(readFileSync(resolve(here, '..', '..', 'bench', 'fixtures', 'restricted-pod.json'), 'utf8')) as Record<string, unknown>
const body = JSON.stringify({ inputData: pod })

/** Ten rules a platform team would run on every Pod (Pod Security restricted plus hygiene). */
const rules = [
  { name: 'no-privileged', expression: 'object.spec.containers.all(c, !c.?securityContext.?privileged.orValue(false))' },
  { name: 'no-privilege-escalation', expression: 'object.spec.containers.all(c, c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false)' },
  { name: 'run-as-non-root', expression: 'object.spec.?securityContext.?runAsNonRoot.orValue(false) || object.spec.containers.all(c, c.?securityContext.?runAsNonRoot.orValue(false))' },
  { name: 'drop-all-capabilities', expression: "object.spec.containers.all(c, c.?securityContext.?capabilities.?drop.orValue([]).exists(d, d == 'ALL'))" },
  { name: 'seccomp', expression: "object.spec.?securityContext.?seccompProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost']" },
  { name: 'no-host-namespaces', expression: '!object.spec.?hostNetwork.orValue(false) && !object.spec.?hostPID.orValue(false) && !object.spec.?hostIPC.orValue(false)' },
  { name: 'no-host-path', expression: 'object.spec.?volumes.orValue([]).all(v, !has(v.hostPath))' },
  { name: 'no-latest-tag', expression: "object.spec.containers.all(c, !c.image.endsWith(':latest') && c.image.contains(':'))" },
  { name: 'memory-limits', expression: 'object.spec.containers.all(c, has(c.resources) && has(c.resources.limits) && has(c.resources.limits.memory))' },
  { name: 'team-label', expression: "has(object.metadata.labels) && 'app.kubernetes.io/part-of' in object.metadata.labels" },
].map((rule) => ({ name: rule.name, match: { kinds: ['Pod'] }, validate: { cel: [{ expression: rule.expression }] } }))

async function run(label: string, options: autocannon.Options): Promise<Result> {
  const result = await autocannon(options)
  const errors = result.errors + result.timeouts + result.non2xx
  console.log(
    `${label}: ${result.requests.total} requests in ${result.duration} s, ${Math.round(result.requests.total / result.duration)} req/s, ` +
      `latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms, ${errors} errors/non-2xx`,
  )
  if (errors > 0) throw new Error(`${label}: ${errors} requests failed`)
  return result
}

/** Milliseconds to one decimal. */
function ms(value: number): number {
  return Math.round(value * 10) / 10
}

async function paced(label: string, options: PacedLoadOptions): Promise<{ p50: number; p99: number; answered: number }> {
  const result = await pacedLoadInChild(options)
  const p50 = ms(percentile(result.latenciesMs, 0.5))
  const p99 = ms(percentile(result.latenciesMs, 0.99))
  const max = ms(result.latenciesMs.at(-1) ?? Number.NaN)
  console.log(`${label}: ${result.sent} requests over ${options.seconds} s, ${result.answered} answered, latency p50 ${p50} ms p99 ${p99} ms max ${max} ms, ${result.failed} errors/non-2xx`)
  if (result.failed > 0) throw new Error(`${label}: ${result.failed} requests failed`)
  return { p50, p99, answered: result.answered }
}

async function vacuumAudits(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const started = performance.now()
    await client.query('VACUUM (ANALYZE) policy_audits, ruleset_audits, audit_inputs, policy_audit_counts, ruleset_audit_counts')
    return performance.now() - started
  } finally {
    await client.end()
  }
}

/** bench/paced-load.js as its own process (see there why), on the project's Node. */
function pacedLoadInChild(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const child = spawn(process.execPath, [resolve(here, 'paced-load.js'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolveResult, reject) => {
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.once('exit', (code) => {
      if (code === 0) resolveResult(JSON.parse(output) as PacedLoadResult)
      else reject(new Error(`the paced load generator exited with ${code}`))
    })
  })
}

interface Target {
  pid: number
  bareUrl: string
  apiUrl: string
  token: string
}

/** Starts bench/api-target.js on the project's Node and waits for the line naming its URLs. */
function startTarget(databaseUrl: string): Promise<{ target: Target; toggleProfile: () => void; stop: () => Promise<void> }> {
  // BENCH_TARGET_PROFILE=dir: a V8 CPU profile of the service over the durable evaluations (api-target.ts).
  const child = spawn(process.execPath, [resolve(here, 'api-target.js'), databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolveTarget, reject) => {
    let buffer = ''
    child.once('exit', (code) => reject(new Error(`the benchmark target exited with ${code}`)))
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      const newline = buffer.indexOf('\n')
      if (newline < 0) return
      child.removeAllListeners('exit')
      const target = { ...(JSON.parse(buffer.slice(0, newline)) as Omit<Target, 'pid'>), pid: child.pid ?? 0 }
      resolveTarget({
        target,
        toggleProfile: () => {
          if (process.env.BENCH_TARGET_PROFILE) child.kill('SIGUSR2')
        },
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    })
  })
}

async function main(): Promise<void> {
  const postgres = await startBenchPostgres({ durable: true })
  const { target, toggleProfile, stop } = await startTarget(postgres.url)
  try {
    const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' }
    const setup = async (path: string, payload: unknown): Promise<void> => {
      const response = await fetch(`${target.apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(payload) })
      if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    }
    await setup('/api/rulesets/workloads', { rules })
    await setup('/api/policies/production', { rulesets: ['workloads'], action: 'Deny' })
    const evalUrl = `${target.apiUrl}/api/eval/policies/production`
    const check = await (await fetch(evalUrl, { method: 'POST', headers, body })).json()
    console.log(`ruleset: ${rules.length} rules; sample answer: ${JSON.stringify(check)}`)
    console.log(`node ${process.version}; ${SECONDS} s per run, ${CONNECTIONS} connections; servers in a child process, PostgreSQL and autocannon on the same 2 cores`)

    await run('warm-up', { url: evalUrl, method: 'POST', headers, body, connections: CONNECTIONS, duration: 2 })
    const bareCpuBefore = processCpuMs(target.pid)
    const bareResult = await run('bare fastify, constant answer', { url: target.bareUrl, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, duration: SECONDS })
    // What HTTP alone costs in this process: the floor under the service's figure.
    console.log(`CPU per bare request: ${Math.round(((processCpuMs(target.pid) - bareCpuBefore) * 1000) / bareResult.requests.total)} µs`)
    // CPU from the operating system, around a fixed number of requests: the service process, and
    // the PostgreSQL postmaster with every process it started (backends, WAL writer, checkpointer,
    // autovacuum), ended ones included.
    const cpuBefore = { service: processCpuMs(target.pid), postgres: processTreeCpuMs(postgres.postmasterPid()) }
    toggleProfile()
    const evalResult = await run(`eval with durable audits, ${REQUESTS} requests`, { url: evalUrl, method: 'POST', headers, body, connections: CONNECTIONS, amount: REQUESTS })
    toggleProfile()
    const serviceCpuUs = Math.round(((processCpuMs(target.pid) - cpuBefore.service) * 1000) / evalResult.requests.total)
    const postgresCpuUs = Math.round(((processTreeCpuMs(postgres.postmasterPid()) - cpuBefore.postgres) * 1000) / evalResult.requests.total)
    console.log(`CPU per durable evaluation: service ${serviceCpuUs} µs, PostgreSQL ${postgresCpuUs} µs`)
    // The bare route at the rate the evaluations ran: a process woken for fewer requests at a time
    // spends more per request, so this, not the figure at full speed, is the floor under the service's.
    const evalRate = Math.round(evalResult.requests.total / evalResult.duration)
    const floorBefore = processCpuMs(target.pid)
    const floor = await paced(`bare fastify at ${evalRate} req/s, evenly paced`, { url: target.bareUrl, method: 'POST', headers: { 'content-type': 'application/json' }, body, rate: evalRate, seconds: SECONDS })
    console.log(`CPU per bare request at ${evalRate} req/s: ${Math.round(((processCpuMs(target.pid) - floorBefore) * 1000) / floor.answered)} µs`)
    // The throughput runs wrote ~100,000 rows; autovacuum would process them during the fixed-rate
    // run and compete for the two cores. Vacuuming now measures 1,000 req/s, not that clean-up.
    const vacuumMs = await vacuumAudits(postgres.url)
    console.log(`vacuumed the audit tables in ${Math.round(vacuumMs)} ms before the fixed-rate run`)
    const fixed = await paced(`eval at a fixed ${FIXED_RATE} req/s, evenly paced`, { url: evalUrl, method: 'POST', headers, body, rate: FIXED_RATE, seconds: SECONDS })
    const audited = await (await fetch(`${target.apiUrl}/api/audits/count/policies/production`, { headers })).json()
    console.log(`policy audits written: ${JSON.stringify(audited)}`)

    const bareRps = Math.round(bareResult.requests.total / bareResult.duration)
    const evalRps = Math.round(evalResult.requests.total / evalResult.duration)
    console.log(
      `bare_rps=${bareRps} eval_rps=${evalRps} ratio=${(evalRps / bareRps).toFixed(2)} p50_ms=${fixed.p50} p99_ms=${fixed.p99} service_cpu_us=${serviceCpuUs} postgres_cpu_us=${postgresCpuUs}`,
    )
  } finally {
    await stop()
    await postgres.stop()
  }
}

await main()
