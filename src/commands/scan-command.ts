import { parseArgs } from 'node:util'
import type { KubeConfig } from '@kubernetes/client-node'
import type { Definitions, PolicyException } from '../engine/index.js'
import { DEFAULT_CONFIGMAP_CACHE } from '../k8s/configmap-informer.js'
import { scanTargets } from '../scan/background/scan-targets.js'
import { backgroundPolicies } from '../scan/cluster/background-policies.js'
import { readClusterDefinitions } from '../scan/cluster/cluster-definitions.js'
import { readClusterExceptions } from '../scan/cluster/cluster-exceptions.js'
import { readClusterNamespaces } from '../scan/cluster/cluster-namespaces.js'
import { clusterFile } from '../scan/cluster/cluster-object.js'
import { kubeConnection } from '../scan/cluster/kube-connection.js'
import { readClusterConfigMaps } from '../scan/cluster/cluster-configmaps.js'
import { runClusterScan } from '../scan/cluster/run-cluster-scan.js'
import { LocalJudge } from '../scan/judge/local-judge.js'
import type { Judge } from '../scan/judge/judge.js'
import { ServerJudge } from '../scan/judge/server-judge.js'
import { VerdictApiClient } from '../scan/judge/verdict-api-client.js'
import { manifestFiles } from '../scan/manifests/manifest-files.js'
import { readManifests } from '../scan/manifests/read-manifests.js'
import { formatJson } from '../scan/output/json-output.js'
import { formatJunit } from '../scan/output/junit-output.js'
import { formatSarif } from '../scan/output/sarif-output.js'
import { formatTable } from '../scan/output/table-output.js'
import { ProgressLine } from '../scan/progress-line.js'
import { runScan } from '../scan/run-scan.js'
import { ScanInputError } from '../scan/scan-error.js'
import type { ScanReport } from '../scan/scan-result.js'
import { readBuildInfo } from '../server/build-info.js'
import type { CliContext } from './cli-context.js'
import { readDefinitionFiles, type ReadDefinitions } from './read-definitions.js'
import { EXIT_OK, EXIT_VIOLATIONS, UsageError } from './usage-error.js'

export const scanUsage = `verdict scan --policies <file|dir> [--policies ...] [-o table|json|junit|sarif] [<file|dir|->...]
verdict scan --server <url> --token <token> [-o table|json|junit|sarif] [<file|dir|->...]
verdict scan --cluster [--kubeconfig <file>] [--context <name>] [--policies <file|dir>...] [--exclude-namespaces <ns,...>] [--configmap-selector <selector>] [-o table|json|junit|sarif]

Judges every Kubernetes object of the manifests (files, directories walked for *.yaml, *.yml and
*.json, or standard input for - and when no path is given) with the policies: multi-document YAML,
JSON, kubectl Lists and helm template output. --policies files and directories hold Verdict
Rulesets and Policies, Kyverno (Cluster)Policies or ValidatingAdmissionPolicies. With --server
each object is evaluated by every policy of a running Verdict (token scopes policies:read and eval;
--token defaults to $VERDICT_TOKEN). Each result names the object's file and line.

With --cluster the objects are those of a running cluster, read once as the controller's background
scan reads them and judged the same way: every kind the policies match (policies with background:
false left out), listed page by page through the kubeconfig (--kubeconfig, else $KUBECONFIG, else
~/.kube/config; --context picks the context), objects of --exclude-namespaces (default kube-system)
passed over, namespaceSelector read from the cluster's Namespaces, Kyverno configMap context
entries from the ConfigMaps that --configmap-selector picks (default ${DEFAULT_CONFIGMAP_CACHE.selector}, as the
controller's VERDICT_CONTEXT_CONFIGMAP_SELECTOR; '' reads none). Nothing is written to the
cluster. The definitions are the --policies files, or without them the cluster's own Verdict
Rulesets and Policies; the cluster's PolicyExceptions apply (Verdict's, and Kyverno's kyverno.io/v2
and policies.kyverno.io ones as verdict import translates them), with those beside the --policies
files, which replace a cluster exception of the same name. Each result names the object's resource and the cluster (cluster:<context>)
instead of a file and line.
-o table (default) lists fail and error results and a summary; json, junit and sarif are for CI.
Exit status: 0 no Deny policy failed, 1 a Deny policy failed an object, 2 bad input (or a cluster
that cannot be read).`

type Output = 'table' | 'json' | 'junit' | 'sarif'
const OUTPUTS: readonly Output[] = ['table', 'json', 'junit', 'sarif']

/** Requests in flight against a server; the engine judges in-process, one object at a time. */
const SERVER_CONCURRENCY = 8

