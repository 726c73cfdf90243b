import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadAuthoringCases } from '../../src/authoring/accuracy/authoring-case.js'
import { runAuthoringCase } from '../../src/authoring/accuracy/run-authoring-cases.js'

const cases = loadAuthoringCases(resolve(import.meta.dirname, 'cases'))

describe('instruction cases (test/authoring/cases)', () => {
  it('holds at least 200 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200)
  })

  it.each(cases.map((item) => [`${item.file}: ${item.name}`, item] as const))('%s', (_label, item) => {
    const outcome = runAuthoringCase(item)
    expect({ verdict: outcome.actual, detail: outcome.detail }).toMatchObject({ verdict: item.expect })
  })
})
