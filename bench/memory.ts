// Memory of the service as its container runs it: `node dist/src/cli.js serve` with
// NODE_OPTIONS=--max-semi-space-size=8 (the image's and the chart's), started as a black box. What
// must fit under the pod's memory limit is the process tree, not one heap: the Node process and
// every process it starts (an embedded store may be a PostgreSQL server of its own, under
// <VERDICT_DATA_DIR>/postgres). So this reads /proc every 50 ms (BENCH_SAMPLE_MS) and sums, over
// the tree, PSS from smaps_rollup (a page shared by several processes, such as PostgreSQL's shared
// buffers, counts once, split between them) and RSS (shared pages counted in every process). Each
// phase prints its peak and the level 5 s after it ended (settled). Reading smaps_rollup makes the
// kernel walk each process's pages on this process's CPU, which the server then lacks on a small
// machine: the run ends with what sampling cost.
//
// Per store (BENCH_MODES, default both): `embedded` (a fresh VERDICT_DATA_DIR, the first start
// creating the store) and `external` (VERDICT_DATABASE_URL on a bench PostgreSQL with fsync on,
// a fresh database per server; that server's memory is not counted). Phases (BENCH_PHASES):
//   start      from spawn to /readyz answering 200 on the ops port;
//   rest       POST /api/eval/policies/pod-security (10 CEL rules, durable audits) at an even
//              1,000/s for BENCH_PHASE_SECONDS (default 30), from a process of its own
//              (bench/paced-load.ts), after bench/admission-policies.ts's 5 rulesets (50 rules) and
//              5 policies were stored through the REST API;
//   admission  AdmissionReviews over TLS at an even 500/s for BENCH_PHASE_SECONDS (bench/admission-load.ts);
//   soak       REST 500/s and admission 250/s together for BENCH_SOAK_SECONDS (default 600): the
//              tree's PSS after a warm-up of 60 s (at most half the soak) and at the end, each the
//              median of the samples of the 5 s before, and the change (target: within 10%);
//   definitions  BENCH_DEFINITION_RULESETS (default 1,000) more rulesets of 10 CEL rules, each with
//              an Audit policy, stored through the REST API: the settled level's growth per 1,000
//              rules, which docs/memory.md sizes a large cluster by;
//   scan       a fresh store, the controller on (VERDICT_CONTROLLER=on, KUBECONFIG) against the test
//              Kubernetes API server (bench/kube-api-process.ts) holding BENCH_SCAN_OBJECTS (default
//              100,000) objects; bench/scan.ts's 10-rule Pod Security policy created through the REST
//              API, and the background scan that starts (every verdict new, all audited). The server
//              logs at info in this phase only: its "background scan done" line says when the scan ended;
//   limited    as root with a memory cgroup: a fresh store, the server started inside a child cgroup
//              whose limit is the chart's for the mode (BENCH_LIMIT_EMBEDDED / BENCH_LIMIT_EXTERNAL,
//              default from charts/verdict/values.yaml), then REST 500/s and admission 250/s for
//              BENCH_LIMIT_SECONDS (default 30): the cgroup's peak (what the kernel charged it: page
//              cache included, pages first touched elsewhere not), whether the OOM killer struck,
//              whether the server stayed ready.
// The REST, admission, soak and definitions phases run on one server (controller off); scan and limited start
// their own. The per-token rate limit is lifted (VERDICT_RATE_LIMIT), as bench/api-target.ts does.
// Last lines: one summary per mode, the peaks being the tree's PSS in MiB.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import * as yaml from 'js-yaml'
import pg from 'pg'
import { createSelfSignedCertificate } from '../src/admission/tls/self-signed-certificate.js'
import type { AdmissionLoadOptions, AdmissionLoadResult } from './admission-load.js'
import { BENCH_DEFINITIONS } from './admission-policies.js'
import { SCAN_RULES } from './scan-objects.js'
import { percentile, type PacedLoadOptions, type PacedLoadResult } from './paced-load.js'
import { freePort, handToPostgresUser } from './postgres-cluster.js'
import { startBenchPostgres, type BenchPostgres } from './postgres-server.js'

type Mode = 'embedded' | 'external'
type Phase = 'start' | 'rest' | 'admission' | 'soak' | 'definitions' | 'scan' | 'limited'

const MODES = (process.env.BENCH_MODES ?? 'embedded,external').split(',').map((mode) => mode.trim()) as Mode[]
const PHASES = new Set((process.env.BENCH_PHASES ?? 'start,rest,admission,soak,definitions,scan,limited').split(',').map((phase) => phase.trim()) as Phase[])
const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 30)
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600)
const SOAK_WARMUP_SECONDS = Math.min(60, SOAK_SECONDS / 2)
const SCAN_OBJECTS = Number(process.env.BENCH_SCAN_OBJECTS ?? 100_000)
const LIMIT_SECONDS = Number(process.env.BENCH_LIMIT_SECONDS ?? 30)
const DEFINITION_RULESETS = Number(process.env.BENCH_DEFINITION_RULESETS ?? 1000)
const REST_RATE = 1000
const ADMISSION_RATE = 500
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 50)
const MALLOC_ARENA_MAX = process.env.BENCH_MALLOC_ARENA_MAX ?? '2'
const SETTLE_MS = 5000
/** The soak's levels: the median of the samples of this long before each point, not one sample on a GC's sawtooth. */
const LEVEL_MS = 5000
const READY_TIMEOUT_MS = 180_000
const SCAN_TIMEOUT_MS = 15 * 60_000
const MIB = 1024 * 1024

