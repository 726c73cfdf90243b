import { describe, expect, it } from 'vitest'
import { GENERIC_JSON_TEMPLATES } from '../../../src/authoring/catalog/index.js'
import { compileWithCatalog as compileInstruction, understandInstruction } from '../../../src/authoring/compile-instruction.js'
import { instructionSamples } from '../../../src/authoring/samples/instruction-samples.js'
import { compileRuleset, evaluateRuleset, judgeRuleset, PreparedInput, type RuleResult } from '../../../src/engine/index.js'

type Json = Record<string, unknown>

const GENERIC = { platform: 'generic' }

function judge(instruction: string, document: Json, labels: Record<string, string> = GENERIC): { passed: boolean; failures: RuleResult[]; statuses: string[] } {
  const { spec } = compileInstruction(instruction, labels)
  const compiled = compileRuleset({ ...spec, name: 'x' })
  const result = evaluateRuleset(compiled, new PreparedInput({ object: document }))
  return { passed: result.passed, failures: result.results, statuses: judgeRuleset(compiled, new PreparedInput({ object: document })).map((entry) => entry.status) }
}

function reading(instruction: string, labels: Record<string, string> = GENERIC): { template?: string; parameters?: unknown; status: string } {
  const report = understandInstruction(instruction, labels).clauses[0]?.report
  return { template: report?.template, parameters: report?.parameters, status: report?.status ?? 'none' }
}

