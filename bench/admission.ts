// The admission webhook under load: AdmissionReviews for a Pod over TLS, 50 CEL rules in five
// policies (Deny, Warn, Audit), each review's 5 policy and 5 ruleset audits committed to
// PostgreSQL with fsync on by the group-commit writer (the webhook's default: the answer does not
// wait for the commit; BENCH_AUDIT_WAIT_MS=50 makes it wait up to 50 ms). First a fixed
// 500 reviews/s, evenly paced, for the target's latency; then the rate steps up until p99 passes
// 10 ms or a review fails, for the highest sustained rate. Last, a webhook whose 50 rules include
// one hostile rule (BENCH_HOSTILE: doubling, the default, list-doubling or nested; none skips it)
// takes the same fixed 500 reviews/s: what a rule the CEL budget has to stop on every review
// costs the others. The webhook and each load step run in processes of their own; PostgreSQL,
// webhook and load generator share the machine's cores.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import type { AdmissionLoadOptions, AdmissionLoadResult } from './admission-load.js'
import { BENCH_DEFINITIONS, HOSTILE_RULES } from './admission-policies.js'
import { percentile } from './paced-load.js'
import { startBenchPostgres } from './postgres-server.js'

const FIXED_RATE = Number(process.env.BENCH_FIXED_RATE ?? 500)
const FIXED_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 5)
const STEPS = (process.env.BENCH_STEPS ?? '600,700,800,900,1000,1200,1400,1700,2000,2500,3000').split(',').map(Number)
const P99_LIMIT_MS = 10
const HOSTILE = process.env.BENCH_HOSTILE ?? 'doubling'

const here = fileURLToPath(new URL('.', import.meta.url))
const pod = JSON.parse(readFileSync(resolve(here, '..', '..', 'bench', 'fixtures', 'restricted-pod.json'), 'utf8')) as { metadata: { name: string; namespace: string } }

/** An AdmissionReview as the API server sends it for `kubectl apply` of the Pod; the uid is filled in per request. */
const reviewTemplate = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: '__UID__',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: pod.metadata.name,
    namespace: pod.metadata.namespace,
    operation: 'CREATE',
    userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', uid: 'c7a9f1e2-3b4d-4e5f-8a6b-7c8d9e0f1a2b', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] },
    object: pod,
    oldObject: null,
    dryRun: false,
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
  },
})

interface Target {
  port: number
  certFile: string
}

