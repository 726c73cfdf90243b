import { describe, expect, it } from 'vitest'
import { parseLabelSelector } from '../../src/k8s/label-selector.js'

describe('parseLabelSelector', () => {
  it.each([
    ['verdict.dev/context=true', true],
    ['verdict.dev/context==true', true],
    ['cache.kyverno.io/enabled', true],
    ['team in (a,b)', true],
    ['team in (a, b), tier notin (dev)', true],
    ['app=', true],
    ['!legacy', false],
    ['team!=a', false],
    ['team notin (a),!b', false],
    ['!legacy,team', true],
  ])('reads %j (positive: %s)', (selector, positive) => {
    expect(parseLabelSelector(selector)).toEqual({ positive })
  })

  it.each([
    ['', 'a requirement is empty (two commas in a row, or one at an end)'],
    ['a,,b', 'a requirement is empty (two commas in a row, or one at an end)'],
    ['team in (a,b', 'the parentheses do not pair'],
    ['team in ((a))', 'the parentheses do not pair'],
    ['team in ()', '"team in ()": in needs at least one value'],
    ['team=a b', '"team=a b": "a b" is not a label value'],
    ['-team=a', '"-team" is not a label key (name part: at most 63 of A-Z a-z 0-9 - _ ., alphanumeric at both ends)'],
    ['Example.COM/team', '"Example.COM/team" is not a label key (its prefix must be a DNS subdomain such as example.com)'],
    [`${'k'.repeat(64)}=v`, `"${'k'.repeat(64)}" is not a label key (name part: at most 63 of A-Z a-z 0-9 - _ ., alphanumeric at both ends)`],
    ['team > 3', '"team > 3" is not a requirement (key, !key, key=value, key!=value, key in (a,b), key notin (a,b))'],
  ])('refuses %j', (selector, problem) => {
    expect(parseLabelSelector(selector)).toEqual({ problem })
  })
})
