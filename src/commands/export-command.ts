import { parseArgs } from 'node:util'
import type { Policy, PolicyException, Ruleset } from '../engine/index.js'
import { generateValidatingAdmissionPolicies, vapYaml, type GeneratedVap, type Refusal } from '../export/vap/index.js'
import { manifestFiles } from '../scan/manifests/manifest-files.js'
import { VerdictApiClient } from '../scan/judge/verdict-api-client.js'
import { ScanInputError } from '../scan/scan-error.js'
import type { CliContext } from './cli-context.js'
import { readDefinitionFiles } from './read-definitions.js'
import { EXIT_OK, EXIT_VIOLATIONS, UsageError } from './usage-error.js'

export const exportUsage = `verdict export vap <file|dir>... [--policy NAME]... [-o yaml|json]
verdict export vap --server <url> --token <token> --policy NAME... [-o yaml|json]

Prints each Verdict policy as Kubernetes ValidatingAdmissionPolicies and their bindings
(admissionregistration.k8s.io/v1), which the API server enforces itself: one per rule, and per
autogen form of a Pod rule (its controllers, its CronJobs). The files and directories hold Verdict
Rulesets, Policies and PolicyExceptions, Kyverno policies or VAPs, as verdict scan --policies reads
them; --policy picks policies (all by default). With --server the policies, their rulesets and the
exceptions come from a running Verdict (token scopes policies:read, rulesets:read, exceptions:read;
--token defaults to $VERDICT_TOKEN). validationActions come from the policy's action, failurePolicy
from its failurePolicy. A policy that would judge differently in the API server (pattern or Kyverno
rules, functions the API server lacks, a match it cannot express, an exception in force) is not
printed: each reason is listed on stderr, naming the ruleset, rule and field.
Exit status: 0 every policy printed, 1 some policy refused, 2 bad input.`

export async function runExport(argv: string[], print: (line: string) => void, warn: (line: string) => void, context: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      policy: { type: 'string', multiple: true },
      output: { type: 'string', short: 'o', default: 'yaml' },
      server: { type: 'string' },
      token: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  const [format, ...paths] = positionals
  if (format !== 'vap') throw new UsageError(format === undefined ? 'export: name what to export: verdict export vap ...' : `export: "${format}" is not a format (vap is)`)
  if (values.output !== 'yaml' && values.output !== 'json') throw new UsageError('export: -o must be yaml or json')
  const wanted = values.policy ?? []
  let definitions: Definitions
  if (values.server !== undefined) {
    if (paths.length > 0) throw new UsageError('export: give files or --server, not both')
    if (wanted.length === 0) throw new UsageError('export: --server needs --policy NAME')
    const token = values.token ?? context.env.VERDICT_TOKEN
    if (!token) throw new UsageError('export: --server needs --token (or $VERDICT_TOKEN)')
    definitions = await serverDefinitions(values.server, token, wanted)
  } else {
    if (values.token !== undefined) throw new UsageError('export: --token goes with --server')
    if (paths.length === 0) throw new UsageError('export: name the files or directories holding the policies (or --server)')
    definitions = localDefinitions(paths, warn, context)
  }
  const policies = chosen(definitions.policies, wanted)
  const printed: GeneratedVap[] = []
  let refused = false
  for (const policy of policies) {
    const generated = generateValidatingAdmissionPolicies(policy, definitions.rulesets, { exceptions: definitions.exceptions })
    if (!generated.ok) {
      refused = true
      for (const refusal of generated.refusals) warn(`verdict export vap: policy ${policy.name}${where(refusal)}: ${refusal.reason}`)
      continue
    }
    for (const omission of generated.omitted) warn(`verdict export vap: policy ${policy.name}${where(omission)}: not exported, ${omission.reason}`)
    printed.push(...generated.policies)
  }
  if (printed.length > 0) {
    if (values.output === 'json') print(JSON.stringify(printed.flatMap((generated) => [generated.policy, generated.binding]), null, 2))
    else print(vapYaml(printed))
  }
  return refused ? EXIT_VIOLATIONS : EXIT_OK
}

interface Definitions {
  policies: Policy[]
  rulesets: Ruleset[]
  exceptions: PolicyException[]
}

function localDefinitions(paths: readonly string[], warn: (line: string) => void, context: CliContext): Definitions {
  let files: string[]
  try {
    files = manifestFiles(paths, context.cwd)
  } catch (error) {
    if (error instanceof ScanInputError) throw new UsageError(error.message)
    throw error
  }
  const definitions = readDefinitionFiles(files, context)
  // The Verdict policy as imported judges without them; so does what is generated from it.
  for (const skip of definitions.skipped) warn(`warning: rule ${skip.policy}/${skip.rule} was not imported: ${skip.reason}`)
  if (definitions.policies.length === 0) throw new UsageError(`export: ${paths.join(' ')} hold no policy`)
  return definitions
}

function chosen(policies: readonly Policy[], wanted: readonly string[]): Policy[] {
  if (wanted.length === 0) return [...policies]
  return wanted.map((name) => {
    const policy = policies.find((candidate) => candidate.name === name)
    if (!policy) throw new UsageError(`export: no policy "${name}" (there are ${policies.map((candidate) => candidate.name).join(', ') || 'none'})`)
    return policy
  })
}

/** The named policies, every ruleset (a rulesetSelector may pick any) and every exception of a running Verdict. */
async function serverDefinitions(server: string, token: string, names: readonly string[]): Promise<Definitions> {
  try {
    const client = new VerdictApiClient(server, token)
    const policies = await Promise.all(names.map(async (name) => asNamed<Policy>(await client.get(`/api/policies/${encodeURIComponent(name)}`), `GET /api/policies/${name}`)))
    const rulesets = listOf<Ruleset>(await client.get('/api/rulesets'), 'rulesets')
    const exceptions = listOf<PolicyException>(await client.get('/api/exceptions'), 'exceptions')
    return { policies, rulesets, exceptions }
  } catch (error) {
    if (error instanceof ScanInputError) throw new UsageError(error.message)
    throw error
  }
}

function asNamed<T extends { name: string }>(value: unknown, where: string): T {
  if (typeof value !== 'object' || value === null || typeof (value as { name?: unknown }).name !== 'string') throw new UsageError(`${where} answered without a name`)
  // The API's answer has the model's shape (its response schema); the generator reads only known fields.
  return value as T
}

function listOf<T extends { name: string }>(value: unknown, key: string): T[] {
  const items = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
  if (!Array.isArray(items)) throw new UsageError(`GET /api/${key} answered without a ${key} list`)
  return items.map((item, i) => asNamed<T>(item, `GET /api/${key}: ${key}[${i}]`))
}

function where(refusal: Refusal): string {
  if (refusal.rule === undefined) return `, ${refusal.field}`
  return `, rule ${refusal.ruleset ?? ''}/${refusal.rule}, ${refusal.field}`
}
