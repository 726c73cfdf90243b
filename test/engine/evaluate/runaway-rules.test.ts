import { afterEach, describe, expect, it } from 'vitest'
import { getCelLimits, setCelLimits } from '../../../src/engine/cel/index.js'
import { compileRuleset, evaluateRuleset, PreparedInput, type Rule, type RuleResult } from '../../../src/engine/index.js'

const DEFAULTS = getCelLimits()
afterEach(() => setCelLimits(DEFAULTS))

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop', labels: { team: 'a' } },
  spec: {
    containers: [
      { name: 'app', image: 'nginx:1.27', securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false } },
      { name: 'sidecar', image: 'envoy:1.30', securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false } },
    ],
  },
}

function judge(rule: Rule): RuleResult {
  const result = evaluateRuleset(compileRuleset({ name: 'runaway', rules: [rule] }), new PreparedInput({ object: pod }), { verbose: true })
  return result.results[0] as RuleResult
}

/** Thirty variables, each made from the one before by `step` (which names it `v`), then `validation` over the last. */
function chain(first: string, step: (v: string) => string, validation: (last: string) => string, length = 30): Rule {
  const variables = [{ name: 'v0', expression: first }]
  for (let i = 1; i <= length; i++) variables.push({ name: `v${i}`, expression: step(`variables.v${i - 1}`) })
  return { name: 'grows', variables, validate: { cel: [{ expression: validation(`variables.v${length}`) }] } }
}

const costSpent = (): string => `cost budget exceeded: the expression used more than ${getCelLimits().maxCost} cost units`

describe('a rule that makes runaway work, under the default cost limit', () => {
  // Without the time limit, only charging for what each operation builds and reads can stop these.
  const withoutTimeLimit = (): void => setCelLimits({ maxMillis: 600_000 })

  it.each([
    ['string + doubling', "'abcdefgh'", (v: string) => `${v} + ${v}`, (last: string) => `size(${last}) > 0`],
    ['list + doubling', '[1, 2, 3, 4]', (v: string) => `${v} + ${v}`, (last: string) => `size(${last}) > 0`],
    ['replace of the empty string', "'ab'", (v: string) => `${v}.replace('', ${v})`, (last: string) => `size(${last}) > 0`],
    ['join() of a list holding the string twice', "'abcdefgh'", (v: string) => `[${v}, ${v}].join()`, (last: string) => `size(${last}) > 0`],
    ['join with the string as separator', "'abcdefgh'", (v: string) => `[${v}, ${v}, ${v}].join(${v})`, (last: string) => `size(${last}) > 0`],
    ['format', "'abcdefgh'", (v: string) => `'%s-%s'.format([${v}, ${v}])`, (last: string) => `size(${last}) > 0`],
    ['lowerAscii and upperAscii', "'AbCdEfGh'", (v: string) => `${v}.lowerAscii() + ${v}.upperAscii()`, (last: string) => `size(${last}) > 0`],
    ['split', "['a', 'b']", (v: string) => `(${v}.join(',') + ',' + ${v}.join(',')).split(',')`, (last: string) => `size(${last}) > 0`],
    ['map() results', '[1, 2, 3, 4]', (v: string) => `${v}.map(x, [x, x]).flatten()`, (last: string) => `size(${last}) > 0`],
    ['a list holding the one before twice, compared', '[1, 2]', (v: string) => `[${v}, ${v}]`, (last: string) => `${last} == [[1]]`],
    ['a list holding the one before twice, returned', '[1, 2]', (v: string) => `[${v}, ${v}]`, (last: string) => last],
  ])('stops %s through thirty variables as an error', (_what, first, step, validation) => {
    withoutTimeLimit()
    const result = judge(chain(first, step, validation))
    expect(result.status).toBe('error')
    expect(result.message).toMatch(new RegExp(`failed: ${costSpent()}$`))
  })

  it('stops doubling through nested cel.bind in one expression', () => {
    withoutTimeLimit()
    let expression = 'size(a30) > 0'
    for (let i = 30; i > 0; i--) expression = `cel.bind(a${i}, a${i - 1} + a${i - 1}, ${expression})`
    const result = judge({ name: 'binds', validate: { cel: [{ expression: `cel.bind(a0, 'abcdefgh', ${expression})` }] } })
    expect([result.status, result.message]).toEqual(['error', `expression "cel.bind(a0, 'abcdefgh', ${expression})" failed: ${costSpent()}`])
  })

  it.each([
    ['three nested all()', 'lists.range(300).all(a, lists.range(300).all(b, lists.range(300).all(c, a + b + c >= 0)))'],
    ['nested map() results', 'size(lists.range(2000).map(a, lists.range(2000).map(b, a + b))) > 0'],
    ['a string walked in a loop', "lists.range(100000).all(i, ('x' + 'abcdefghijklmnop'.replace('', 'abcdefghijklmnop')).contains('zz') == false)"],
  ])('stops %s as an error', (_what, expression) => {
    withoutTimeLimit()
    const result = judge({ name: 'loops', validate: { cel: [{ expression }] } })
    expect([result.status, result.message]).toEqual(['error', `expression "${expression}" failed: ${costSpent()}`])
  })

  it('stops runaway work at the default limits, whichever of cost or time runs out first', () => {
    for (const expression of ['lists.range(3000).all(a, lists.range(3000).all(b, a + b >= 0))', 'size(lists.range(3000).map(a, lists.range(3000))) > 0']) {
      const result = judge({ name: 'loops', validate: { cel: [{ expression }] } })
      expect(result.status).toBe('error')
      expect(result.message).toMatch(/failed: cost budget exceeded: the expression (used more than \d+ cost units|ran longer than \d+ ms)$/)
    }
  })

  it('still passes a compliant rule with variables and comprehensions', () => {
    const result = judge({
      name: 'restricted',
      variables: [
        { name: 'containers', expression: 'object.spec.containers + object.spec.?initContainers.orValue([])' },
        { name: 'images', expression: 'variables.containers.map(c, c.image)' },
      ],
      validate: {
        cel: [
          { expression: "variables.images.all(i, !i.endsWith(':latest') && i.split(':').size() == 2)" },
          { expression: 'variables.containers.all(c, c.securityContext.runAsNonRoot && !c.securityContext.allowPrivilegeEscalation)' },
          { expression: "'%s/%s'.format([object.metadata.namespace, object.metadata.name]).lowerAscii() == 'shop/web'" },
          { expression: "variables.images.join(', ').replace('nginx', 'NGINX').upperAscii().startsWith('NGINX:1.27')" },
        ],
      },
    })
    expect(result).toEqual({ ruleset: 'runaway', rule: 'restricted', status: 'pass', severity: 'medium' })
  })
})