describe('reading clauses', () => {
  it.each([
    ['field owner is required', 'json-field-required', { fields: ['owner'] }],
    ['config must have database.host', 'json-field-required', { fields: ['database.host'] }],
    ['owner and team fields are required', 'json-field-required', { fields: ['owner', 'team'] }],
    ['every document must contain an owner field', 'json-field-required', { fields: ['owner'] }],
    ['metadata.owner must exist', 'json-field-required', { fields: ['metadata.owner'] }],
    ['debug must not be set', 'json-field-forbidden', { fields: ['debug'] }],
    ['no field password', 'json-field-forbidden', { fields: ['password'] }],
    ['no password field is allowed', 'json-field-forbidden', { fields: ['password'] }],
    ['credentials.token is forbidden', 'json-field-forbidden', { fields: ['credentials.token'] }],
    ['logLevel must be info', 'json-field-equals', { field: 'logLevel', value: 'info', negate: false }],
    ['region must equal eu-west-1', 'json-field-equals', { field: 'region', value: 'eu-west-1', negate: false }],
    ['server.port must be 8443', 'json-field-equals', { field: 'server.port', value: 8443, negate: false }],
    ["server.port must be '8443'", 'json-field-equals', { field: 'server.port', value: '8443', negate: false }],
    ['mode != legacy', 'json-field-equals', { field: 'mode', value: 'legacy', negate: true }],
    ['environment must be one of dev, staging, prod', 'json-field-one-of', { field: 'environment', values: ['dev', 'staging', 'prod'], negate: false }],
    ['environment must be dev, staging or prod', 'json-field-one-of', { field: 'environment', values: ['dev', 'staging', 'prod'], negate: false }],
    ['replicas must be one of 1, 3, 5', 'json-field-one-of', { field: 'replicas', values: [1, 3, 5], negate: false }],
    ['version must match ^v[0-9]+$', 'json-field-pattern', { field: 'version', pattern: '^v[0-9]+$', negate: false }],
    ['name must match the regex `^[a-z-]+$`', 'json-field-pattern', { field: 'name', pattern: '^[a-z-]+$', negate: false }],
    ['replicas between 1 and 10', 'json-field-range', { field: 'replicas', minimum: 1, maximum: 10 }],
    ['timeout at most 30', 'json-field-range', { field: 'timeout', maximum: 30 }],
    ['port must be greater than 1024', 'json-field-range', { field: 'port', exclusiveMinimum: 1024 }],
    ['retries must not exceed 5', 'json-field-range', { field: 'retries', maximum: 5 }],
    ['workers must be at least 2 and less than 16', 'json-field-range', { field: 'workers', minimum: 2, exclusiveMaximum: 16 }],
    ['ratio must be positive', 'json-field-range', { field: 'ratio', exclusiveMinimum: 0 }],
    ['maximum timeout is 60', 'json-field-range', { field: 'timeout', maximum: 60 }],
    ['tls.enabled must be true', 'json-field-boolean', { field: 'tls.enabled', value: true, negate: false }],
    ['debug must never be true', 'json-field-boolean', { field: 'debug', value: true, negate: true }],
    ['in prod configs, debug must be false', 'json-field-boolean', { field: 'debug', value: false, negate: false, environment: 'prod' }],
    ['debug must be false in production', 'json-field-boolean', { field: 'debug', value: false, negate: false, environment: 'production' }],
    ['when environment is prod, tls.enabled must be true', 'json-field-boolean', { field: 'tls.enabled', value: true, negate: false, whenField: 'environment', whenValue: 'prod' }],
    ['tls.enabled must be true if server.public is true', 'json-field-boolean', { field: 'tls.enabled', value: true, negate: false, whenField: 'server.public', whenValue: true }],
    ['environment must be in prod', 'json-field-one-of', { field: 'environment', values: ['prod'], negate: false }],
    ['feild owner is requried', 'json-field-required', { fields: ['owner'] }],
    ['cost-center is required', 'json-field-required', { fields: ['cost-center'] }],
    ['every config needs a version field', 'json-field-required', { fields: ['version'] }],
    ["don't set debug", 'json-field-forbidden', { fields: ['debug'] }],
    ['name is required and must match ^[a-z]+$', 'json-field-pattern', { field: 'name', pattern: '^[a-z]+$', negate: false }],
    ['timeout_seconds must be at most 300 seconds', 'json-field-range', { field: 'timeout_seconds', maximum: 300 }],
    ['maxConnections may be at most 100', 'json-field-range', { field: 'maxConnections', maximum: 100 }],
    ['tls must be enabled', 'json-field-boolean', { field: 'tls', value: true, negate: false }],
    ['debug flag must be turned off in prod', 'json-field-boolean', { field: 'debug', value: true, negate: true, environment: 'prod' }],
  ])('"%s" -> %s', (instruction, template, parameters) => {
    expect(reading(instruction)).toEqual({ template, parameters, status: 'mapped' })
  })

  it('does not drop the requirement from "required and must not be"', () => {
    expect(reading('mode is required and must not be legacy').status).toBe('unmapped')
  })

  it('asks again for an invalid regular expression', () => {
    expect(reading('version must match ^v[0-9+$')).toMatchObject({ template: 'json-field-pattern', status: 'missing-parameters' })
  })

  it('does not take Kubernetes clauses without a platform label', () => {
    expect(reading('containers must not be privileged', {}).template).not.toMatch(/^json-/)
    expect(reading('pods must have label team', {}).template ?? '').not.toMatch(/^json-/)
  })

  it('takes field clauses without a platform label, and with any unknown platform', () => {
    expect(reading('tls.enabled must be true', {}).template).toBe('json-field-boolean')
    expect(reading('tls.enabled must be true', { platform: 'app-config' }).template).toBe('json-field-boolean')
  })

  it('splits clauses about different kinds of checks', () => {
    expect(understandInstruction('timeout at most 30 and debug must be false', GENERIC).clauses.map((entry) => entry.report.template)).toEqual(['json-field-range', 'json-field-boolean'])
    expect(understandInstruction('owner is required; region must be one of eu-west-1, us-east-1', GENERIC).clauses.map((entry) => entry.report.template)).toEqual([
      'json-field-required',
      'json-field-one-of',
    ])
  })
})