/** A cluster's objects are read as the controller reads them: 100 a page, a list restarted at most 3 times after its continue token expired. */
const CLUSTER_PAGE_SIZE = 100
const CLUSTER_LIST_RESTARTS = 3
const DEFAULT_EXCLUDED_NAMESPACES = 'kube-system'

export async function runScanCommand(argv: string[], print: (line: string) => void, warn: (line: string) => void, context: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      policies: { type: 'string', short: 'p', multiple: true },
      output: { type: 'string', short: 'o', default: 'table' },
      server: { type: 'string' },
      token: { type: 'string' },
      cluster: { type: 'boolean', default: false },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      'exclude-namespaces': { type: 'string' },
      'configmap-selector': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  const output = values.output as Output
  if (!OUTPUTS.includes(output)) throw new UsageError(`scan: -o must be one of ${OUTPUTS.join(', ')}`)
  if (values.policies?.includes('-')) throw new UsageError('scan: --policies reads files and directories, not standard input')
  if (values.cluster) {
    if (values.server !== undefined) throw new UsageError('scan: give --server or --cluster, not both (--cluster judges with --policies or the cluster\'s own definitions)')
    if (positionals.length > 0) throw new UsageError(`scan: --cluster reads the cluster's objects, not manifests (${positionals.join(' ')})`)
    return scanCluster(
      {
        policies: values.policies ?? [],
        kubeconfig: values.kubeconfig,
        context: values.context,
        excludeNamespaces: values['exclude-namespaces'] ?? DEFAULT_EXCLUDED_NAMESPACES,
        configMapSelector: values['configmap-selector'] ?? DEFAULT_CONFIGMAP_CACHE.selector,
      },
      output,
      print,
      warn,
      context,
    )
  }
  for (const flag of ['kubeconfig', 'context', 'exclude-namespaces', 'configmap-selector'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`scan: --${flag} goes with --cluster`)
  }
  const token = values.token ?? context.env.VERDICT_TOKEN
  if (values.server !== undefined && values.policies?.length) throw new UsageError('scan: give --policies or --server, not both')
  if (values.server === undefined && !values.policies?.length) throw new UsageError('scan: --policies <file|dir> (or --server <url>) is required')
  if (values.server !== undefined && !token) throw new UsageError('scan: --server needs --token (or $VERDICT_TOKEN)')
  // Without a path the manifests come from a pipe; on a terminal the scan would only sit waiting.
  if (positionals.length === 0 && context.stdin.isTTY) throw new UsageError('scan: name manifest files or directories, or pipe manifests to standard input')

  try {
    // Every input is read before anything is judged, so bad input prints no partial result.
    const objects = readManifests(positionals, { readStdin: () => context.stdin.read(), warn: (message) => warn(`warning: ${message}`), cwd: context.cwd })
    const judge: Judge = values.server === undefined ? localJudge(values.policies ?? [], warn, context) : await ServerJudge.connect(new VerdictApiClient(values.server, token as string))
    return await printReport(objects.length, (onProgress) => runScan(objects, judge, { concurrency: values.server === undefined ? 1 : SERVER_CONCURRENCY, onProgress }), output, print, context)
  } catch (error) {
    if (error instanceof ScanInputError) throw new UsageError(error.message)
    throw error
  }
}

/** Runs a scan with the progress line on a terminal (cleared however it ends), prints the report, and answers the exit status. */
async function printReport(
  total: number | undefined,
  scan: (onProgress: (done: number) => void) => Promise<ScanReport>,
  output: Output,
  print: (line: string) => void,
  context: CliContext,
): Promise<number> {
  const progress = new ProgressLine(context.stderr, total)
  let report: ScanReport
  try {
    report = await scan((done) => progress.update(done))
  } finally {
    progress.finish()
  }
  print(format(report, output, context))
  return report.summary.denied ? EXIT_VIOLATIONS : EXIT_OK
}

interface ClusterFlags {
  policies: readonly string[]
  kubeconfig: string | undefined
  context: string | undefined
  /** Comma-separated; empty passes over no namespace. */
  excludeNamespaces: string
  /** Label selector of the context ConfigMaps; empty: none are read. */
  configMapSelector: string
}

