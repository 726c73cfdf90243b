import * as yaml from 'js-yaml'
import { parseArgs } from 'node:util'
import { API_VERSION, type Policy, type Ruleset } from '../engine/index.js'
import { importDocuments } from '../import/index.js'
import type { CliContext } from './cli-context.js'
import { readDocuments } from './read-definitions.js'
import { EXIT_OK, UsageError } from './usage-error.js'

export const importUsage = `verdict import <file>... [-o yaml|json]

Translates Kyverno ClusterPolicy/Policy (validate rules: CEL, patterns, deny, foreach), Kyverno ValidatingPolicy and Kubernetes
ValidatingAdmissionPolicy (+ bindings) into Verdict Ruleset and Policy manifests. Rules that cannot
be translated are listed on stderr with the reason.`

export function runImport(argv: string[], print: (line: string) => void, warn: (line: string) => void, context: CliContext): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { output: { type: 'string', short: 'o', default: 'yaml' } },
    allowPositionals: true,
    strict: true,
  })
  if (positionals.length === 0) throw new UsageError('import: name at least one file')
  if (values.output !== 'yaml' && values.output !== 'json') throw new UsageError('import: -o must be yaml or json')
  const manifests: object[] = []
  for (const path of positionals) {
    const imported = importDocuments(readDocuments(path, context).map((document) => document.value))
    if (imported.length === 0) throw new UsageError(`${path}: holds no Kyverno policy or ValidatingAdmissionPolicy`)
    for (const document of imported) {
      for (const skip of document.skipped) warn(`${path}: skipped rule ${skip.policy}/${skip.rule}: ${skip.reason}`)
      manifests.push(...document.rulesets.map(rulesetManifest), ...document.policies.map(policyManifest))
    }
  }
  if (values.output === 'json') print(JSON.stringify(manifests.length === 1 ? manifests[0] : manifests, null, 2))
  else print(manifests.map((manifest) => yaml.dump(manifest, { noRefs: true, lineWidth: 120 }).trimEnd()).join('\n---\n'))
  return EXIT_OK
}

function rulesetManifest(ruleset: Ruleset): object {
  const { name, version: _version, source: _source, ...spec } = ruleset
  return { apiVersion: API_VERSION, kind: 'Ruleset', metadata: { name }, spec }
}

function policyManifest(policy: Policy): object {
  const { name, version: _version, ...spec } = policy
  return { apiVersion: API_VERSION, kind: 'Policy', metadata: { name }, spec }
}