/** Starts bench/admission-target.js on the project's Node and waits for the line naming its port. */
function startTarget(databaseUrl: string, hostile?: string): Promise<{ target: Target; stop: () => Promise<void> }> {
  // BENCH_TARGET_PROFILE=dir writes a V8 CPU profile of the webhook there, to see where its time goes.
  const profile = process.env.BENCH_TARGET_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_TARGET_PROFILE}`] : []
  const env = { ...process.env }
  if (hostile === undefined) delete env.BENCH_HOSTILE
  else env.BENCH_HOSTILE = hostile
  const child = spawn(process.execPath, [...profile, resolve(here, 'admission-target.js'), databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'], env })
  return new Promise((resolveTarget, reject) => {
    let buffer = ''
    child.once('exit', (code) => reject(new Error(`the webhook target exited with ${code}`)))
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      const newline = buffer.indexOf('\n')
      if (newline < 0) return
      child.removeAllListeners('exit')
      resolveTarget({
        target: JSON.parse(buffer.slice(0, newline)) as Target,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    })
  })
}

/** bench/admission-load.js as its own process, on the project's Node. */
function loadInChild(options: AdmissionLoadOptions): Promise<AdmissionLoadResult> {
  const child = spawn(process.execPath, [resolve(here, 'admission-load.js'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolveResult, reject) => {
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.once('exit', (code) => {
      if (code === 0) resolveResult(JSON.parse(output) as AdmissionLoadResult)
      else reject(new Error(`the load generator exited with ${code}`))
    })
  })
}

/** Milliseconds to one decimal. */
function ms(value: number): number {
  return Math.round(value * 10) / 10
}

interface StepFigures {
  rate: number
  p50: number
  p99: number
  failed: number
  sustained: boolean
}

async function step(target: Target, rate: number, seconds: number, label: string, judged = true): Promise<StepFigures> {
  const result = await loadInChild({ port: target.port, caFile: target.certFile, reviewTemplate, rate, seconds })
  const p50 = ms(percentile(result.latenciesMs, 0.5))
  const p99 = ms(percentile(result.latenciesMs, 0.99))
  const max = ms(result.latenciesMs.at(-1) ?? Number.NaN)
  const sustained = result.failed === 0 && result.answered === result.sent && p99 <= P99_LIMIT_MS
  console.log(
    `${label}: ${result.sent} reviews at ${rate}/s over ${seconds} s, ${result.answered} answered, ` +
      `latency p50 ${p50} ms p99 ${p99} ms max ${max} ms, ${result.failed} failed${!judged || sustained ? '' : ' -> not sustained'}`,
  )
  return { rate, p50, p99, failed: result.failed, sustained }
}

async function countAudits(databaseUrl: string): Promise<{ policyAudits: number; rulesetAudits: number; inputs: number }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const count = async (table: string): Promise<number> => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n ?? 0)
    return { policyAudits: await count('policy_audits'), rulesetAudits: await count('ruleset_audits'), inputs: await count('audit_inputs') }
  } finally {
    await client.end()
  }
}

async function main(): Promise<void> {
  const postgres = await startBenchPostgres({ durable: true })
  const { target, stop } = await startTarget(postgres.url)
  let stopped = false
  try {
    const rules = Object.values(BENCH_DEFINITIONS.rulesets).reduce((sum, ruleset) => sum + ruleset.rules.length, 0)
    const actions = Object.entries(BENCH_DEFINITIONS.policies).map(([name, policy]) => `${name}:${policy.action}`)
    console.log(`node ${process.version}; ${rules} rules in ${actions.length} policies (${actions.join(', ')}); webhook on https://127.0.0.1:${target.port}`)
    const sample = await loadSample(target)
    console.log(`sample answer: ${sample}`)

    // Not judged: the first seconds compile hot paths and fill PostgreSQL's fresh caches.
    await step(target, FIXED_RATE, 3, 'warm-up', false)
    const fixed = await step(target, FIXED_RATE, FIXED_SECONDS, `fixed ${FIXED_RATE}/s, evenly paced`)
    let maxSustained = fixed.sustained ? FIXED_RATE : 0
    if (fixed.sustained) {
      for (const rate of STEPS) {
        const figures = await step(target, rate, STEP_SECONDS, `step ${rate}/s`)
        if (!figures.sustained) break
        maxSustained = rate
      }
    }
    // Stopping the webhook flushes the audit writer: every audit the run produced is counted.
    await stop()
    stopped = true
    const audits = await countAudits(postgres.url)
    console.log(`audits committed: ${audits.policyAudits} policy audits, ${audits.rulesetAudits} ruleset audits, ${audits.inputs} reviews (5 + 5 per review)`)
    const hostile = HOSTILE === 'none' ? undefined : await hostileRun(postgres.url)
    const hostileFigures = hostile ? ` hostile_p50_ms=${hostile.p50} hostile_p99_ms=${hostile.p99}` : ''
    console.log(`p50_ms=${fixed.p50} p99_ms=${fixed.p99} max_sustained_rps=${maxSustained}${hostileFigures}`)
  } finally {
    if (!stopped) await stop()
    await postgres.stop()
  }
}

/** The fixed rate again, on a webhook whose rules include one the CEL budget must stop on every review. */
async function hostileRun(databaseUrl: string): Promise<StepFigures> {
  const description = HOSTILE_RULES[HOSTILE]?.description ?? HOSTILE
  const { target, stop } = await startTarget(databaseUrl, HOSTILE)
  try {
    console.log(`hostile run: one of the 50 rules replaced by ${description}; sample answer: ${await loadSample(target)}`)
    await step(target, FIXED_RATE, 3, 'hostile warm-up', false)
    return await step(target, FIXED_RATE, FIXED_SECONDS, `hostile, fixed ${FIXED_RATE}/s, evenly paced`)
  } finally {
    await stop()
  }
}

/** One review, for the log: what the webhook answers the benchmark Pod. */
async function loadSample(target: Target): Promise<string> {
  const body = reviewTemplate.replace('"__UID__"', '"sample"')
  return new Promise((resolveAnswer, reject) => {
    const req = request(
      { host: '127.0.0.1', port: target.port, servername: 'localhost', ca: readFileSync(target.certFile), method: 'POST', path: '/validate', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        res.on('end', () => resolveAnswer(`${res.statusCode} ${text}`))
      },
    )
    req.once('error', reject)
    req.end(body)
  })
}

await main()