const here = fileURLToPath(new URL('.', import.meta.url))
const root = resolve(here, '..', '..')
const cli = join(root, 'dist', 'src', 'cli.js')
const pod = JSON.parse(readFileSync(join(root, 'bench', 'fixtures', 'restricted-pod.json'), 'utf8')) as { metadata: { name: string; namespace: string } }

// ---- The process tree's memory (Linux /proc) ----------------------------------------------------

interface Sample {
  at: number
  pssKib: number
  rssKib: number
  /** The server's own process (the tree's root): the rest is what it started. */
  rootPssKib: number
  processes: number
}

interface ProcessEntry {
  pid: number
  parent: number
  command: string
}

function listProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // The command name (field 2) may hold spaces and parentheses; the parent pid is the second field after it.
      const close = stat.lastIndexOf(')')
      entries.push({ pid: Number(name), command: stat.slice(stat.indexOf('(') + 1, close), parent: Number(stat.slice(close + 2).split(' ')[1]) })
    } catch {
      // The process ended while we looked.
    }
  }
  return entries
}

/**
 * `root` and its descendants, plus any PostgreSQL process whose command line names `dataDir` (and
 * its descendants): a postmaster started through pg_ctl leaves the tree (setsid, re-parented).
 */
function processTree(root: number, dataDir: string): number[] {
  const processes = listProcesses()
  const children = new Map<number, number[]>()
  for (const entry of processes) {
    const siblings = children.get(entry.parent)
    if (siblings) siblings.push(entry.pid)
    else children.set(entry.parent, [entry.pid])
  }
  const tree = new Set<number>()
  const add = (pid: number): void => {
    if (tree.has(pid)) return
    tree.add(pid)
    for (const child of children.get(pid) ?? []) add(child)
  }
  add(root)
  for (const pid of detachedStoreProcesses(processes.filter((entry) => !tree.has(entry.pid)), dataDir)) add(pid)
  return [...tree]
}

function detachedStoreProcesses(processes: readonly ProcessEntry[], dataDir: string): number[] {
  return processes.filter((entry) => entry.command === 'postgres' && commandLine(entry.pid).includes(dataDir)).map((entry) => entry.pid)
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

/** Rss and Pss of one process in KiB, from smaps_rollup; undefined once it is gone. */
function processMemory(pid: number): { rssKib: number; pssKib: number } | undefined {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0)
    return { rssKib: field('Rss'), pssKib: field('Pss') }
  } catch {
    return undefined
  }
}

function sampleTree(root: number, dataDir: string): Sample {
  const sample: Sample = { at: performance.now(), pssKib: 0, rssKib: 0, rootPssKib: 0, processes: 0 }
  for (const pid of processTree(root, dataDir)) {
    const memory = processMemory(pid)
    if (!memory) continue
    if (pid === root) sample.rootPssKib = memory.pssKib
    sample.pssKib += memory.pssKib
    sample.rssKib += memory.rssKib
    sample.processes += 1
  }
  return sample
}

/** The samples of one phase: peaks, and the level around a moment. */
class Window {
  readonly samples: Sample[] = []

  add(sample: Sample): void {
    this.samples.push(sample)
  }

  peak(): PhaseFigures['peak'] {
    const highest = this.samples.reduce<Sample | undefined>((top, sample) => (top && top.pssKib >= sample.pssKib ? top : sample), undefined)
    return {
      startPssKib: this.samples[0]?.pssKib ?? 0,
      rootPssKib: highest?.rootPssKib ?? 0,
      pssKib: Math.max(0, ...this.samples.map((sample) => sample.pssKib)),
      rssKib: Math.max(0, ...this.samples.map((sample) => sample.rssKib)),
      processes: Math.max(0, ...this.samples.map((sample) => sample.processes)),
    }
  }

  /** The median PSS of the samples in the LEVEL_MS before `at`. */
  levelPssKib(at: number): number {
    const recent = this.samples.filter((sample) => sample.at > at - LEVEL_MS && sample.at <= at).map((sample) => sample.pssKib)
    return percentile(recent.sort((a, b) => a - b), 0.5)
  }
}

/** Time this process spent sampling: reading smaps_rollup makes the kernel walk each process's pages, CPU the server does not get. */
const samplingCost = { samples: 0, ms: 0 }

/** Samples a process tree every SAMPLE_MS from this process and feeds the open windows. */
class TreeSampler {
  readonly #windows = new Set<Window>()
  readonly #timer: NodeJS.Timeout

  constructor(
    readonly root: number,
    readonly dataDir: string,
  ) {
    this.#timer = setInterval(() => this.sample(), SAMPLE_MS)
  }

