// Engine throughput on one core: the Pod Security Standards restricted ruleset, imported from the
// Kyverno library's pod-security-cel policies, judging a realistic Pod and a Deployment; then the
// classic pod-security ClusterPolicies (validate.pattern / anyPattern, and deny and foreach with
// JMESPath conditions) on the same Pod and Deployment.
// Each evaluation includes input preparation and result shaping, as a request would.
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as yaml from 'js-yaml'
import { setCelFastPath } from '../src/engine/cel/index.js'
import { compileRuleset, evaluateRuleset, PreparedInput, type Rule, type Ruleset } from '../src/engine/index.js'
import { importDocuments } from '../src/import/index.js'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..', '..')
const policiesDir = resolve(root, process.env.VERDICT_CONFORMANCE_DIR ?? '../shared/conformance/kyverno', 'policies')
const restrictedDir = join(policiesDir, 'pod-security-cel/restricted')
const classicDir = join(policiesDir, 'pod-security/restricted')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)

function restrictedRuleset(): Ruleset {
  const kustomization = yaml.load(readFileSync(join(restrictedDir, 'kustomization.yaml'), 'utf8')) as { resources: string[] }
  const rules: Rule[] = []
  for (const file of kustomization.resources) {
    const documents = yaml.loadAll(readFileSync(join(restrictedDir, file), 'utf8'))
    for (const imported of importDocuments(documents)) for (const ruleset of imported.rulesets) rules.push(...ruleset.rules)
  }
  return { name: 'pod-security-restricted', rules }
}

/** The files a kustomization lists, following the directories it names (`../baseline`). */
function kustomizedFiles(dir: string): string[] {
  const kustomization = yaml.load(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] }
  return kustomization.resources.flatMap((entry) => (entry.endsWith('.yaml') ? [join(dir, entry)] : kustomizedFiles(resolve(dir, entry))))
}

/** The classic pod-security policies: their pattern rules (rules Verdict cannot import yet are counted, not judged). */
function classicRuleset(): { ruleset: Ruleset; skipped: number } {
  const rules: Rule[] = []
  let skipped = 0
  for (const file of kustomizedFiles(classicDir)) {
    for (const imported of importDocuments(yaml.loadAll(readFileSync(file, 'utf8')))) {
      skipped += imported.skipped.length
      for (const ruleset of imported.rulesets) rules.push(...ruleset.rules)
    }
  }
  return { ruleset: { name: 'pod-security-classic', rules }, skipped }
}

function deploymentOf(pod: Record<string, unknown>): Record<string, unknown> {
  const metadata = pod.metadata as Record<string, unknown>
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: metadata.namespace, labels: metadata.labels },
    spec: { replicas: 3, selector: { matchLabels: { 'app.kubernetes.io/name': 'checkout' } }, template: { metadata: { labels: metadata.labels, annotations: metadata.annotations }, spec: pod.spec } },
  }
}

function measure(label: string, evaluate: () => boolean): number {
  for (let i = 0; i < 2_000; i += 1) evaluate()
  let count = 0
  let passed = 0
  const deadline = process.hrtime.bigint() + BigInt(SECONDS * 1e9)
  const start = process.hrtime.bigint()
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 500; i += 1) if (evaluate()) passed += 1
    count += 500
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9
  const rate = Math.round(count / elapsed)
  console.log(`${label}: ${count} evaluations in ${elapsed.toFixed(2)} s = ${rate}/s (${passed} passed)`)
  return rate
}

const ruleset = restrictedRuleset()
const compiled = compileRuleset(ruleset)
const pod = JSON.parse(readFileSync(join(root, 'bench/fixtures/restricted-pod.json'), 'utf8')) as Record<string, unknown>
const deployment = deploymentOf(pod)
const sample = evaluateRuleset(compiled, new PreparedInput({ object: pod }))
if (!sample.passed) throw new Error(`the benchmark Pod should pass: ${JSON.stringify(sample.results)}`)
const programs = compiled.rules.flatMap((rule) => [...rule.conditions, ...rule.variables, ...rule.validations].map((entry) => entry.program))
console.log(
  `ruleset ${ruleset.name}: ${compiled.rules.length} rules, ${programs.length} CEL expressions ` +
    `(${programs.filter((program) => program.accelerated).length} on the fast path); node ${process.version}; ${SECONDS} s per case`,
)
const judgePod = (): boolean => evaluateRuleset(compiled, new PreparedInput({ object: pod })).passed
const judgeDeployment = (): boolean => evaluateRuleset(compiled, new PreparedInput({ object: deployment })).passed
// For reference: the same work with every expression on cel-js alone.
setCelFastPath(false)
measure('Pod, cel-js only', judgePod)
measure('Deployment, cel-js only', judgeDeployment)
setCelFastPath(true)
const podRate = measure('Pod', judgePod)
const deploymentRate = measure('Deployment', judgeDeployment)

const classic = classicRuleset()
const classicCompiled = compileRuleset(classic.ruleset)
const classicSample = evaluateRuleset(classicCompiled, new PreparedInput({ object: pod }))
if (!classicSample.passed) throw new Error(`the benchmark Pod should pass the classic set: ${JSON.stringify(classicSample.results)}`)
const kinds = (['pattern', 'anyPattern', 'deny', 'foreach'] as const).map((kind) => `${classic.ruleset.rules.filter((rule) => rule.validate[kind] !== undefined).length} ${kind}`)
console.log(`ruleset ${classic.ruleset.name}: ${classicCompiled.rules.length} rules (${kinds.join(', ')}), ${classic.skipped} rules not imported`)
const classicPodRate = measure('Pod, patterns', () => evaluateRuleset(classicCompiled, new PreparedInput({ object: pod })).passed)
const classicDeploymentRate = measure('Deployment, patterns', () => evaluateRuleset(classicCompiled, new PreparedInput({ object: deployment })).passed)
console.log(
  `pod_evals_per_second=${podRate} deployment_evals_per_second=${deploymentRate} ` +
    `pattern_pod_evals_per_second=${classicPodRate} pattern_deployment_evals_per_second=${classicDeploymentRate}`,
)