/** `--cluster`: the controller's background scan, once, from wherever the kubeconfig reaches the cluster. */
async function scanCluster(flags: ClusterFlags, output: Output, print: (line: string) => void, warn: (line: string) => void, context: CliContext): Promise<number> {
  try {
    const connection = kubeConnection({ file: flags.kubeconfig, context: flags.context, env: context.env, cwd: context.cwd })
    const local = flags.policies.length > 0 ? readLocalDefinitions(flags.policies, warn, context) : undefined
    const all = local ?? (await clusterDefinitions(connection, warn))
    const definitions = backgroundPolicies(all)
    // With no policy at all, the judge says what is missing; with only background: false ones, this does.
    if (all.policies.length > 0 && definitions.policies.length === 0) throw new ScanInputError('no policy scans existing objects: every one has background: false')
    const { targets, unlistable } = scanTargets(definitions.policies, definitions.rulesets)
    for (const entry of unlistable) warn(`warning: ${entry.group || 'core'}/${entry.resource} is not scanned: ${entry.reason}`)
    const namespaces = await readClusterNamespaces(connection.kubeConfig, connection.server, { pageSize: CLUSTER_PAGE_SIZE, listRestarts: CLUSTER_LIST_RESTARTS })
    const configMaps = flags.configMapSelector.trim() === '' ? undefined : await readClusterConfigMaps(connection.kubeConfig, connection.server, { pageSize: CLUSTER_PAGE_SIZE, listRestarts: CLUSTER_LIST_RESTARTS, settings: { ...DEFAULT_CONFIGMAP_CACHE, selector: flags.configMapSelector } })
    for (const entry of configMaps?.leftOut ?? []) warn(`warning: ConfigMap ${entry}; configMap context entries will not find it`)
    const exceptions = await exceptionsOf(connection, local?.exceptions ?? [], warn)
    const judge = new LocalJudge(definitions, { namespaces, exceptions, ...(configMaps ? { cluster: configMaps.data } : {}) })
    const excludedNamespaces = new Set(flags.excludeNamespaces.split(',').map((name) => name.trim()).filter((name) => name !== ''))
    return await printReport(
      undefined,
      (onProgress) =>
        runClusterScan({
          kubeConfig: connection.kubeConfig,
          server: connection.server,
          file: clusterFile(connection.name),
          targets,
          judge,
          pageSize: CLUSTER_PAGE_SIZE,
          listRestarts: CLUSTER_LIST_RESTARTS,
          excludedNamespaces,
          onProgress,
          onNotServed: (message) => warn(`warning: ${message}; its kind is not scanned`),
        }),
      output,
      print,
      context,
    )
  } catch (error) {
    if (error instanceof ScanInputError) throw new UsageError(error.message)
    throw error
  }
}

/** The cluster's Rulesets and Policies; those it would not apply either are left out with a warning. */
async function clusterDefinitions(connection: { kubeConfig: KubeConfig; server: string }, warn: (line: string) => void): Promise<Definitions> {
  const definitions = await readClusterDefinitions(connection.kubeConfig, connection.server)
  for (const warning of definitions.warnings) warn(`warning: ${warning}`)
  if (definitions.policies.length === 0) {
    throw new ScanInputError(`the cluster at ${connection.server} holds no Verdict Policy that applies (a Ruleset judges only through a Policy that names it); give --policies <files|dirs> to judge by local definitions`)
  }
  return definitions
}

/**
 * The cluster's PolicyExceptions (Verdict's and Kyverno's) with those beside the --policies files;
 * a local one replaces the cluster's of the same name, so a change can be tried before it is applied.
 */
async function exceptionsOf(connection: { kubeConfig: KubeConfig; server: string }, local: readonly PolicyException[], warn: (line: string) => void): Promise<PolicyException[]> {
  const read = await readClusterExceptions(connection.kubeConfig, connection.server)
  for (const warning of read.warnings) warn(`warning: ${warning}`)
  const localNames = new Set(local.map((exception) => exception.name))
  for (const exception of read.exceptions) {
    if (localNames.has(exception.name)) warn(`warning: the local PolicyException "${exception.name}" replaces the cluster's`)
  }
  return [...read.exceptions.filter((exception) => !localNames.has(exception.name)), ...local]
}

function localJudge(policyPaths: readonly string[], warn: (line: string) => void, context: CliContext): LocalJudge {
  const definitions = readLocalDefinitions(policyPaths, warn, context)
  return new LocalJudge(definitions, { exceptions: definitions.exceptions })
}

function readLocalDefinitions(policyPaths: readonly string[], warn: (line: string) => void, context: CliContext): ReadDefinitions {
  const definitions = readDefinitionFiles(manifestFiles(policyPaths, context.cwd), context)
  for (const skip of definitions.skipped) warn(`warning: rule ${skip.policy}/${skip.rule} is not judged: ${skip.reason}`)
  return definitions
}

function format(report: ScanReport, output: Output, context: CliContext): string {
  if (output === 'json') return formatJson(report)
  if (output === 'junit') return formatJunit(report)
  if (output === 'sarif') return formatSarif(report, { cwd: context.cwd, toolVersion: readBuildInfo().version })
  return formatTable(report)
}
