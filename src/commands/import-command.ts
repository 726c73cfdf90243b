import * as yaml from 'js-yaml'
import { parseArgs } from 'node:util'
import { API_VERSION, type PolicyException, type Policy, type Ruleset } from '../engine/index.js'
import { importDocuments, importExceptionDocuments, ImportError, REASON_ANNOTATION, type ImportedException } from '../import/index.js'
import { parseExceptionBody } from '../services/exception-body.js'
import { InvalidRequestError } from '../services/service-errors.js'
import type { CliContext } from './cli-context.js'
import { readDocuments } from './read-definitions.js'
import { EXIT_OK, UsageError } from './usage-error.js'

export const importUsage = `verdict import <file>... [-o yaml|json] [--exception-reason TEXT]

Translates Kyverno ClusterPolicy/Policy (validate rules: CEL, patterns, deny, foreach), Kyverno ValidatingPolicy and Kubernetes
ValidatingAdmissionPolicy (+ bindings) into Verdict Ruleset and Policy manifests, and Kyverno
PolicyExceptions (kyverno.io/v2, v2beta1, policies.kyverno.io) into Verdict PolicyExceptions. Rules
that cannot be translated are listed on stderr with the reason; an exception that cannot be is an
error naming the field. An exception's reason comes from its ${REASON_ANNOTATION} annotation, else
from --exception-reason; without either the import is refused.`

export function runImport(argv: string[], print: (line: string) => void, warn: (line: string) => void, context: CliContext): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { output: { type: 'string', short: 'o', default: 'yaml' }, 'exception-reason': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  })
  if (positionals.length === 0) throw new UsageError('import: name at least one file')
  if (values.output !== 'yaml' && values.output !== 'json') throw new UsageError('import: -o must be yaml or json')
  const reason = values['exception-reason']
  if (reason !== undefined && reason.trim() === '') throw new UsageError('import: --exception-reason must not be empty')
  const manifests: object[] = []
  for (const path of positionals) {
    const documents = readDocuments(path, context).map((document) => document.value)
    const imported = importDocuments(documents)
    const exceptions = importedExceptions(path, documents, reason)
    if (imported.length === 0 && exceptions.length === 0) throw new UsageError(`${path}: holds no Kyverno policy or ValidatingAdmissionPolicy`)
    for (const document of imported) {
      for (const skip of document.skipped) warn(`${path}: skipped rule ${skip.policy}/${skip.rule}: ${skip.reason}`)
      manifests.push(...document.rulesets.map(rulesetManifest), ...document.policies.map(policyManifest))
    }
    for (const { sourceName, exception } of exceptions) manifests.push(exceptionManifest(exception, `${path}: PolicyException "${sourceName}"`))
  }
  if (values.output === 'json') print(JSON.stringify(manifests.length === 1 ? manifests[0] : manifests, null, 2))
  else print(manifests.map((manifest) => yaml.dump(manifest, { noRefs: true, lineWidth: 120 }).trimEnd()).join('\n---\n'))
  return EXIT_OK
}

function rulesetManifest(ruleset: Ruleset): object {
  const { name, version: _version, source: _source, ...spec } = ruleset
  return { apiVersion: API_VERSION, kind: 'Ruleset', metadata: { name }, spec }
}

function importedExceptions(path: string, documents: unknown[], reason: string | undefined): ImportedException[] {
  try {
    return importExceptionDocuments(documents, { ...(reason === undefined ? {} : { reason }), reasonHint: 'or pass --exception-reason' })
  } catch (error) {
    // An exception that cannot be translated is refused whole, with the file it is in.
    if (error instanceof ImportError) throw new UsageError(`${path}: ${error.message}`)
    throw error
  }
}

/** Checked as the REST API and the controller will check it, so that what is printed can be applied. */
function exceptionManifest(exception: PolicyException, source: string): object {
  const { name, version: _version, ...body } = exception
  const manifest = { apiVersion: API_VERSION, kind: 'PolicyException', metadata: { name }, spec: body }
  try {
    return { ...manifest, spec: parseExceptionBody(name, manifest, '').spec }
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new UsageError(`${source} translates to an exception Verdict refuses: ${error.details}`)
    throw error
  }
}

function policyManifest(policy: Policy): object {
  const { name, version: _version, ...spec } = policy
  return { apiVersion: API_VERSION, kind: 'Policy', metadata: { name }, spec }
}