  sample(): Sample {
    const sample = sampleTree(this.root, this.dataDir)
    samplingCost.samples += 1
    samplingCost.ms += performance.now() - sample.at
    for (const window of this.#windows) window.add(sample)
    return sample
  }

  window(): Window {
    const window = new Window()
    this.#windows.add(window)
    window.add(this.sample())
    return window
  }

  close(window: Window): void {
    window.add(this.sample())
    this.#windows.delete(window)
  }

  stop(): void {
    clearInterval(this.#timer)
  }
}

interface PhaseFigures {
  /** The highest sums of the phase, and the PSS when it began. */
  peak: { pssKib: number; rssKib: number; processes: number; startPssKib: number; rootPssKib: number }
  settled: Sample
}

/** Runs `work` in a window of its own; the settled level is one sample SETTLE_MS after it ended. */
async function measured<T>(sampler: TreeSampler, work: (window: Window) => Promise<T>): Promise<PhaseFigures & { result: T }> {
  const window = sampler.window()
  let result: T
  try {
    result = await work(window)
  } finally {
    sampler.close(window)
  }
  await sleep(SETTLE_MS)
  return { result, peak: window.peak(), settled: sampler.sample() }
}

function mib(kib: number): string {
  return (kib / 1024).toFixed(1)
}

function printPhase(mode: Mode, phase: string, figures: PhaseFigures, detail = ''): void {
  const { peak, settled } = figures
  console.log(
    `${mode} ${phase}: tree PSS ${mib(peak.startPssKib)} MiB at its start; peak PSS ${mib(peak.pssKib)} MiB (the Node process ${mib(peak.rootPssKib)}) ` +
      `RSS ${mib(peak.rssKib)} MiB (up to ${peak.processes} processes); settled PSS ${mib(settled.pssKib)} MiB RSS ${mib(settled.rssKib)} MiB (${settled.processes} processes)${detail ? `; ${detail}` : ''}`,
  )
}

// ---- The server, a black box --------------------------------------------------------------------

/** Where a server keeps its data: a data directory, and for external mode a database of its own. */
interface Store {
  dataDir: string
  databaseUrl?: string
}

/** What every server of a run shares: the admin secret and the webhook's certificate files. */
interface Shared {
  token: string
  certFile: string
  keyFile: string
  postgres?: BenchPostgres
}

interface ServerOptions {
  store: Store
  controller: 'on' | 'off'
  logLevel: 'warn' | 'info'
  kubeconfig?: string
  /** cgroup.procs of the cgroup the server starts in (before exec). */
  cgroupProcs?: string
}

interface LogLine {
  level: number
  msg: string
  fields: Record<string, unknown>
}

interface Verdict {
  pid: number
  spawnedAt: number
  apiUrl: string
  opsUrl: string
  webhookPort: number
  headers: Record<string, string>
  sampler: TreeSampler
  /** The info-or-louder lines logged so far (the last 1,000). */
  logs: LogLine[]
  exitCode(): number | null | undefined
  stop(): Promise<void>
}

function launchVerdict(options: ServerOptions, shared: Shared, ports: { api: number; webhook: number; ops: number }): Verdict {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VERDICT_') && name !== 'KUBECONFIG'))
  Object.assign(env, {
    NODE_OPTIONS: '--max-semi-space-size=8',
    // As the image sets it; BENCH_MALLOC_ARENA_MAX='' measures glibc's default.
    ...(MALLOC_ARENA_MAX === '' ? {} : { MALLOC_ARENA_MAX }),
    VERDICT_DATA_DIR: options.store.dataDir,
    VERDICT_API_PORT: String(ports.api),
    VERDICT_WEBHOOK_PORT: String(ports.webhook),
    VERDICT_OPS_PORT: String(ports.ops),
    VERDICT_CONTROLLER: options.controller,
    VERDICT_LOG_LEVEL: options.logLevel,
    VERDICT_LOG_FORMAT: 'json',
    VERDICT_BOOTSTRAP_TOKEN: shared.token,
    VERDICT_TLS_CERT_FILE: shared.certFile,
    VERDICT_TLS_KEY_FILE: shared.keyFile,
    // The benchmark loads one token at 1,500 requests/s; the limiter is not what it measures.
    VERDICT_RATE_LIMIT: '1000000',
    VERDICT_RATE_BURST: '1000000',
    VERDICT_POD_NAME: 'verdict-bench',
  })
  if (options.store.databaseUrl) env.VERDICT_DATABASE_URL = options.store.databaseUrl
  if (options.kubeconfig) env.KUBECONFIG = options.kubeconfig
  const command = [process.execPath, cli, 'serve']
  // In a cgroup: the shell puts itself there and then becomes Node (exec), so the server's first instruction is already charged to it.
  const child = options.cgroupProcs
    ? spawn('sh', ['-c', 'echo $$ > "$0" && exec "$@"', options.cgroupProcs, ...command], { env, cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(command[0] as string, command.slice(1), { env, cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  if (child.pid === undefined) throw new Error('the server did not start')
  const logs = followLogs(child)
  const sampler = new TreeSampler(child.pid, options.store.dataDir)
  return {
    pid: child.pid,
    spawnedAt: performance.now(),
    apiUrl: `http://127.0.0.1:${ports.api}`,
    opsUrl: `http://127.0.0.1:${ports.ops}`,
    webhookPort: ports.webhook,
    headers: { authorization: `Bearer ${shared.token}`, 'content-type': 'application/json' },
    sampler,
    logs,
    exitCode: () => (child.exitCode === null && child.signalCode === null ? undefined : child.exitCode),
    stop: () => stopVerdict(child, sampler, options.store.dataDir),
  }
}

/** The server's JSON log lines: warnings and errors printed, info-or-louder lines kept for the bench to wait on. */
function followLogs(child: ChildProcess): LogLine[] {
  const kept: LogLine[] = []
  if (!child.stdout) return kept
  createInterface({ input: child.stdout }).on('line', (text) => {
    let parsed: Record<string, unknown>
    try {
      parsed = JSON.parse(text) as Record<string, unknown>
    } catch {
      console.error(`verdict: ${text}`)
      return
    }
    const { level, msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = parsed
    const line = { level: Number(level), msg: String(msg), fields }
    if (line.level >= 40) console.error(`verdict ${line.level >= 50 ? 'error' : 'warn'}: ${line.msg} ${JSON.stringify(fields).slice(0, 400)}`)
    kept.push(line)
    if (kept.length > 1000) kept.shift()
  })
  return kept
}

async function stopVerdict(child: ChildProcess, sampler: TreeSampler, dataDir: string): Promise<void> {
  sampler.stop()
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((done) => child.once('exit', () => done()))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    await exited
    clearTimeout(timer)
  }
  // A store process the server started and left behind would hold the data directory.
  const left = detachedStoreProcesses(listProcesses(), dataDir)
  if (left.length > 0) {
    console.error(`the server left PostgreSQL processes running on ${dataDir}: ${left.join(', ')}; ending them`)
    for (const pid of left) process.kill(pid, 'SIGTERM')
    await sleep(2000)
  }
}

async function startVerdict(options: ServerOptions, shared: Shared): Promise<Verdict> {
  return launchVerdict(options, shared, { api: await freePort(), webhook: await freePort(), ops: await freePort() })
}

/** Polls /readyz on the ops port until it answers 200; fails when the server exits first. */
async function waitReady(verdict: Verdict, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    const code = verdict.exitCode()
    if (code !== undefined) throw new Error(`the server exited (${code === null ? 'killed by a signal' : `code ${code}`}) before it was ready`)
    if (await answersReady(verdict)) return
    await sleep(100)
  }
  throw new Error(`the server was not ready within ${timeoutMs / 1000} s`)
}

async function answersReady(verdict: Verdict): Promise<boolean> {
  try {
    const response = await fetch(`${verdict.opsUrl}/readyz`, { signal: AbortSignal.timeout(3000) })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

async function waitForLog(verdict: Verdict, what: string, matches: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    const found = verdict.logs.find(matches)
    if (found) return found
    if (verdict.exitCode() !== undefined) throw new Error(`the server exited while waiting for ${what}`)
    await sleep(100)
  }
  throw new Error(`no ${what} within ${timeoutMs / 1000} s`)
}

/** POST through the REST API; 409 means an earlier start on this store made it already. */
async function create(verdict: Verdict, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${verdict.apiUrl}${path}`, { method: 'POST', headers: verdict.headers, body: JSON.stringify(body) })
  if (response.status !== 201 && response.status !== 409) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
  await response.arrayBuffer().catch(() => undefined)
}

async function storeBenchDefinitions(verdict: Verdict): Promise<void> {
  for (const [name, ruleset] of Object.entries(BENCH_DEFINITIONS.rulesets)) await create(verdict, `/api/rulesets/${name}`, ruleset)
  for (const [name, policy] of Object.entries(BENCH_DEFINITIONS.policies)) await create(verdict, `/api/policies/${name}`, policy)
}

// ---- Load, from processes of their own -----------------------------------------------------------

/** A bench script run as a program with its options as JSON, printing its result as one JSON line. */
function jsonChild<T>(script: string, options: unknown): Promise<T> {
  const child = spawn(process.execPath, [join(here, script), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolveResult, reject) => {
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.once('exit', (code) => {
      if (code === 0) resolveResult(JSON.parse(output) as T)
      else reject(new Error(`${script} exited with ${code}`))
    })
  })
}

interface LoadFigures {
  label: string
  sent: number
  answered: number
  failed: number
  latenciesMs: number[]
}

async function restLoad(verdict: Verdict, rate: number, seconds: number): Promise<LoadFigures> {
  const options: PacedLoadOptions = {
    url: `${verdict.apiUrl}/api/eval/policies/pod-security`,
    method: 'POST',
    headers: verdict.headers,
    body: JSON.stringify({ inputData: pod }),
    rate,
    seconds,
  }
  return { label: `REST ${rate}/s`, ...(await jsonChild<PacedLoadResult>('paced-load.js', options)) }
}

async function admissionLoad(verdict: Verdict, shared: Shared, rate: number, seconds: number): Promise<LoadFigures> {
  const options: AdmissionLoadOptions = { port: verdict.webhookPort, caFile: shared.certFile, reviewTemplate: admissionReviewTemplate(), rate, seconds }
  return { label: `admission ${rate}/s`, ...(await jsonChild<AdmissionLoadResult>('admission-load.js', options)) }
}

/** An AdmissionReview as the API server sends it for `kubectl apply` of the Pod (bench/admission.ts's); the uid is filled in per request. */
function admissionReviewTemplate(): string {
  const kind = { group: '', version: 'v1', kind: 'Pod' }
  const resource = { group: '', version: 'v1', resource: 'pods' }
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: '__UID__',
      kind,
      resource,
      requestKind: kind,
      requestResource: resource,
      name: pod.metadata.name,
      namespace: pod.metadata.namespace,
      operation: 'CREATE',
      userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] },
      object: pod,
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    },
  })
}

function describeLoad(load: LoadFigures): string {
  const p = (fraction: number): string => (Math.round(percentile(load.latenciesMs, fraction) * 10) / 10).toString()
  return `${load.label}: ${load.sent} sent, ${load.answered} answered, ${load.failed} failed, p50 ${p(0.5)} ms p99 ${p(0.99)} ms`
}

// ---- Phases -------------------------------------------------------------------------------------

interface Summary {
  start?: number
  rest?: number
  admission?: number
  scan?: number
  soakStart?: number
  soakEnd?: number
  limitMib?: number
  limitedMaxUsageMib?: number
  limitedKilled?: boolean
  limitedReady?: boolean
  definitionsPerThousandRules?: number
}

/** Start, REST, admission and soak, on one server with the controller off. */
async function mainServerPhases(mode: Mode, shared: Shared, summary: Summary): Promise<void> {
  const store = await freshStore(mode, 'main', shared)
  const verdict = await startVerdict({ store, controller: 'off', logLevel: 'warn' }, shared)
  try {
    const start = await measured(verdict.sampler, async () => {
      await waitReady(verdict)
      return performance.now() - verdict.spawnedAt
    })
    if (PHASES.has('start')) {
      printPhase(mode, 'start', start, `ready ${(start.result / 1000).toFixed(1)} s after spawn`)
      summary.start = start.peak.pssKib
    }
    await storeBenchDefinitions(verdict)
    if (PHASES.has('rest')) {
      const rest = await measured(verdict.sampler, () => restLoad(verdict, REST_RATE, PHASE_SECONDS))
      printPhase(mode, `rest (${REST_RATE}/s for ${PHASE_SECONDS} s)`, rest, describeLoad(rest.result))
      summary.rest = rest.peak.pssKib
    }
    if (PHASES.has('admission')) {
      const admission = await measured(verdict.sampler, () => admissionLoad(verdict, shared, ADMISSION_RATE, PHASE_SECONDS))
      printPhase(mode, `admission (${ADMISSION_RATE}/s for ${PHASE_SECONDS} s)`, admission, describeLoad(admission.result))
      summary.admission = admission.peak.pssKib
    }
    if (PHASES.has('soak')) await soakPhase(mode, verdict, shared, summary)
    if (PHASES.has('definitions')) await definitionsPhase(mode, verdict, summary)
  } finally {
    await verdict.stop()
    removeStore(store)
  }
}

/**
 * What stored definitions cost: DEFINITION_RULESETS more rulesets of 10 CEL rules, each with an
 * Audit policy, stored through the REST API (every replica compiles and keeps them all), then the
 * settled level against the one before, per 1,000 rules: the figure docs/memory.md sizes by.
 */
async function definitionsPhase(mode: Mode, verdict: Verdict, summary: Summary): Promise<void> {
  const before = await measured(verdict.sampler, async () => {})
  const stored = await measured(verdict.sampler, async () => {
    for (let index = 0; index < DEFINITION_RULESETS; index += 1) {
      const name = `sizing-${index}`
      const rules = Array.from({ length: 10 }, (_, rule) => ({
        name: `rule-${rule}`,
        match: { kinds: ['Pod'] },
        validate: { cel: [{ expression: `object.spec.containers.all(c, c.?resources.?limits.?memory.orValue('') != '${index}-${rule}')` }] },
      }))
      await create(verdict, `/api/rulesets/${name}`, { rules })
      await create(verdict, `/api/policies/${name}`, { rulesets: [name], action: 'Audit' })
    }
  })
  const rules = DEFINITION_RULESETS * 10
  const perThousand = ((stored.settled.pssKib - before.settled.pssKib) / rules) * 1000
  printPhase(mode, `definitions (${DEFINITION_RULESETS} rulesets of 10 CEL rules, each with a policy)`, stored, `${mib(perThousand)} MiB per 1,000 rules (settled, against ${mib(before.settled.pssKib)} MiB before)`)
  summary.definitionsPerThousandRules = perThousand
}

async function soakPhase(mode: Mode, verdict: Verdict, shared: Shared, summary: Summary): Promise<void> {
  const soak = await measured(verdict.sampler, async (window) => {
    const begun = performance.now()
    const loads = Promise.all([restLoad(verdict, REST_RATE / 2, SOAK_SECONDS), admissionLoad(verdict, shared, ADMISSION_RATE / 2, SOAK_SECONDS)])
    await sleep(SOAK_WARMUP_SECONDS * 1000)
    const warm = window.levelPssKib(performance.now())
    console.log(`${mode} soak: tree PSS ${mib(warm)} MiB after ${Math.round((performance.now() - begun) / 1000)} s of warm-up`)
    const done = await loads
    return { warm, end: window.levelPssKib(performance.now()), loads: done }
  })
  const change = ((soak.result.end - soak.result.warm) / soak.result.warm) * 100
  printPhase(
    mode,
    `soak (REST ${REST_RATE / 2}/s + admission ${ADMISSION_RATE / 2}/s for ${SOAK_SECONDS} s)`,
    soak,
    `PSS ${mib(soak.result.warm)} MiB after the warm-up, ${mib(soak.result.end)} MiB at the end: ${change.toFixed(1)}% (target within 10%); ${soak.result.loads.map(describeLoad).join('; ')}`,
  )
  summary.soakStart = soak.result.warm
  summary.soakEnd = soak.result.end
}

async function scanPhase(mode: Mode, shared: Shared, summary: Summary): Promise<void> {
  const api = await startKubeApi(SCAN_OBJECTS)
  const store = await freshStore(mode, 'scan', shared)
  const kubeconfig = join(store.dataDir, 'kubeconfig')
  writeFileSync(kubeconfig, kubeconfigFor(api.url))
  const verdict = await startVerdict({ store, controller: 'on', logLevel: 'info', kubeconfig }, shared)
  try {
    await waitReady(verdict)
    // The leader's first scan, with no policy yet, so that the one measured is the policy's alone.
    await waitForLog(verdict, 'first background scan', (line) => line.msg.startsWith('background scan done'), 120_000)
    const scan = await measured(verdict.sampler, async () => {
      await create(verdict, '/api/rulesets/scan-pod-security', { rules: SCAN_RULES.map(([name, pattern]) => ({ name, match: { kinds: ['Pod'] }, validate: { pattern } })) })
      await create(verdict, '/api/policies/scan-pod-security', { rulesets: ['scan-pod-security'], action: 'Audit' })
      const done = await waitForLog(verdict, 'background scan of the policy', (line) => line.msg.startsWith('background scan done') && Number(line.fields.objectsJudged) > 0, SCAN_TIMEOUT_MS)
      return done.fields
    })
    const judged = Number(scan.result.objectsJudged)
    const seconds = Number(scan.result.millis) / 1000
    printPhase(mode, `scan (${SCAN_OBJECTS} objects, controller on)`, scan, `${judged} objects judged in ${seconds.toFixed(1)} s (${Math.round(judged / seconds)}/s), reports ${JSON.stringify(scan.result.reports)}`)
    summary.scan = scan.peak.pssKib
  } finally {
    await verdict.stop()
    removeStore(store)
    api.stop()
  }
}

/** The test API server (bench/kube-api-process.ts) in a process of its own, whose memory is not counted. */
async function startKubeApi(objects: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(here, 'kube-api-process.js'), String(objects)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout }).once('line', resolveLine)
    child.once('exit', (code) => reject(new Error(`the test API server exited (${String(code)}) before it listened`)))
  })
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => void child.kill() }
}

function kubeconfigFor(server: string): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'bench', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'bench', user: { token: 'bench' } }],
    contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench' } }],
    'current-context': 'bench',
  })
}

async function limitedPhase(mode: Mode, shared: Shared, summary: Summary): Promise<void> {
  const limit = memoryLimit(mode)
  summary.limitMib = limit.bytes / MIB
  const cgroup = createMemoryCgroup(limit.bytes)
  if ('unavailable' in cgroup) {
    console.log(`${mode} limited: skipped, ${cgroup.unavailable}`)
    return
  }
  console.log(`${mode} limited: memory cgroup ${cgroup.dir}, limit ${limit.bytes / MIB} MiB (${limit.source})`)
  const store = await freshStore(mode, 'limited', shared)
  try {
    const verdict = await startVerdict({ store, controller: 'off', logLevel: 'warn', cgroupProcs: cgroup.procsFile }, shared)
    const limited = await measured(verdict.sampler, () => startAndLoad(verdict, shared))
    const running = verdict.exitCode() === undefined
    const readyAtEnd = running && (await answersReady(verdict))
    const usageAtEnd = cgroup.usage()
    await verdict.stop()
    const { loads, notReady, problem } = limited.result
    summary.limitedMaxUsageMib = cgroup.peakBytes() / MIB
    summary.limitedKilled = cgroup.oomKills() > 0
    summary.limitedReady = running && readyAtEnd && notReady === 0 && problem === undefined
    printPhase(
      mode,
      `limited (start + REST ${REST_RATE / 2}/s + admission ${ADMISSION_RATE / 2}/s for ${LIMIT_SECONDS} s)`,
      limited,
      `cgroup peak ${(cgroup.peakBytes() / MIB).toFixed(1)} MiB of ${limit.bytes / MIB} MiB (at the end ${usageAtEnd}), OOM kills ${cgroup.oomKills()}, ` +
        `server ${running ? 'still running' : 'gone'}, readiness failures ${notReady}, ready at the end: ${readyAtEnd ? 'yes' : 'no'}` +
        `${problem ? `; ${problem}` : ''}${loads.map((load) => `; ${describeLoad(load)}`).join('')}`,
    )
  } finally {
    await cgroup.remove()
    removeStore(store)
  }
}

/** Start and load of the limited phase, with /readyz asked every second; a server the OOM killer ends is a result, not an error. */
async function startAndLoad(verdict: Verdict, shared: Shared): Promise<{ loads: LoadFigures[]; notReady: number; problem?: string }> {
  let notReady = 0
  try {
    await waitReady(verdict)
    await storeBenchDefinitions(verdict)
    const watch = setInterval(() => void answersReady(verdict).then((ready) => (notReady += ready ? 0 : 1)), 1000)
    try {
      const loads = await Promise.all([restLoad(verdict, REST_RATE / 2, LIMIT_SECONDS), admissionLoad(verdict, shared, ADMISSION_RATE / 2, LIMIT_SECONDS)])
      return { loads, notReady }
    } finally {
      clearInterval(watch)
    }
  } catch (error) {
    return { loads: [], notReady, problem: error instanceof Error ? error.message : String(error) }
  }
}

// ---- Stores, limits, cgroups --------------------------------------------------------------------

async function freshStore(mode: Mode, label: string, shared: Shared): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), `verdict-bench-memory-${label}-`))
  // As root, the embedded PostgreSQL runs as the data directory's owner, which must be able to enter it (mkdtemp makes it 0700).
  if (mode === 'embedded') {
    handToPostgresUser(dataDir)
    return { dataDir }
  }
  if (!shared.postgres) throw new Error('external mode needs the bench PostgreSQL')
  const database = `verdict_memory_${label}`
  const client = new pg.Client({ connectionString: shared.postgres.url })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS ${database}`)
    await client.query(`CREATE DATABASE ${database}`)
  } finally {
    await client.end()
  }
  const url = new URL(shared.postgres.url)
  url.pathname = `/${database}`
  return { dataDir, databaseUrl: url.toString() }
}

function removeStore(store: Store): void {
  rmSync(store.dataDir, { recursive: true, force: true })
}

/**
 * The chart's memory limit for the mode: BENCH_LIMIT_<MODE>, else what the chart renders from
 * values.yaml: `resources` when set (it replaces the defaults whole), else `defaultResources.<mode>`.
 */
function memoryLimit(mode: Mode): { bytes: number; source: string } {
  const variable = `BENCH_LIMIT_${mode.toUpperCase()}`
  const fromEnv = process.env[variable]
  if (fromEnv) return { bytes: quantityBytes(fromEnv), source: `${variable}=${fromEnv}` }
  const values = yaml.load(readFileSync(join(root, 'charts', 'verdict', 'values.yaml'), 'utf8'))
  const resources = valueAt(values, ['resources'])
  const chosen = typeof resources === 'object' && resources !== null && Object.keys(resources).length > 0 ? ['resources'] : ['defaultResources', mode]
  const memory = valueAt(values, [...chosen, 'limits', 'memory'])
  if (typeof memory !== 'string' && typeof memory !== 'number') throw new Error(`charts/verdict/values.yaml sets no ${chosen.join('.')}.limits.memory; set ${variable}`)
  return { bytes: quantityBytes(String(memory)), source: `values.yaml ${chosen.join('.')}.limits.memory ${memory}` }
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

/** A Kubernetes memory quantity (1Gi, 512Mi, 1G, 1073741824) in bytes. */
function quantityBytes(quantity: string): number {
  const units: Record<string, number> = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 }
  const match = /^(\d+(?:\.\d+)?)([kKMGT]i?|)$/.exec(quantity.trim())
  const unit = match ? units[match[2] ?? ''] : undefined
  if (!match || unit === undefined) throw new Error(`not a memory quantity: ${quantity}`)
  return Math.round(Number(match[1]) * unit)
}

interface MemoryCgroup {
  dir: string
  procsFile: string
  /** The most the cgroup was charged (cgroup v1 memory.max_usage_in_bytes, v2 memory.peak). */
  peakBytes(): number
  /** Processes the OOM killer ended in it. */
  oomKills(): number
  /** What it holds now, as anonymous memory and page cache. */
  usage(): string
  remove(): Promise<void>
}

/** A child of this process's memory cgroup limited to `limitBytes`, or why there cannot be one. */
function createMemoryCgroup(limitBytes: number): MemoryCgroup | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: 'not running as root' }
  const own = readFileSync('/proc/self/cgroup', 'utf8').split('\n')
  const v1 = own.map((line) => line.split(':')).find((fields) => (fields[1] ?? '').split(',').includes('memory'))
  if (v1 && existsSync('/sys/fs/cgroup/memory')) return createCgroupV1(join('/sys/fs/cgroup/memory', v1.slice(2).join(':')), limitBytes)
  const v2 = own.find((line) => line.startsWith('0::'))
  if (v2 && readFileIfAny('/sys/fs/cgroup/cgroup.controllers').split(' ').includes('memory')) return createCgroupV2(join('/sys/fs/cgroup', v2.slice(3)), limitBytes)
  return { unavailable: 'no memory cgroup controller (cgroup v1 memory or v2 with memory) for this process' }
}

function createCgroupV1(parent: string, limitBytes: number): MemoryCgroup | { unavailable: string } {
  const dir = join(parent, `verdict-bench-memory-${process.pid}`)
  try {
    mkdirSync(dir)
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limitBytes))
  } catch (error) {
    rmdirIfEmpty(dir)
    return { unavailable: `cannot make a memory cgroup under ${parent}: ${error instanceof Error ? error.message : String(error)}` }
  }
  const read = (file: string): string => readFileIfAny(join(dir, file))
  const statField = (name: string): number => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(read('memory.stat'))?.[1] ?? 0)
  return {
    dir,
    procsFile: join(dir, 'cgroup.procs'),
    peakBytes: () => Number(read('memory.max_usage_in_bytes')),
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(read('memory.oom_control'))?.[1] ?? 0),
    usage: () => `rss ${(statField('total_rss') / MIB).toFixed(1)} MiB, cache ${(statField('total_cache') / MIB).toFixed(1)} MiB`,
    remove: () => removeCgroup(dir),
  }
}

