import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimiter } from '../../src/api/rate-limit.js'
import { bearer, expectError, expectStamped, startServer, type TestServer } from './test-server.js'

describe('RateLimiter', () => {
  function limiter(options: { rate: number; burst: number; maxBuckets?: number }): { limiter: RateLimiter; advance: (ms: number) => void } {
    let now = 1_000
    return { limiter: new RateLimiter({ ...options, now: () => now }), advance: (ms) => (now += ms) }
  }

  it('allows a burst, then refills at the rate', () => {
    const { limiter: bucket, advance } = limiter({ rate: 2, burst: 3 })
    expect(bucket.take('t')).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 1, retryAfterSeconds: 0 })
    expect(bucket.take('t')).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 1, retryAfterSeconds: 0 })
    expect(bucket.take('t')).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 2, retryAfterSeconds: 0 })
    expect(bucket.take('t')).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 })
    advance(500)
    expect(bucket.take('t')).toMatchObject({ allowed: true, remaining: 0 })
    advance(10_000)
    expect(bucket.take('t')).toMatchObject({ allowed: true, remaining: 2 })
  })

  it('says how long to wait, at least a second', () => {
    const { limiter: slow } = limiter({ rate: 0.25, burst: 1 })
    slow.take('t')
    expect(slow.take('t')).toMatchObject({ allowed: false, retryAfterSeconds: 4, resetSeconds: 4 })
    const { limiter: fast } = limiter({ rate: 1000, burst: 1 })
    fast.take('t')
    expect(fast.take('t')).toMatchObject({ allowed: false, retryAfterSeconds: 1 })
  })

  it('keeps one bucket per key', () => {
    const { limiter: bucket } = limiter({ rate: 1, burst: 1 })
    expect(bucket.take('a').allowed).toBe(true)
    expect(bucket.take('a').allowed).toBe(false)
    expect(bucket.take('b').allowed).toBe(true)
  })

  it('drops buckets that have refilled, and never keeps more than maxBuckets', () => {
    const { limiter: bucket, advance } = limiter({ rate: 1, burst: 2, maxBuckets: 100 })
    for (let key = 0; key < 50; key += 1) bucket.take(`idle-${key}`)
    advance(2_000)
    bucket.take('new')
    expect(bucket.size).toBe(1)
    for (let key = 0; key < 500; key += 1) bucket.take(`busy-${key}`)
    expect(bucket.size).toBe(100)
  })

  it('keeps the most recently used buckets when full', () => {
    const { limiter: bucket } = limiter({ rate: 1, burst: 1, maxBuckets: 2 })
    bucket.take('a')
    bucket.take('b')
    bucket.take('a')
    bucket.take('c')
    expect(bucket.take('a').allowed).toBe(false)
  })
})

describe('rate limiting over HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ config: { rateLimit: 0.5, rateBurst: 2 } })
  })
  afterAll(() => server.close())

  const get = (token: string, path = '/api/things/web'): Promise<Response> => fetch(`${server.url}${path}`, { headers: bearer(token) })
  const limits = (response: Response): Record<string, string | null> => ({
    limit: response.headers.get('ratelimit-limit'),
    remaining: response.headers.get('ratelimit-remaining'),
    reset: response.headers.get('ratelimit-reset'),
  })

  it('puts RateLimit headers on every authenticated response and answers 429 with Retry-After past the burst', async () => {
    const first = await get('reader-secret')
    expect(first.status).toBe(200)
    expect(limits(first)).toEqual({ limit: '2', remaining: '1', reset: '2' })
    const second = await get('reader-secret')
    expect(second.status).toBe(200)
    expect(limits(second)).toEqual({ limit: '2', remaining: '0', reset: '4' })
    const third = await get('reader-secret')
    expect(third.headers.get('retry-after')).toBe('2')
    expect(limits(third)).toEqual({ limit: '2', remaining: '0', reset: '4' })
    await expectError(third, 429, 'rate limited', 'limit of 0.5 requests per second exceeded; retry after 2 s')
  })

  it('limits each token on its own, on every authenticated route, errors included', async () => {
    const forbidden = await fetch(`${server.url}/api/things/web`, {
      method: 'POST',
      headers: { ...bearer('plain-secret'), 'content-type': 'application/json' },
      body: '{}',
    })
    expect(forbidden.status).toBe(403)
    expect(limits(forbidden)).toEqual({ limit: '2', remaining: '1', reset: '2' })
    const version = await get('plain-secret', '/version')
    expectStamped(version)
    expect(version.status).toBe(200)
    expect(limits(version).remaining).toBe('0')
    expect((await get('plain-secret', '/version')).status).toBe(429)
  })

  it('does not count requests without a valid token, nor public routes', async () => {
    const unauthorized = await get('nobody-secret')
    expect(unauthorized.status).toBe(401)
    expect(limits(unauthorized)).toEqual({ limit: null, remaining: null, reset: null })
    const ping = await fetch(`${server.url}/public/ping`)
    expect(ping.status).toBe(200)
    expect(limits(ping)).toEqual({ limit: null, remaining: null, reset: null })
  })
})
