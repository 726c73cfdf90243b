import { describe, expect, it } from 'vitest'
import { describeValidationErrors } from '../../src/api/validation-message.js'

describe('describeValidationErrors', () => {
  const error = (keyword: string, instancePath: string, params: Record<string, unknown>, message?: string) => ({
    keyword,
    instancePath,
    schemaPath: '#',
    params,
    message,
  })

  it.each([
    [error('required', '', { missingProperty: 'inputData' }), 'body', 'body.inputData is required'],
    [error('required', '/spec/rules/2', { missingProperty: 'name' }), 'body', 'body.spec.rules[2].name is required'],
    [error('additionalProperties', '', { additionalProperty: 'extra' }), 'body', 'body.extra is not allowed'],
    [error('type', '/labels/app.kubernetes.io~1name', { type: 'string' }), 'body', 'body.labels["app.kubernetes.io/name"] must be a string'],
    [error('type', '/value', { type: 'string,null' }), 'body', 'body.value must be a string or null'],
    [error('enum', '/severity', { allowedValues: ['low', 'high'] }), 'body', 'body.severity must be one of "low", "high"'],
    [error('const', '/kind', { allowedValue: 'Ruleset' }), 'body', 'body.kind must be "Ruleset"'],
    [error('maximum', '/pageSize', { comparison: '<=', limit: 1000 }, 'must be <= 1000'), 'querystring', 'query.pageSize must be <= 1000'],
    [error('format', '/startTimestamp', { format: 'date-time' }, 'must match format "date-time"'), 'querystring', 'query.startTimestamp must match format "date-time"'],
    [error('pattern', '/name', { pattern: '^a$' }, 'must match pattern "^a$"'), 'params', 'params.name must match pattern "^a$"'],
  ])('%#: %s', (validation, part, expected) => {
    expect(describeValidationErrors([validation], part)).toBe(expected)
  })

  it('joins several problems and drops repeats', () => {
    const missing = error('required', '', { missingProperty: 'a' })
    expect(describeValidationErrors([missing, missing, error('required', '', { missingProperty: 'b' })], 'body')).toBe(
      'body.a is required; body.b is required',
    )
  })
})