function createCgroupV2(parent: string, limitBytes: number): MemoryCgroup | { unavailable: string } {
  if (!readFileIfAny(join(parent, 'cgroup.subtree_control')).split(' ').includes('memory')) {
    return { unavailable: `cgroup v2: ${parent} does not hand the memory controller to its children (cgroup.subtree_control)` }
  }
  const dir = join(parent, `verdict-bench-memory-${process.pid}`)
  try {
    mkdirSync(dir)
    writeFileSync(join(dir, 'memory.max'), String(limitBytes))
  } catch (error) {
    rmdirIfEmpty(dir)
    return { unavailable: `cannot make a memory cgroup under ${parent}: ${error instanceof Error ? error.message : String(error)}` }
  }
  const read = (file: string): string => readFileIfAny(join(dir, file))
  const statField = (name: string): number => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(read('memory.stat'))?.[1] ?? 0)
  return {
    dir,
    procsFile: join(dir, 'cgroup.procs'),
    peakBytes: () => Number(read('memory.peak')),
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(read('memory.events'))?.[1] ?? 0),
    usage: () => `anon ${(statField('anon') / MIB).toFixed(1)} MiB, file ${(statField('file') / MIB).toFixed(1)} MiB`,
    remove: () => removeCgroup(dir),
  }
}