describe('required and forbidden fields', () => {
  it('fail a missing or null required field, without errors on missing parents', () => {
    const instruction = 'require fields database.host and owner'
    expect(judge(instruction, { database: { host: 'db' }, owner: 'me' }).passed).toBe(true)
    const missing = judge(instruction, { owner: null })
    expect(missing.statuses).toEqual(['fail'])
    expect(missing.failures[0]?.message).toBe('required fields database.host, owner must be set: missing database.host, owner')
    expect(judge(instruction, { database: 'not an object', owner: 'me' }).statuses).toEqual(['fail'])
  })

  it('read keys that are not identifiers and array indexes', () => {
    expect(judge('cost-center is required', { 'cost-center': 'x' }).passed).toBe(true)
    expect(judge('cost-center is required', {}).passed).toBe(false)
    expect(judge("items[0].name must be 'x'", { items: [{ name: 'x' }] }).passed).toBe(true)
    expect(judge("items[0].name must be 'x'", { items: [] }).statuses).toEqual(['fail'])
  })

  it('pass a forbidden field when missing or null, fail it when set', () => {
    const instruction = 'documents must not contain secrets.apiKey'
    expect(judge(instruction, {}).passed).toBe(true)
    expect(judge(instruction, { secrets: { apiKey: null } }).passed).toBe(true)
    const verdict = judge(instruction, { secrets: { apiKey: 'k' } })
    expect(verdict.failures[0]?.message).toBe('field secrets.apiKey must not be set: found secrets.apiKey')
    expect(verdict.failures[0]?.remediation).toBe('Remove `secrets.apiKey` from the document.')
  })
})

describe('values', () => {
  it('compare numbers as numbers and quoted values as strings', () => {
    expect(judge('server.port must be 8443', { server: { port: 8443 } }).passed).toBe(true)
    expect(judge('server.port must be 8443', { server: { port: 8443.0 } }).passed).toBe(true)
    expect(judge('server.port must be 8443', { server: { port: '8443' } }).passed).toBe(false)
    expect(judge("server.port must be '8443'", { server: { port: '8443' } }).passed).toBe(true)
  })

  it('fail "must be" when missing and pass "must not be" when missing', () => {
    const verdict = judge('logLevel must be info', {})
    expect(verdict.failures[0]?.message).toBe('logLevel must be "info": found missing')
    expect(judge('logLevel must be info', { logLevel: 'debug' }).failures[0]?.message).toBe('logLevel must be "info": found debug')
    expect(judge('logLevel must not be debug', {}).passed).toBe(true)
    expect(judge('logLevel must not be debug', { logLevel: 'debug' }).passed).toBe(false)
  })

  it('check membership, typed', () => {
    const instruction = 'environment must be one of dev, staging, prod'
    expect(judge(instruction, { environment: 'staging' }).passed).toBe(true)
    expect(judge(instruction, { environment: 'qa' }).failures[0]?.message).toBe('environment must be one of dev, staging, prod: found qa')
    expect(judge(instruction, {}).passed).toBe(false)
    expect(judge('replicas must be one of 1, 3, 5', { replicas: 3 }).passed).toBe(true)
    expect(judge('replicas must be one of 1, 3, 5', { replicas: '3' }).passed).toBe(false)
    expect(judge('logLevel must not be one of trace, debug', {}).passed).toBe(true)
    expect(judge('logLevel must not be one of trace, debug', { logLevel: 'trace' }).passed).toBe(false)
  })

  it('match patterns on strings only', () => {
    const instruction = 'version must match ^v[0-9]+$'
    expect(judge(instruction, { version: 'v12' }).passed).toBe(true)
    expect(judge(instruction, { version: '12' }).passed).toBe(false)
    expect(judge(instruction, { version: 12 }).statuses).toEqual(['fail'])
    expect(judge(instruction, {}).passed).toBe(false)
    expect(judge('name must not match ^tmp-', {}).passed).toBe(true)
    expect(judge('name must not match ^tmp-', { name: 'tmp-1' }).passed).toBe(false)
  })

  it('bound numbers, inclusive or not, and fail non-numbers without errors', () => {
    expect(judge('replicas between 1 and 10', { replicas: 10 }).passed).toBe(true)
    expect(judge('replicas between 1 and 10', { replicas: 11 }).failures[0]?.message).toBe('replicas must be a number at least 1 and at most 10: found 11')
    expect(judge('port must be greater than 1024', { port: 1024 }).passed).toBe(false)
    expect(judge('port must be greater than 1024', { port: 1024.5 }).passed).toBe(true)
    expect(judge('timeout at most 30', { timeout: '20' }).statuses).toEqual(['fail'])
    expect(judge('timeout at most 30', {}).statuses).toEqual(['fail'])
  })

  it('require JSON booleans', () => {
    expect(judge('tls.enabled must be true', { tls: { enabled: true } }).passed).toBe(true)
    expect(judge('tls.enabled must be true', { tls: { enabled: 'true' } }).passed).toBe(false)
    expect(judge('tls.enabled must be true', {}).passed).toBe(false)
    expect(judge('debug must never be true', {}).passed).toBe(true)
    expect(judge('debug must never be true', { debug: true }).passed).toBe(false)
  })

  it('read "enabled" as true and "disabled" as anything but true', () => {
    expect(judge('tls must be enabled', {}).passed).toBe(false)
    expect(judge('tls must be enabled', { tls: true }).passed).toBe(true)
    for (const instruction of ['debug must be disabled', 'debug must not be enabled']) {
      expect(judge(instruction, {}).passed).toBe(true)
      expect(judge(instruction, { debug: false }).passed).toBe(true)
      expect(judge(instruction, { debug: true }).failures[0]?.message).toBe('debug must not be true: found true')
    }
  })
})

