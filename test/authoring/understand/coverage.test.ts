import { describe, expect, it } from 'vitest'
import { sentenceLiterals, unusedLiterals } from '../../../src/authoring/understand/coverage.js'

describe('coverage of what a requirement sentence writes', () => {
  it('finds numbers with units and quoted or code literals, not versions or ids', () => {
    expect(sentenceLiterals('minReplicas >= 2 and `maxReplicas` <= 20, memory 4Gi, "gold" tier, 50% of v1.19 (CVE-2021-1234) since 1.23.0')).toEqual(['maxReplicas', 'gold', '2', '20', '4Gi', '50%'])
  })

  it('counts a constant written unquoted (CAP_NET_ADMIN) as a literal', () => {
    expect(sentenceLiterals('containers must drop CAP_NET_ADMIN explicitly')).toEqual(['CAP_NET_ADMIN'])
    expect(unusedLiterals('containers must drop CAP_NET_ADMIN explicitly', ['drop', 'ALL'])).toEqual(['CAP_NET_ADMIN'])
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

  it('leaves out what describes a default or a reason, and examples with quotes in them', () => {
    expect(sentenceLiterals('probeTimeout must be at least 3 (the default is 1, so unset fails)')).toEqual(['3'])
    expect(sentenceLiterals('burst must be at least 4; unset (= 2) fails')).toEqual(['4'])
    expect(sentenceLiterals('a `grace` of at least 10m so nobody is woken at 4am')).toEqual(['grace', '10m'])
    expect(sentenceLiterals('a verb may not be "*" or a group wildcard like "apps:*" or "batch:*".')).toEqual(['*'])
  })

  it('counts the punctuation ending a key or a prefix, and the container lists a rule reads, as used', () => {
    expect(unusedLiterals('every `steps:` entry is pinned', ['steps'])).toEqual([])
    expect(unusedLiterals('images come from `cr.example.org/team/`', ['cr.example.org/team'])).toEqual([])
  })
})
