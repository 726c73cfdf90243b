// Background scans on one core: the test Kubernetes API server (in this process) serves Pods and
// Deployments in 200 namespaces, a 10-rule Pod Security policy judges them page by page, verdicts
// are noted in the store (an embedded PostgreSQL, fsync on, in its own process, so this process's
// RSS is the scan's and the API server's) and changed ones audited, and reports (OpenReports) are
// written. Two sizes, 20,000 and 100,000 objects (BENCH_SCAN_SIZES overrides), each scanned twice:
// the first scan audits every object (all verdicts are new), the second is the steady state of a
// stable cluster (nothing to audit, reports unchanged). RSS is sampled every 20 ms; its growth is
// the peak during the scans over the level before them, once the objects are loaded.
// Last line: objects_per_second (the slowest scan) and rss_growth_mb (the largest growth).
// Node runs as the service runs (the image's and the chart's NODE_OPTIONS): with 8 MB semi-spaces
// (`npm run bench:scan` passes --max-semi-space-size=8, and each round's process inherits it).
// BENCH_SCAN_SPACES=1 also prints V8's spaces at the peak.
import { AuditWriter } from '../src/audit/audit-writer.js'
import { BackgroundScanner } from '../src/scan/background/background-scanner.js'
import { DefinitionCatalog } from '../src/services/definition-catalog.js'
import { DefinitionService } from '../src/services/definition-service.js'
import { migrate } from '../src/store/migrate.js'
import { openDb } from '../src/store/open-db.js'
import { KubeConfig } from '@kubernetes/client-node'
import { spawn } from 'node:child_process'
import { getHeapSpaceStatistics } from 'node:v8'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { kubeRequest } from '../src/k8s/kube-request.js'
import { startBenchPostgres } from './postgres-server.js'
import { FAILING_SHARE, NAMESPACES, SCAN_RULES as RULES } from './scan-objects.js'

const SIZES = (process.env.BENCH_SCAN_SIZES ?? '20000,100000').split(',').map(Number)


interface Round {
  size: number
  first: number
  steady: number
  growthMb: number
  reports: number
}

async function round(size: number): Promise<Round> {
  const api = await startApiProcess(size)
  const postgres = await startBenchPostgres({ durable: true })
  const db = await openDb({ databaseUrl: postgres.url, dataDir: 'memory://' })
  await migrate(db)
  const catalog = new DefinitionCatalog(db)
  await catalog.start()
  const definitions = new DefinitionService(db, catalog)
  await definitions.createRuleset('pod-security', { rules: RULES.map(([name, pattern]) => ({ name, match: { kinds: ['Pod'] }, validate: { pattern } })) }, { by: 'bench' })
  await definitions.createPolicy('pod-security', { rulesets: ['pod-security'], action: 'Audit' }, { by: 'bench' })
  const audits = new AuditWriter(db)
  const quiet = { debug: () => {}, info: () => {}, warn: (fields: Record<string, unknown>, message: string) => console.warn(message, fields), error: (fields: Record<string, unknown>, message: string) => console.error(message, fields) }
  const scanner = new BackgroundScanner({
    kubeConfig: api.kubeConfig,
    catalog,
    namespaces: { get: () => undefined },
    db,
    writeAudits: (rows) => audits.write(rows),
    logger: quiet,
    isLeader: () => true,
    intervalMs: 0,
    settings: { pageSize: Number(process.env.BENCH_SCAN_PAGE_SIZE ?? 100), maxResults: 1000, excludedNamespaces: new Set(['kube-system']), listRestarts: 3 },
  })
  global.gc?.()
  const baseline = process.memoryUsage().rss
  const heapBaseline = process.memoryUsage().heapUsed
  const start = process.memoryUsage()
  let peak = baseline
  let heapPeak = heapBaseline
  let atPeak = start
  const spacesAtStart = getHeapSpaceStatistics()
  let spacesAtPeak = spacesAtStart
  const sampler = setInterval(() => {
    const usage = process.memoryUsage()
    if (usage.rss > peak) {
      peak = usage.rss
      atPeak = usage
      if (process.env.BENCH_SCAN_SPACES) spacesAtPeak = getHeapSpaceStatistics()
    }
    heapPeak = Math.max(heapPeak, usage.heapUsed)
  }, 20)
  const rate = async (label: string): Promise<number> => {
    const started = process.hrtime.bigint()
    const rssBefore = peak
    const outcome = await scanner.scanOnce()
    await audits.flush()
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const perSecond = Math.round(outcome.objectsJudged / seconds)
    console.log(
      `${size} objects, ${label}: ${outcome.objectsJudged} judged in ${seconds.toFixed(2)} s = ${perSecond}/s; reports ${JSON.stringify(outcome.reports)}; ` +
        `${outcome.restarts} restarts, ${outcome.failures.length} failures; peak RSS now ${Math.round((peak - baseline) / 1024 / 1024)} MB over the start (was ${Math.round((rssBefore - baseline) / 1024 / 1024)})`,
    )
    return perSecond
  }
  const first = await rate('first scan (every verdict new, all audited)')
  const steady = await rate('second scan (stable cluster: nothing audited, reports unchanged)')
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  const reports = await countReports(api.kubeConfig)
  const growthMb = Math.round((peak - baseline) / 1024 / 1024)
  global.gc?.()
  const heldMb = Math.round((process.memoryUsage().heapUsed - heapBaseline) / 1024 / 1024)
  const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024)
  console.log(
    `${size} objects, at the RSS peak over the start: heapTotal +${mb(atPeak.heapTotal - start.heapTotal)} MB, heapUsed +${mb(atPeak.heapUsed - start.heapUsed)} MB, ` +
      `external +${mb(atPeak.external - start.external)} MB (array buffers +${mb(atPeak.arrayBuffers - start.arrayBuffers)} MB), other +${mb(atPeak.rss - start.rss - (atPeak.heapTotal - start.heapTotal) - (atPeak.external - start.external))} MB`,
  )
  if (process.env.BENCH_SCAN_SPACES) console.log(spacesAtPeak.map((space, i) => `${space.space_name} ${mb(spacesAtStart[i]?.space_size ?? 0)}->${mb(space.space_size)} (used ${mb(space.space_used_size)})`).join(', '))
  console.log(
    `${size} objects: peak RSS growth ${growthMb} MB over ${Math.round(baseline / 1024 / 1024)} MB (JavaScript heap: peak ${Math.round((heapPeak - heapBaseline) / 1024 / 1024)} MB over its start, ` +
      `${heldMb} MB still held after the scans); ${reports} Reports in the cluster`,
  )
  await audits.close()
  await catalog.stop()
  await db.close()
  await postgres.stop()
  api.stop()
  return { size, first, steady, growthMb, reports }
}

