import { describe, expect, it } from 'vitest'
import { counterNameCondition, globToLike, nameCondition, nameSelector } from '../../src/store/name-pattern.js'

describe('name selectors of the audit routes', () => {
  it('reads * as all, names with * or ? as globs, anything else as one exact name', () => {
    expect(nameSelector('*')).toEqual({ kind: 'all' })
    expect(nameSelector('prod-web')).toEqual({ kind: 'exact', name: 'prod-web' })
    expect(nameSelector('a%b_c')).toEqual({ kind: 'exact', name: 'a%b_c' })
    expect(nameSelector('prod-*')).toEqual({ kind: 'like', pattern: 'prod-%' })
    expect(nameSelector('**')).toEqual({ kind: 'all' })
    expect(nameSelector('*?')).toEqual({ kind: 'like', pattern: '%_' })
  })

  it('turns globs into LIKE patterns with %, _ and \\ escaped', () => {
    expect(globToLike('prod-*')).toBe('prod-%')
    expect(globToLike('p?d')).toBe('p_d')
    expect(globToLike('50%_off*')).toBe('50\\%\\_off%')
    expect(globToLike('back\\slash?')).toBe('back\\\\slash_')
  })

  it('builds numbered conditions that append their parameter', () => {
    const params: unknown[] = ['earlier']
    expect(nameCondition('policy_name', nameSelector('*'), params)).toBe('TRUE')
    expect(nameCondition('policy_name', nameSelector('x'), params)).toBe('policy_name = $2')
    expect(nameCondition('policy_name', nameSelector('x*'), params)).toBe("policy_name LIKE $3 ESCAPE '\\'")
    expect(params).toEqual(['earlier', 'x', 'x%'])
  })

  it('on counter tables, reads all as the total row and keeps globs off it', () => {
    const params: unknown[] = []
    expect(counterNameCondition(nameSelector('*'), params)).toBe("name = ''")
    expect(counterNameCondition(nameSelector('x'), params)).toBe('name = $1')
    expect(counterNameCondition(nameSelector('*x'), params)).toBe("name LIKE $2 ESCAPE '\\' AND name <> ''")
    expect(params).toEqual(['x', '%x'])
  })
})
