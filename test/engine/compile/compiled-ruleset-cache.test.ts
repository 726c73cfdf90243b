import { describe, expect, it } from 'vitest'
import { CompiledRulesetCache } from '../../../src/engine/compile/compiled-ruleset-cache.js'
import type { Ruleset } from '../../../src/engine/model/ruleset.js'

const ruleset = (version: number, expression = 'true'): Ruleset => ({
  name: 'rs',
  version,
  rules: [{ name: 'r', validate: { cel: [{ expression }] } }],
})

describe('CompiledRulesetCache', () => {
  it('compiles a name and version once and reuses it', () => {
    const cache = new CompiledRulesetCache()
    const first = cache.get(ruleset(1))
    expect(cache.get(ruleset(1))).toBe(first)
    expect(cache.size).toBe(1)
  })

  it('replaces a ruleset when its version changes, keeping one entry per name', () => {
    const cache = new CompiledRulesetCache()
    const first = cache.get(ruleset(1))
    const second = cache.get(ruleset(2, 'false'))
    expect(second).not.toBe(first)
    expect(second.version).toBe(2)
    expect(second.rules[0]?.validations[0]?.program.source).toBe('false')
    expect(cache.size).toBe(1)
    cache.delete('rs')
    expect(cache.size).toBe(0)
  })

  it('keeps the previous version when a new one does not compile', () => {
    const cache = new CompiledRulesetCache()
    const first = cache.get(ruleset(1))
    expect(() => cache.get(ruleset(2, 'object.('))).toThrow(/does not compile/)
    expect(cache.get(ruleset(1))).toBe(first)
  })
})