/** The OpenReports Reports in the cluster (VERDICT_REPORTS_API=auto finds them served); in a function of its own, so that the list is not what the round's frame still holds when it measures what the scans left. */
async function countReports(kubeConfig: KubeConfig): Promise<number> {
  const listed = await kubeRequest(kubeConfig, 'GET', '/apis/openreports.io/v1alpha1/reports')
  return ((listed.body as { items?: unknown[] }).items ?? []).length
}

/** The test API server, in a process of its own (kube-api-process.ts), loaded with `size` objects. */
async function startApiProcess(size: number): Promise<{ kubeConfig: KubeConfig; stop: () => void }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./kube-api-process.js', import.meta.url)), String(size)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the API server process exited (${String(code)}) before it listened`)))
  })
  const { url } = JSON.parse(line) as { url: string }
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'bench', server: url, skipTLSVerify: true }],
    users: [{ name: 'bench', token: 'bench' }],
    contexts: [{ name: 'bench', cluster: 'bench', user: 'bench' }],
    currentContext: 'bench',
  })
  return { kubeConfig, stop: () => void child.kill() }
}

/**
 * Each size runs in a process of its own, so that one round's heap is not the next one's baseline;
 * a child (BENCH_SCAN_CHILD) runs one round and prints its figures as JSON on its last line.
 */
async function main(): Promise<void> {
  if (process.env.BENCH_SCAN_CHILD) {
    const result = await round(Number(process.env.BENCH_SCAN_CHILD))
    console.log(JSON.stringify(result))
    return
  }
  console.log(`node ${process.version}; ${NAMESPACES} namespaces, one object in ten a Deployment, ${FAILING_SHARE * 100}% failing; pages of ${process.env.BENCH_SCAN_PAGE_SIZE ?? 100}`)
  const rounds: Round[] = []
  for (const size of SIZES) rounds.push(await childRound(size))
  const slowest = Math.min(...rounds.flatMap((entry) => [entry.first, entry.steady]))
  const growth = Math.max(...rounds.map((entry) => entry.growthMb))
  console.log(rounds.map((entry) => `objects_${entry.size}_first=${entry.first} objects_${entry.size}_steady=${entry.steady} rss_growth_mb_${entry.size}=${entry.growthMb}`).join(' '))
  console.log(`objects_per_second=${slowest} rss_growth_mb=${growth}`)
}

async function childRound(size: number): Promise<Round> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: { ...process.env, BENCH_SCAN_CHILD: String(size) }, stdio: ['ignore', 'pipe', 'inherit'] })
  let last = ''
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('{')) last = line
    else console.log(line)
  }
  if (last === '') throw new Error(`the round of ${size} objects printed no figures`)
  return JSON.parse(last) as Round
}

await main()
