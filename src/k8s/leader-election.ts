import { V1MicroTime, type CoordinationV1Api, type V1Lease } from '@kubernetes/client-node'
import type { ControllerLogger } from './controller-logger.js'
import { describeKubeError, isConflict, isNotFound } from './kube-errors.js'

export interface LeaderElectionTimings {
  /** How long a lease holds without renewal before another replica may take it. */
  leaseDurationMs: number
  /** How often the leader renews. */
  renewPeriodMs: number
  /** The leader steps down when it could not renew for this long (less than the lease duration). */
  renewDeadlineMs: number
  /** How often a replica that is not the leader tries to acquire. */
  retryPeriodMs: number
}

export const DEFAULT_LEADER_ELECTION: LeaderElectionTimings = {
  leaseDurationMs: 15_000,
  renewPeriodMs: 5_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
}

export interface LeaderElectionOptions {
  api: CoordinationV1Api
  namespace: string
  name: string
  identity: string
  timings: LeaderElectionTimings
  logger: ControllerLogger
  onStartedLeading(): void
  onStoppedLeading(): void
  now?: () => number
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go does it. Every write carries
 * the resourceVersion read just before, so of two replicas racing for the lease one gets 409 and
 * stays a follower. Expiry is judged by this replica's clock from when it first saw the current
 * record, never by comparing its clock with the holder's renewTime, so clock skew between nodes
 * cannot make two leaders. On stop the leader releases the lease (no holder, 1 s duration), so
 * another replica takes over at its next try instead of waiting out the lease.
 */
export class LeaderElector {
  readonly #options: LeaderElectionOptions
  readonly #now: () => number
  #leader = false
  #stopped = true
  #timer: NodeJS.Timeout | undefined
  #ticking: Promise<void> | undefined
  #lastRenew = 0
  /** The lease record last seen and when this replica first saw it. */
  #observed: { key: string; at: number } | undefined

  constructor(options: LeaderElectionOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
  }

  isLeader(): boolean {
    return this.#leader
  }

  start(): void {
    this.#stopped = false
    this.#schedule(0)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#ticking
    if (this.#leader) {
      this.#stepDown('stopping')
      await this.#release()
    }
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#ticking = this.#tick().finally(() => {
        this.#ticking = undefined
        this.#schedule(this.#leader ? this.#options.timings.renewPeriodMs : this.#options.timings.retryPeriodMs)
      })
    }, delayMs)
  }

  async #tick(): Promise<void> {
    let holding: boolean
    try {
      holding = await this.#tryAcquireOrRenew()
    } catch (error) {
      this.#options.logger.warn({ lease: this.#leaseName(), error: describeKubeError(error) }, 'leader election: reading or writing the lease failed')
      holding = false
      // A leader keeps leading through short outages, until the renew deadline passes.
      if (this.#leader && this.#now() - this.#lastRenew < this.#options.timings.renewDeadlineMs) return
    }
    if (this.#stopped) {
      // Acquired while stopping: remember it, so stop() hands the lease back.
      if (holding) this.#leader = true
      return
    }
    if (holding) {
      this.#lastRenew = this.#now()
      if (!this.#leader) {
        this.#leader = true
        this.#options.logger.info({ lease: this.#leaseName(), identity: this.#options.identity }, 'became the leader')
        this.#options.onStartedLeading()
      }
    } else if (this.#leader) {
      this.#stepDown('lost the lease')
    }
  }

  #stepDown(why: string): void {
    this.#leader = false
    this.#options.logger.info({ lease: this.#leaseName(), identity: this.#options.identity, why }, 'stopped leading')
    this.#options.onStoppedLeading()
  }

  /** True when this replica holds the lease after the call. */
  async #tryAcquireOrRenew(): Promise<boolean> {
    const { api, namespace, name, identity } = this.#options
    const now = this.#now()
    let lease: V1Lease
    try {
      lease = await api.readNamespacedLease({ name, namespace })
    } catch (error) {
      if (!isNotFound(error)) throw error
      return this.#create(now)
    }
    const spec = lease.spec ?? {}
    const holder = spec.holderIdentity ?? ''
    this.#observe(lease, now)
    if (holder !== '' && holder !== identity && !this.#expired(spec.leaseDurationSeconds, now)) return false
    const taking = holder !== identity
    lease.spec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds: this.#leaseSeconds(),
      acquireTime: taking || !spec.acquireTime ? new V1MicroTime(now) : new V1MicroTime(timeOf(spec.acquireTime)),
      renewTime: new V1MicroTime(now),
      // As client-go counts them: every change of holder, a take-over after a release included.
      leaseTransitions: (spec.leaseTransitions ?? 0) + (taking ? 1 : 0),
    }
    try {
      await api.replaceNamespacedLease({ name, namespace, body: lease })
    } catch (error) {
      // Another replica wrote the lease since we read it: it won this round.
      if (isConflict(error)) return false
      throw error
    }
    return true
  }

  async #create(now: number): Promise<boolean> {
    const { api, namespace, name, identity } = this.#options
    try {
      await api.createNamespacedLease({
        namespace,
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name, namespace },
          spec: {
            holderIdentity: identity,
            leaseDurationSeconds: this.#leaseSeconds(),
            acquireTime: new V1MicroTime(now),
            renewTime: new V1MicroTime(now),
            leaseTransitions: 0,
          },
        },
      })
      return true
    } catch (error) {
      if (isConflict(error)) return false
      throw error
    }
  }

  /** Hands the lease back so the next replica need not wait for it to expire. */
  async #release(): Promise<void> {
    const { api, namespace, name, identity } = this.#options
    try {
      const lease = await api.readNamespacedLease({ name, namespace })
      if (lease.spec?.holderIdentity !== identity) return
      const now = new V1MicroTime(this.#now())
      lease.spec = { ...lease.spec, holderIdentity: undefined, leaseDurationSeconds: 1, renewTime: now, acquireTime: now }
      await api.replaceNamespacedLease({ name, namespace, body: lease })
      this.#options.logger.info({ lease: this.#leaseName(), identity }, 'released the lease')
    } catch (error) {
      // The lease then simply expires.
      this.#options.logger.warn({ lease: this.#leaseName(), error: describeKubeError(error) }, 'releasing the lease failed')
    }
  }

  #observe(lease: V1Lease, now: number): void {
    const spec = lease.spec ?? {}
    const key = JSON.stringify([spec.holderIdentity ?? '', String(spec.renewTime ?? ''), lease.metadata?.resourceVersion ?? ''])
    if (this.#observed?.key !== key) this.#observed = { key, at: now }
  }

  #expired(leaseDurationSeconds: number | undefined, now: number): boolean {
    const durationMs = (leaseDurationSeconds ?? this.#leaseSeconds()) * 1000
    return now >= (this.#observed?.at ?? now) + durationMs
  }

  #leaseSeconds(): number {
    return Math.max(1, Math.ceil(this.#options.timings.leaseDurationMs / 1000))
  }

  #leaseName(): string {
    return `${this.#options.namespace}/${this.#options.name}`
  }
}

/** Lease times come back as strings (the client does not parse MicroTime); accept either. */
function timeOf(value: unknown): number {
  if (value instanceof Date) return value.getTime()
  const parsed = Date.parse(String(value))
  return Number.isNaN(parsed) ? Date.now() : parsed
}
