import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1'
import { describe, expect, it } from 'vitest'
import type { RuleResult } from '../../src/engine/index.js'
import type { ExistingVerdict } from '../../src/scan/background/judge-existing.js'
import { draftFor, OPENREPORTS } from '../../src/scan/background/report-apis.js'
import { ReportBuilder } from '../../src/scan/background/report-builder.js'
import { CHART_DIR } from './chart-render.js'

type Schema = Record<string, unknown>
type Crd = ConstructorParameters<typeof CustomResourceDefinition>[0] & { spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] } }

const crdOf = (plural: string): Crd => yaml.load(readFileSync(join(CHART_DIR, 'files', 'openreports', `openreports.io_${plural}.yaml`), 'utf8')) as Crd

/**
 * A validator that also refuses what the API server would prune: every object schema listing its
 * properties gets additionalProperties false (metadata aside), so a field the CRD does not know,
 * which the server would silently drop (and a scan would then rewrite forever), fails.
 */
function validatorFor(crd: Crd): (object: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true })
  ;(addFormatsModule as unknown as (ajv: Ajv) => Ajv)(ajv)
  ajv.addFormat('int32', true)
  ajv.addFormat('int64', true)
  const noPruning = (node: Schema, path: string): Schema => {
    if (node.properties && path !== '.metadata' && node.additionalProperties === undefined) node.additionalProperties = false
    for (const [name, child] of Object.entries((node.properties as Record<string, Schema> | undefined) ?? {})) noPruning(child, `${path}.${name}`)
    if (node.items) noPruning(node.items as Schema, `${path}[]`)
    return node
  }
  const validate = ajv.compile(noPruning(structuredClone(crd.spec.versions[0]?.schema.openAPIV3Schema ?? {}), ''))
  return (object) => (validate(object) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`))
}

function verdict(action: ExistingVerdict['action'], results: Partial<RuleResult>[]): ExistingVerdict {
  const judged = results.map((result, index): RuleResult => ({ ruleset: 'pss', rule: `rule-${index}`, status: 'fail', severity: 'critical', message: `rule-${index} failed`, ...result }))
  return { policy: 'pss', action, ignoreErrors: false, judged, output: { policy: 'pss', passed: false, results: [] }, rulesets: [] }
}

describe('the vendored OpenReports CRDs (charts/verdict/files/openreports)', () => {
  it.each([
    ['reports', 'Report', 'Namespaced'],
    ['clusterreports', 'ClusterReport', 'Cluster'],
  ])('%s.openreports.io is a valid CustomResourceDefinition of openreports.io/v1alpha1 %s', (plural, kind, scope) => {
    const crd = crdOf(plural)
    expect(() => new CustomResourceDefinition(crd).validate()).not.toThrow()
    expect(crd.metadata?.name).toBe(`${plural}.openreports.io`)
    expect(crd.spec).toMatchObject({ group: 'openreports.io', scope, names: { kind, plural } })
    expect(crd.spec.versions.map((version) => version.name)).toEqual(['v1alpha1'])
  })

  it('hold every report Verdict writes, with no field the API server would prune', () => {
    const builder = new ReportBuilder({ maxResults: 10, now: new Date('2026-11-24T10:00:00.123Z') })
    const pod = { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'shop', uid: '5b1c3f3e-0000-4000-8000-000000000001' }
    builder.add(pod, verdict('Deny', [{ status: 'pass' }, { status: 'fail' }, { status: 'error', severity: 'info' }, { status: 'skip', exception: 'legacy-web' }]))
    builder.add({ ...pod, name: 'api' }, verdict('Deny', [{ status: 'skip', disabled: true, disabledReason: 'OPS-9' }, { status: 'fail', message: undefined, severity: 'low' }]))
    builder.add({ apiVersion: 'v1', kind: 'Namespace', name: 'shop', namespace: '' }, verdict('Warn', [{ status: 'fail', severity: 'medium' }]))
    const written = [...builder.reports().values()].flat().map((report) => draftFor(OPENREPORTS, report).toObject())
    expect(written.map((report) => report.kind)).toEqual(['Report', 'ClusterReport'])
    const problems = written.flatMap((report) => validatorFor(crdOf(report.kind === 'Report' ? 'reports' : 'clusterreports'))(report).map((problem) => `${String(report.kind)}: ${problem}`))
    expect(problems).toEqual([])
    expect(written[0]?.results).toHaveLength(5)
  })

  it('refuses what they do not hold, so the check above can fail', () => {
    const validate = validatorFor(crdOf('reports'))
    const report = { apiVersion: 'openreports.io/v1alpha1', kind: 'Report', metadata: { name: 'r' }, summary: { pass: 1 }, results: [{ policy: 'p', result: 'fail', timestamp: { seconds: 1, nanos: 0 } }] }
    expect(validate(report)).toEqual([])
    expect(validate({ ...report, owner: 'verdict' })).toEqual([expect.stringContaining('must NOT have additional properties {"additionalProperty":"owner"}')])
    expect(validate({ ...report, results: [{ policy: 'p', result: 'failed', timestamp: { seconds: 1, nanos: 0 } }] })).toEqual([expect.stringContaining('/results/0/result must be equal to one of the allowed values')])
    expect(validate({ ...report, results: [{ policy: 'p', severity: 'severe', properties: { count: 2 } }] })).toEqual([
      expect.stringContaining('/results/0/properties/count must be string'),
      expect.stringContaining('/results/0/severity must be equal to one of the allowed values'),
    ])
  })
})
