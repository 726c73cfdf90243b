import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

/**
 * Predicates published policy descriptions use, each read from the sentence's structure: an
 * exemption by name, a field that must not be empty, "flags X if C", a reference to a named
 * object, an owner, an element holding two things at once. Each is shown reading right in our
 * own words, and a near miss refusing.
 */
function verdicts(instruction: string, labels: Record<string, string>, documents: unknown[]): boolean[] {
  const ruleset = compileRuleset({ ...compileInstruction(instruction, labels).spec, name: 'predicates' })
  return documents.map((document) => evaluateRuleset(ruleset, new PreparedInput({ object: document })).passed)
}

function refused(instruction: string, labels: Record<string, string>): string[] {
  try {
    compileInstruction(instruction, labels)
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
    return error.sentences.filter((sentence) => sentence.became.startsWith('not compiled')).map((sentence) => sentence.text)
  }
  throw new Error(`compiled: ${instruction}`)
}

const k8s = (resource: string): Record<string, string> => ({ platform: 'kubernetes', resource })

describe('an exemption by name and a field that must not be empty', () => {
  const policy = (name: string, podSelector: unknown): unknown => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace: 'web' }, spec: { podSelector } })

  it('"Xs other than `name`" exempts the object so named; "must not use an empty field" asks for a field holding something', () => {
    const instruction = 'Every NetworkPolicy other than `allow-dns` must not use an empty podSelector.'
    expect(verdicts(instruction, k8s('NetworkPolicy'), [policy('web', {}), policy('web', { matchLabels: { app: 'web' } }), policy('allow-dns', {})])).toEqual([false, true, true])
  })

  it('a name written as a hyphenated token is a name too', () => {
    expect(verdicts('Every NetworkPolicy except allow-dns must not use an empty podSelector.', k8s('NetworkPolicy'), [policy('allow-dns', {}), policy('web', {})])).toEqual([true, false])
  })

  it('an exception in ordinary words names no object: refused, never dropped', () => {
    expect(refused('Every NetworkPolicy except the default one must not use an empty podSelector.', k8s('NetworkPolicy'))).toEqual(['Every NetworkPolicy except the default one must not use an empty podSelector.'])
  })
})

describe('"this policy flags X if C": X fails where C holds', () => {
  const service = (type: string, externalName?: string): unknown => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type, ...(externalName ? { externalName } : {}) } })

  it('reads as the negated condition for the subject, its narrowing kept', () => {
    const instruction = 'This policy flags Services of type ExternalName when the externalName field points to `metadata.google.internal`.'
    expect(verdicts(instruction, k8s('Service'), [service('ExternalName', 'metadata.google.internal'), service('ExternalName', 'db.example.com'), service('ClusterIP')])).toEqual([false, true, true])
  })

  it('a condition that is several statements is not negated as one', () => {
    expect(() => compileInstruction('This policy flags Services of type ExternalName when the externalName field points to `a.internal` or the port is 22.', k8s('Service'))).toThrow(InstructionNotUnderstoodError)
  })

  it('"must not point to" compares the name held, never taking the verb as a value', () => {
    const { spec } = compileInstruction('The externalName field must not point to `metadata.google.internal`.', k8s('Service'))
    expect(spec.rules.map((rule) => rule.description)).toEqual(['For Service objects, `spec.externalName` must not be "metadata.google.internal" (unset is accepted).'])
  })
})