/** rmdir of the cgroup, once whatever the server left in it (started by this run) is ended. */
async function removeCgroup(dir: string): Promise<void> {
  if (!existsSync(dir)) return
  for (const pid of readFileIfAny(join(dir, 'cgroup.procs')).split('\n').filter(Boolean)) {
    console.error(`ending process ${pid}, left in ${dir}`)
    try {
      process.kill(Number(pid), 'SIGKILL')
    } catch {
      // Gone meanwhile.
    }
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      rmdirSync(dir)
      return
    } catch {
      await sleep(100)
    }
  }
  console.error(`could not remove the cgroup ${dir}`)
}

function rmdirIfEmpty(dir: string): void {
  try {
    rmdirSync(dir)
  } catch {
    // Never made, or not empty.
  }
}

function readFileIfAny(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return ''
  }
}

// ---- Run ----------------------------------------------------------------------------------------

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}

async function webhookCertificate(dir: string): Promise<{ certFile: string; keyFile: string }> {
  const pair = await createSelfSignedCertificate({ commonName: 'verdict-bench', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], validDays: 2 })
  const certFile = join(dir, 'tls.crt')
  const keyFile = join(dir, 'tls.key')
  writeFileSync(certFile, pair.certPem)
  writeFileSync(keyFile, pair.keyPem, { mode: 0o600 })
  return { certFile, keyFile }
}

