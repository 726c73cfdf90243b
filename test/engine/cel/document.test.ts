import { describe, expect, it } from 'vitest'
import { fromCelValue } from '../../../src/engine/cel/index.js'
import { MAX_HOLDER_NODES } from '../../../src/engine/cel/libraries/document.js'
import { evalCel } from './helpers.js'

const holders = (object: unknown, keys: string[]): unknown => fromCelValue(evalCel(`document.holders(object, ${JSON.stringify(keys).replace(/"/g, "'")})`, { object }))

describe('document.holders', () => {
  it('is the document itself when a key is at the top, even if lists below have it too', () => {
    const object = { path: '/', routes: [{ path: '/api' }] }
    expect(holders(object, ['path'])).toEqual([object])
  })

  it("is every element of the shallowest list that holds a key, elements without it included", () => {
    const routes = [{ path: '/api/a', rateLimit: { requestsPerMinute: 10 } }, { path: '/api/b' }]
    expect(holders({ gateway: 'edge', routes }, ['rateLimit'])).toEqual(routes)
  })

  it('finds a nested map on its own (upstream.retries), not its siblings', () => {
    const object = { upstream: { retries: 3, url: 'https://x' }, logging: { level: 'info' } }
    expect(holders(object, ['retries'])).toEqual([{ retries: 3, url: 'https://x' }])
  })

  it("takes a map of alike maps as a collection: a workflow's jobs keyed by name, one without the key", () => {
    const jobs = { build: { 'runs-on': 'ubuntu', 'timeout-minutes': 10 }, test: { 'runs-on': 'ubuntu' } }
    expect(holders({ name: 'ci', jobs }, ['timeout-minutes'])).toEqual([jobs.build, jobs.test])
  })

  it('goes down lists of lists (groups[].rules[])', () => {
    const rules = [{ alert: 'A', labels: { severity: 'critical' } }, { record: 'r' }, { alert: 'B' }]
    const object = { groups: [{ name: 'g1', rules: rules.slice(0, 2) }, { name: 'g2', rules: rules.slice(2) }] }
    expect(holders(object, ['labels'])).toEqual(rules)
  })

  it('is the document when no map holds any key, so the value is judged missing there', () => {
    const object = { a: { b: 1 }, c: [{ d: 2 }] }
    expect(holders(object, ['timeout'])).toEqual([object])
    expect(evalCel("document.holders(object, ['timeout']).all(h, has(h.timeout))", { object })).toBe(false)
  })

  it('accepts any of several name variants', () => {
    const object = { upstream: { timeout_ms: 1500 } }
    expect(holders(object, ['timeoutMs', 'timeout_ms', 'timeout'])).toEqual([{ timeout_ms: 1500 }])
  })

  it('gives up on documents wider than its node budget and answers with the document', () => {
    const object = { items: Array.from({ length: MAX_HOLDER_NODES + 10 }, () => ({ other: 1 })), deep: { x: { wanted: 1 } } }
    expect(holders(object, ['wanted'])).toEqual([object])
  })

  it('is the value itself for scalars and lists', () => {
    expect(holders(5, ['a'])).toEqual([5])
    expect(holders([{ a: 1 }], ['a'])).toEqual([[{ a: 1 }]])
  })
})
