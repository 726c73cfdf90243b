import { describe, expect, it } from 'vitest'
import { groundingProblem } from '../../../src/authoring/understand/grounding.js'
import type { Predicate, Requirement, ValueRef } from '../../../src/authoring/understand/requirement.js'

const label = (key: string): ValueRef => ({ scope: 'object', variants: [{ segments: ['metadata', 'labels', key] }], label: `label ${key}`, type: 'string', explicit: true })
const field = (...segments: string[]): ValueRef => ({ scope: 'object', variants: [{ segments }], label: segments.join('.'), type: 'string' })

function requirement(values: ValueRef[], predicate: Predicate): Requirement {
  return { sentence: '', subject: { platform: 'kubernetes', kinds: ['Pod'] }, values, predicate, combine: 'all', missing: 'fail', conditions: [], exemptions: [] }
}

describe('the grounding gate', () => {
  it('never takes an English word of the prose as a label key', () => {
    expect(groundingProblem(requirement([label('use')], { op: 'set' }), 'Define and use labels that describe the app.')).toEqual({
      problem: '"use" is a word of the sentence, not a key written as one',
      question: 'which label or annotation key is meant? write it in backticks, e.g. `app.kubernetes.io/name`',
    })
    expect(groundingProblem(requirement([label('Require')], { op: 'set' }), 'Require labels on every pod.')?.problem).toBe('"Require" is a word of the sentence, not a key written as one')
  })

  it('takes keys written as keys: quoted, not a plain word, or listed beside the word labels', () => {
    const text = 'Pods must carry the labels team and `cost-center`, plus app.kubernetes.io/part-of.'
    for (const key of ['team', 'cost-center', 'app.kubernetes.io/part-of']) expect(groundingProblem(requirement([label(key)], { op: 'set' }), text)).toBeUndefined()
    expect(groundingProblem(requirement([label('squad')], { op: 'set' }), 'every pod needs app.kubernetes.io/name, squad and tier')).toBeUndefined()
  })

  it('never compares against an English word of the prose', () => {
    expect(groundingProblem(requirement([field('spec', 'priorityClassName')], { op: 'equals', value: 'make' }), 'priorityClassName must be set to make scheduling fair.')).toEqual({
      problem: '"make" is a word of the sentence, not a value written as one',
      question: 'which value must `spec.priorityClassName` take? write it in backticks or quotes',
    })
    expect(groundingProblem(requirement([field('spec', 'reclaimPolicy')], { op: 'noneOf', values: ['reused'] }), 'volumes cannot be reused by tenants')?.problem).toBe('"reused" is a word of the sentence, not a value written as one')
  })

  it('takes values written as values: quoted, names, capitalised inside a sentence, plain words that are not prose', () => {
    const check = (value: string, text: string): boolean => groundingProblem(requirement([field('spec', 'x')], { op: 'equals', value }), text) === undefined
    expect(check('make', 'x must be `make`')).toBe(true)
    expect(check('LoadBalancer', 'services of type LoadBalancer are banned')).toBe(true)
    expect(check('Delete', 'reclaim must be Delete')).toBe(true)
    expect(check('staging', 'env must be one of dev, staging or prod')).toBe(true)
    expect(check('k8s.gcr.io', 'no images from k8s.gcr.io')).toBe(true)
  })

  it('takes a word given to a key with "=" or ":" as written for that key', () => {
    expect(groundingProblem(requirement([label('keep-tmp')], { op: 'equals', value: 'yes' }), 'Pods labelled keep-tmp=yes are exempt.')).toBeUndefined()
    expect(groundingProblem(requirement([label('keep-tmp')], { op: 'equals', value: 'yes' }), 'Pods that say yes to keep-tmp are exempt.')?.problem).toBe('"yes" is a word of the sentence, not a value written as one')
  })
})