async function runMode(mode: Mode, shared: Shared): Promise<Summary> {
  const summary: Summary = {}
  if (['start', 'rest', 'admission', 'soak', 'definitions'].some((phase) => PHASES.has(phase as Phase))) await mainServerPhases(mode, shared, summary)
  if (PHASES.has('scan')) await scanPhase(mode, shared, summary)
  if (PHASES.has('limited')) await limitedPhase(mode, shared, summary)
  return summary
}

function summaryLine(mode: Mode, summary: Summary): string {
  const figure = (kib: number | undefined): string => (kib === undefined ? '-' : mib(kib))
  const change = summary.soakStart !== undefined && summary.soakEnd !== undefined ? (((summary.soakEnd - summary.soakStart) / summary.soakStart) * 100).toFixed(1) : '-'
  const yesNo = (value: boolean | undefined): string => (value === undefined ? '-' : value ? 'yes' : 'no')
  return (
    `mode=${mode} start_peak_mib=${figure(summary.start)} rest_peak_mib=${figure(summary.rest)} admission_peak_mib=${figure(summary.admission)} ` +
    `scan_peak_mib=${figure(summary.scan)} soak_start_mib=${figure(summary.soakStart)} soak_end_mib=${figure(summary.soakEnd)} soak_change_pct=${change} ` +
    `definitions_mib_per_1000_rules=${figure(summary.definitionsPerThousandRules)} limit_mib=${summary.limitMib ?? '-'} limited_max_usage_mib=${summary.limitedMaxUsageMib?.toFixed(1) ?? '-'} limited_killed=${yesNo(summary.limitedKilled)} limited_ready=${yesNo(summary.limitedReady)}`
  )
}

