import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
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
import { readDefinitionFiles } from './read-definitions.js'
import { EXIT_OK, EXIT_VIOLATIONS, UsageError } from './usage-error.js'

export const scanUsage = `verdict scan --policies <file|dir> [--policies ...] [-o table|json|junit|sarif] [<file|dir|->...]
verdict scan --server <url> --token <token> [-o table|json|junit|sarif] [<file|dir|->...]

Judges every Kubernetes object of the manifests (files, directories walked for *.yaml, *.yml and
*.json, or standard input for - and when no path is given) with the policies: multi-document YAML,
JSON, kubectl Lists and helm template output. --policies files and directories hold Verdict
Rulesets and Policies, Kyverno (Cluster)Policies or ValidatingAdmissionPolicies. With --server
each object is evaluated by every policy of a running Verdict (token scopes policies:read and eval;
--token defaults to $VERDICT_TOKEN). Each result names the object's file and line.
-o table (default) lists fail and error results and a summary; json, junit and sarif are for CI.
Exit status: 0 no Deny policy failed, 1 a Deny policy failed an object, 2 bad input.`

type Output = 'table' | 'json' | 'junit' | 'sarif'
const OUTPUTS: readonly Output[] = ['table', 'json', 'junit', 'sarif']

/** Requests in flight against a server; the engine judges in-process, one object at a time. */
const SERVER_CONCURRENCY = 8

export async function runScanCommand(argv: string[], print: (line: string) => void, warn: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      policies: { type: 'string', short: 'p', multiple: true },
      output: { type: 'string', short: 'o', default: 'table' },
      server: { type: 'string' },
      token: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  const output = values.output as Output
  if (!OUTPUTS.includes(output)) throw new UsageError(`scan: -o must be one of ${OUTPUTS.join(', ')}`)
  const token = values.token ?? process.env.VERDICT_TOKEN
  if (values.server !== undefined && values.policies?.length) throw new UsageError('scan: give --policies or --server, not both')
  if (values.server === undefined && !values.policies?.length) throw new UsageError('scan: --policies <file|dir> (or --server <url>) is required')
  if (values.policies?.includes('-')) throw new UsageError('scan: --policies reads files and directories, not standard input')
  if (values.server !== undefined && !token) throw new UsageError('scan: --server needs --token (or $VERDICT_TOKEN)')
  // Without a path the manifests come from a pipe; on a terminal the scan would only sit waiting.
  if (positionals.length === 0 && process.stdin.isTTY) throw new UsageError('scan: name manifest files or directories, or pipe manifests to standard input')

  try {
    // Every input is read before anything is judged, so bad input prints no partial result.
    const objects = readManifests(positionals, { readStdin: () => readFileSync(0, 'utf8'), warn: (message) => warn(`warning: ${message}`) })
    const judge: Judge = values.server === undefined ? localJudge(values.policies ?? [], warn) : await ServerJudge.connect(new VerdictApiClient(values.server, token as string))
    const progress = new ProgressLine(process.stderr, objects.length)
    let report: ScanReport
    try {
      report = await runScan(objects, judge, {
        concurrency: values.server === undefined ? 1 : SERVER_CONCURRENCY,
        onProgress: (done) => progress.update(done),
      })
    } finally {
      progress.finish()
    }
    print(format(report, output))
    return report.summary.denied ? EXIT_VIOLATIONS : EXIT_OK
  } catch (error) {
    if (error instanceof ScanInputError) throw new UsageError(error.message)
    throw error
  }
}

function localJudge(policyPaths: readonly string[], warn: (line: string) => void): LocalJudge {
  const definitions = readDefinitionFiles(manifestFiles(policyPaths))
  for (const skip of definitions.skipped) warn(`warning: rule ${skip.policy}/${skip.rule} is not judged: ${skip.reason}`)
  return new LocalJudge(definitions)
}

function format(report: ScanReport, output: Output): string {
  if (output === 'json') return formatJson(report)
  if (output === 'junit') return formatJunit(report)
  if (output === 'sarif') return formatSarif(report, { cwd: process.cwd(), toolVersion: readBuildInfo().version })
  return formatTable(report)
}
