import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { formatReport } from '../kyverno-test/format-report.js'
import { readKnownDifferences, type KnownDifference } from '../kyverno-test/known-differences.js'
import { runKyvernoTests } from '../kyverno-test/run-tests.js'
import { resolvePath, type CliContext } from './cli-context.js'
import { EXIT_OK, EXIT_VIOLATIONS, UsageError } from './usage-error.js'

export const testUsage = `verdict test <dir>... [--tier A] [--through-vap] [--known-differences file] [--recorded-pass-count file [--record]]

Runs every .kyverno-test/kyverno-test.yaml below the directories the way the Kyverno CLI reads them,
scoring strictly (a missing rule response is skip, not pass). The PolicyExceptions a test lists
(exceptions:) apply as in the Kyverno CLI: an exempted result is a skip, listed with the exception. --tier picks tiers from the index.json
of the conformance data. Pairs listed in the known-differences file do not fail the run; more than 1%
of them does. With --recorded-pass-count the run fails when fewer pairs pass than recorded
(--record writes the new count). With --through-vap every policy is judged as the ValidatingAdmissionPolicies
\`verdict export vap\` makes of it, imported back (a policy that cannot be exported answers unsupported, with
the reason). The last line is "N passed, N failed".`

const MAX_KNOWN_SHARE = 0.01

export function runTest(argv: string[], print: (line: string) => void, warn: (line: string) => void, context: CliContext): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      tier: { type: 'string', multiple: true },
      'known-differences': { type: 'string' },
      'recorded-pass-count': { type: 'string' },
      record: { type: 'boolean' },
      'through-vap': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  })
  if (positionals.length === 0) throw new UsageError('test: name at least one directory')
  for (const dir of positionals) if (!existsSync(resolvePath(context, dir))) throw new UsageError(`test: ${dir} does not exist`)
  const knownFile = values['known-differences']
  const known = knownFile && existsSync(resolvePath(context, knownFile)) ? readKnownDifferences(knownFile, context.cwd) : new Map<string, KnownDifference>()
  const summary = runKyvernoTests(positionals, { tiers: values.tier ?? [], known, cwd: context.cwd, throughVap: values['through-vap'] === true })

  let exit = summary.failed > 0 ? EXIT_VIOLATIONS : EXIT_OK
  const totalPairs = summary.passed + summary.failed + summary.known
  const lines = formatReport(summary, known)
  const closing = lines.pop() as string
  for (const line of lines) print(line)
  if (totalPairs > 0 && summary.known / totalPairs > MAX_KNOWN_SHARE) {
    warn(`known differences cover ${summary.known} of ${totalPairs} pairs, more than ${MAX_KNOWN_SHARE * 100}%`)
    exit = EXIT_VIOLATIONS
  }
  const recordFile = values['recorded-pass-count']
  if (recordFile) {
    const recorded = existsSync(resolvePath(context, recordFile)) ? Number.parseInt(readFileSync(resolvePath(context, recordFile), 'utf8').trim(), 10) : 0
    if (values.record) {
      writeFileSync(resolvePath(context, recordFile), `${summary.passed}\n`)
      print(`recorded pass count: ${summary.passed} (was ${recorded})`)
    } else if (summary.passed < recorded) {
      warn(`pass count dropped: ${summary.passed} passed, ${recorded} recorded in ${recordFile}`)
      exit = EXIT_VIOLATIONS
    } else if (summary.passed > recorded) {
      print(`pass count rose from ${recorded} to ${summary.passed}: run with --record to keep it`)
    }
  }
  print(closing)
  return exit
}