async function main(): Promise<void> {
  for (const mode of MODES) if (mode !== 'embedded' && mode !== 'external') throw new Error(`BENCH_MODES: unknown mode ${mode}`)
  const workDir = mkdtempSync(join(tmpdir(), 'verdict-bench-memory-'))
  const shared: Shared = { token: `vdt_${randomBytes(32).toString('base64url')}`, ...(await webhookCertificate(workDir)) }
  console.log(
    `node ${process.version}; NODE_OPTIONS=--max-semi-space-size=8 MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX || '(unset)'} node dist/src/cli.js serve; modes ${MODES.join(', ')}; phases ${[...PHASES].join(', ')}; ` +
      `${PHASE_SECONDS} s per load phase, soak ${SOAK_SECONDS} s (warm-up ${SOAK_WARMUP_SECONDS} s); tree PSS and RSS sampled every ${SAMPLE_MS} ms, settled = ${SETTLE_MS / 1000} s after a phase`,
  )
  const summaries: [Mode, Summary][] = []
  try {
    for (const mode of MODES) {
      if (mode === 'external') shared.postgres = await startBenchPostgres({ durable: true })
      try {
        summaries.push([mode, await runMode(mode, shared)])
      } finally {
        await shared.postgres?.stop()
        delete shared.postgres
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
  const perSample = samplingCost.ms / Math.max(1, samplingCost.samples)
  console.log(`sampling: ${samplingCost.samples} samples, ${perSample.toFixed(1)} ms each (${((perSample / SAMPLE_MS) * 100).toFixed(0)}% of a core while sampling)`)
  for (const [mode, summary] of summaries) console.log(summaryLine(mode, summary))
}

await main()
