// Engine throughput on one core: the Pod Security Standards restricted ruleset, imported from the
// Kyverno library's pod-security-cel policies, judging a realistic Pod and a Deployment.
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
const restrictedDir = resolve(root, process.env.VERDICT_CONFORMANCE_DIR ?? '../shared/conformance/kyverno', 'policies/pod-security-cel/restricted')
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
console.log(`pod_evals_per_second=${podRate} deployment_evals_per_second=${deploymentRate}`)