describe('conditions', () => {
  const prod = 'in prod configs, debug must be false'

  it('apply "in prod configs" to documents whose environment or env is prod or production', () => {
    expect(judge(prod, { environment: 'prod', debug: true }).failures[0]?.message).toBe('debug must be false in prod documents: found true')
    expect(judge(prod, { env: 'Production', debug: true }).passed).toBe(false)
    expect(judge(prod, { environment: 'prod', debug: false }).passed).toBe(true)
  })

  it('skip other documents rather than pass them', () => {
    expect(judge(prod, { environment: 'dev', debug: true }).statuses).toEqual(['skip'])
    expect(judge(prod, { debug: true }).statuses).toEqual(['skip'])
  })

  it('compare "when <path> is <value>" exactly and typed', () => {
    const instruction = 'when environment is prod, tls.enabled must be true'
    expect(judge(instruction, { environment: 'prod' }).passed).toBe(false)
    expect(judge(instruction, { environment: 'dev' }).statuses).toEqual(['skip'])
    const nested = 'tls.enabled must be true if server.public is true'
    expect(judge(nested, { server: { public: true } }).passed).toBe(false)
    expect(judge(nested, { server: { public: 'true' } }).statuses).toEqual(['skip'])
  })

  it('name the rule after its condition', () => {
    expect(compileInstruction(prod, GENERIC).spec.rules[0]?.name).toBe('debug-is-false-in-prod')
  })
})

describe('instructions', () => {
  it('produce samples that verify for several clauses on one document', () => {
    const instruction = [
      'owner is required',
      'debug must not be set',
      'logLevel must be info',
      'environment must be one of dev, staging, prod',
      'version must match ^v[0-9]+\\.[0-9]+$',
      'replicas between 1 and 10',
      'when environment is prod, tls.enabled must be true',
    ].join('\n')
    const understood = understandInstruction(instruction, GENERIC)
    const { spec } = compileInstruction(instruction, GENERIC)
    const rules = understood.clauses.map((entry, index) => {
      const best = entry.recognition.best
      if (!best) throw new Error(`not recognized: ${entry.clause.text}`)
      return { rule: spec.rules[index]?.name ?? '', template: best.template, parameters: best.recognition.parameters, kinds: entry.clause.kinds }
    })
    const { samples, unverified } = instructionSamples('x', spec, rules)
    expect(unverified).toEqual([])
    expect(samples.filter((sample) => sample.label === 'compliant')).toHaveLength(1)
  })
})

describe('every template', () => {
  it.each(GENERIC_JSON_TEMPLATES.map((template) => [template.id, template] as const))('%s documents its parameters and has varied phrasings', (_id, template) => {
    expect(template.phrasings.length).toBeGreaterThanOrEqual(3)
    for (const parameter of template.parameters) {
      expect(parameter.question).toMatch(/\?$/)
      expect(parameter.example).toBeDefined()
    }
  })
})
