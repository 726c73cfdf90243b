import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from './errors.js'

export interface RateLimitOptions {
  /** Tokens added per second: the sustained requests per second. */
  readonly rate: number
  /** Bucket capacity: requests allowed at once after a quiet spell. */
  readonly burst: number
  /** Buckets kept at most; beyond that the least recently used one is dropped. */
  readonly maxBuckets?: number
  /** Milliseconds on a monotonic clock; tests pass their own. */
  readonly now?: () => number
}

export interface RateDecision {
  readonly allowed: boolean
  /** The bucket's capacity (RateLimit-Limit). */
  readonly limit: number
  /** Whole requests left right now (RateLimit-Remaining). */
  readonly remaining: number
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  readonly resetSeconds: number
  /** Seconds until the next request is allowed; 0 when this one was (Retry-After, at least 1, when it was not). */
  readonly retryAfterSeconds: number
}

interface Bucket {
  tokens: number
  updatedAt: number
}

const DEFAULT_MAX_BUCKETS = 10_000

/**
 * Token buckets per key (the API token), in memory. A bucket is refilled lazily when its key is
 * next seen, so there are no timers; buckets live in a Map kept in least-recently-used order, and a
 * bucket idle long enough to be full again is dropped, since a missing bucket means a full one.
 */
export class RateLimiter {
  readonly rate: number
  readonly burst: number
  private readonly maxBuckets: number
  private readonly now: () => number
  private readonly fillMs: number
  private readonly buckets = new Map<string, Bucket>()

  constructor(options: RateLimitOptions) {
    this.rate = options.rate
    this.burst = options.burst
    this.maxBuckets = options.maxBuckets ?? DEFAULT_MAX_BUCKETS
    this.now = options.now ?? (() => performance.now())
    this.fillMs = (this.burst / this.rate) * 1000
  }

  get size(): number {
    return this.buckets.size
  }

  take(key: string): RateDecision {
    const now = this.now()
    let bucket = this.buckets.get(key)
    if (bucket) {
      this.buckets.delete(key)
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.rate)
      bucket.updatedAt = now
    } else {
      this.evictIdle(now)
      bucket = { tokens: this.burst, updatedAt: now }
    }
    this.buckets.set(key, bucket)
    if (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string)

    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate)),
    }
  }

  /** Oldest first; stops at the first bucket still refilling, so the cost is paid once per dropped bucket. */
  private evictIdle(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt < this.fillMs) return
      this.buckets.delete(key)
    }
  }
}

/**
 * Runs after authentication on every route that needs a token: each authenticated response
 * carries the RateLimit-* headers, and a request over the limit is a 429 with Retry-After.
 */
export function rateLimitHook(limiter: RateLimiter, onLimited: () => void = () => {}) {
  return async function applyRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.is404 || request.routeOptions.config.scope === 'public') return
    const decision = limiter.take(request.principal.tokenId)
    reply.header('ratelimit-limit', decision.limit)
    reply.header('ratelimit-remaining', decision.remaining)
    reply.header('ratelimit-reset', decision.resetSeconds)
    if (!decision.allowed) {
      onLimited()
      const retryAfter = decision.retryAfterSeconds
      throw new ApiError(429, 'rate limited', `limit of ${limiter.rate} requests per second exceeded; retry after ${retryAfter} s`, {
        'retry-after': String(retryAfter),
      })
    }
  }
}
