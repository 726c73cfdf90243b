import { describe, expect, it } from 'vitest'
import { lineOfError } from '../../console/src/yaml-field-line.js'

const YAML = `description: pod rules
labels:
  team: payments
rules:
  - name: a
    match:
      kinds: [Pod]
    validate:
      cel:
        - expression: "true"
  - name: b
    severty: high
    validate:
      cel:
        - expression: "object.spec.("
          message: broken
`

describe('lineOfError', () => {
  it('follows the path of a field error key by key and item by item', () => {
    expect(lineOfError(YAML, 'body.rules[1].severty: unknown field "severty"')).toBe(12)
    expect(lineOfError(YAML, 'body.rules[1].validate.cel[0].expression (line 1, column 13): Expected IDENTIFIER, got LPAREN')).toBe(15)
    expect(lineOfError(YAML, 'body.rules[0].validate.cel[0].expression: bad')).toBe(10)
    expect(lineOfError(YAML, 'body.rules[1] (rule "a \\"quoted\\" (name)").validate.cel[0].expression (line 1, column 13): Expected IDENTIFIER, got LPAREN')).toBe(15)
    expect(lineOfError(YAML, 'body.labels.team: too long')).toBe(3)
    expect(lineOfError(YAML, 'body.rules[0].name: taken')).toBe(5)
  })

  it('takes the line of a parser error as the parser gives it, and stops at the deepest line a path reaches', () => {
    expect(lineOfError(YAML, 'body is not valid YAML: bad indentation of a sequence entry at line 3, column 4')).toBe(3)
    // kinds is a flow list: its items have no lines of their own.
    expect(lineOfError(YAML, 'body.rules[0].match.kinds[0]: unknown kind')).toBe(7)
    expect(lineOfError(YAML, 'body.rules[5].name: missing')).toBe(4)
    expect(lineOfError(YAML, 'the token lacks the scope rulesets:write')).toBeUndefined()
  })

  it('reads sequences written at their key\'s own column, and keys quoted', () => {
    const flat = `rules:\n- name: a\n  "severity": low\n- name: b\n  severty: high\n`
    expect(lineOfError(flat, 'body.rules[1].severty: unknown field')).toBe(5)
    expect(lineOfError(flat, 'body.rules[0].severity: bad')).toBe(3)
  })
})
