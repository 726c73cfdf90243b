import { describe, expect, it } from 'vitest'
import { sentenceLiterals, unusedLiterals } from '../../../src/authoring/understand/coverage.js'

describe('coverage of what a requirement sentence writes', () => {
  it('finds numbers with units and quoted or code literals, not versions or ids', () => {
    expect(sentenceLiterals('minReplicas >= 2 and `maxReplicas` <= 20, memory 4Gi, "gold" tier, 50% of v1.19 (CVE-2021-1234) since 1.23.0')).toEqual(['maxReplicas', 'gold', '2', '20', '4Gi', '50%'])
  })

  it('names a number the interpretation did not use, however close another one is', () => {
    expect(unusedLiterals('minReplicas >= 2 and maxReplicas <= 20', ['minReplicas', '2'])).toEqual(['20'])
    expect(unusedLiterals('minReplicas >= 2 and maxReplicas <= 20', ['maxReplicas', '20'])).toEqual(['2'])
    expect(unusedLiterals('minReplicas >= 2 and maxReplicas <= 20', ['2', '20'])).toEqual([])
  })

  it('counts a code literal as used when each name in it is', () => {
    expect(unusedLiterals('containers must set `drop: ["ALL"]`', ['capabilities', 'drop', 'ALL'])).toEqual([])
    expect(unusedLiterals('containers must set `drop: ["ALL"]`', ['capabilities', 'drop'])).toEqual(['drop: ["ALL"]'])
  })
})
