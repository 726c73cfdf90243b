import { describe, expect, it } from 'vitest'
import { isClusterRef } from '../../src/scan/manifests/manifest-object.js'
import { formatSarif } from '../../src/scan/output/sarif-output.js'
import { artifactUri } from '../../src/scan/output/artifact-uri.js'
import { sampleClusterReport } from './sample-cluster-report.js'
import { sampleReport } from './sample-report.js'
import { DRAFT_04_ONLY, sarifSchemaText, sarifValidator } from './sarif-schema.js'

interface SarifLog {
  runs: Array<{ tool: { driver: { name: string; rules: Array<Record<string, unknown>> } }; results: Array<Record<string, unknown>> }>
}

describe('formatSarif', () => {
  const validate = sarifValidator()
  const text = formatSarif(sampleReport(), { cwd: '/repo', toolVersion: '1.2.3' })
  const log = JSON.parse(text) as SarifLog

  it('is valid against the official SARIF 2.1.0 schema', () => {
    expect(sarifSchemaText().id).toBe('https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json')
    for (const keyword of DRAFT_04_ONLY) expect(JSON.stringify(sarifSchemaText())).not.toContain(`"${keyword}"`)
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
  })

  it('the validator refuses what the schema refuses', () => {
    const broken = JSON.parse(text) as SarifLog
    const location = (broken.runs[0]?.results[0]?.locations as Array<{ physicalLocation: { region: Record<string, unknown> } }>)[0]
    if (location) location.physicalLocation.region = {}
    expect(validate(broken)).toBe(false)
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'verdict' } }, results: [{ message: { text: 'x' }, level: 'fatal' }] }] })).toBe(false)
  })

  it('lists the policies\' rules as driver rules under <policy>/<ruleset>/<rule>, their level from the action', () => {
    const driver = log.runs[0]?.tool.driver
    expect(driver?.name).toBe('verdict')
    expect(driver?.rules.map((rule) => [rule.id, (rule.defaultConfiguration as { level: string }).level])).toEqual([
      ['prod/hygiene/no-latest', 'error'],
      ['prod/hygiene/team-label', 'error'],
      ['advisory/probes/readiness', 'warning'],
      ['audit-only/net/no-nodeport', 'note'],
    ])
    expect(driver?.rules[0]).toEqual({
      id: 'prod/hygiene/no-latest',
      name: 'no-latest',
      shortDescription: { text: 'hygiene/no-latest' },
      fullDescription: { text: 'hygiene/no-latest, applied by policy prod (Deny)' },
      help: { text: 'Pin every image.' },
      defaultConfiguration: { level: 'error' },
      properties: { policy: 'prod', action: 'Deny', ruleset: 'hygiene', severity: 'high', tags: ['kubernetes', 'verdict'] },
    })
    expect(driver?.rules[2]?.fullDescription).toEqual({ text: 'Workloads say when they are ready.' })
  })

  it('reports each fail and error at its object\'s file and line: error for Deny, warning for Warn, note for Audit', () => {
    const results = log.runs[0]?.results ?? []
    expect(results.map((result) => [result.ruleId, result.ruleIndex, result.level])).toEqual([
      ['prod/hygiene/no-latest', 0, 'error'],
      ['advisory/probes/readiness', 2, 'warning'],
      ['audit-only/net/no-nodeport', 3, 'note'],
    ])
    expect(results[2]).toEqual({
      ruleId: 'audit-only/net/no-nodeport',
      ruleIndex: 3,
      level: 'note',
      message: { text: 'Service web: the rule could not be evaluated: rule net/no-nodeport could not be evaluated' },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: 'deploy/app.yaml' }, region: { startLine: 40 } },
          logicalLocations: [{ name: 'web', fullyQualifiedName: 'Service web', kind: 'resource' }],
        },
      ],
      partialFingerprints: { 'verdictObjectRule/v1': expect.stringMatching(/^[0-9a-f]{32}$/) },
      properties: { status: 'error', severity: 'low', path: 'spec.type', template: 'shop/templates/svc.yaml' },
    })
  })

  it('locates an object listed from a cluster by a logical location alone, and stays valid', () => {
    const cluster = JSON.parse(formatSarif(sampleClusterReport(), { cwd: '/repo', toolVersion: '1.2.3' })) as SarifLog
    expect(validate(cluster), JSON.stringify(validate.errors)).toBe(true)
    expect(cluster.runs[0]?.results.map((result) => result.locations)).toEqual([
      [{ logicalLocations: [{ name: 'web-1', fullyQualifiedName: 'v1/Pod/shop/web-1', kind: 'resource' }] }],
      [{ logicalLocations: [{ name: 'shop', fullyQualifiedName: 'v1/Namespace/shop', kind: 'resource' }] }],
    ])
    expect(cluster.runs[0]?.results[0]?.message).toEqual({ text: 'Pod shop/web-1: images must be pinned' })
  })

  it('keeps fingerprints when only lines move', () => {
    const moved = sampleReport()
    moved.judgements = moved.judgements.map(({ object, ...judgement }) => ({ ...judgement, object: isClusterRef(object) ? object : { ...object, line: object.line + 7 } }))
    const fingerprints = (sarif: SarifLog) => sarif.runs[0]?.results.map((result) => result.partialFingerprints)
    expect(fingerprints(JSON.parse(formatSarif(moved, { cwd: '/repo', toolVersion: '1.2.3' })) as SarifLog)).toEqual(fingerprints(log))
  })
})

describe('artifactUri', () => {
  it('is relative to the working directory, with / and percent-encoded segments', () => {
    expect(artifactUri('deploy/extra dir/cm#1.yaml', '/repo', 'stdin')).toBe('deploy/extra%20dir/cm%231.yaml')
    expect(artifactUri('/repo/charts/app.yaml', '/repo', 'stdin')).toBe('charts/app.yaml')
    expect(artifactUri('/elsewhere/app.yaml', '/repo', 'stdin')).toBe('../elsewhere/app.yaml')
    expect(artifactUri('stdin', '/repo', 'stdin')).toBe('stdin')
  })
})
