import pg from 'pg'
import type { ListenOptions } from './db.js'
import { mapPostgresError } from './postgres-errors.js'

interface Subscriber {
  onNotify: (payload: string) => void
  options: ListenOptions
}

const FIRST_RETRY_MS = 100
const MAX_RETRY_MS = 5_000

/**
 * LISTEN needs a session of its own: pooled connections are handed to other queries between
 * uses. This keeps one dedicated connection, re-opens it with backoff when it drops and
 * subscribes again to every channel, then tells subscribers they may have missed notifications.
 */
export class PostgresListener {
  readonly #config: pg.ClientConfig
  readonly #onError: (error: unknown) => void
  readonly #channels = new Map<string, Set<Subscriber>>()
  /** Channels LISTENed on the current connection. */
  readonly #listening = new Set<string>()
  #client: pg.Client | undefined
  #connecting: Promise<void> | undefined
  #retryTimer: NodeJS.Timeout | undefined
  #retryMs = FIRST_RETRY_MS
  /** Serialises LISTEN/UNLISTEN so the set of channels on the connection never races. */
  #syncing: Promise<void> = Promise.resolve()
  #closed = false

  constructor(config: pg.ClientConfig, onError: (error: unknown) => void) {
    this.#config = config
    this.#onError = onError
  }

  async subscribe(channel: string, onNotify: (payload: string) => void, options: ListenOptions = {}): Promise<() => Promise<void>> {
    const subscriber: Subscriber = { onNotify, options }
    const subscribers = this.#channels.get(channel) ?? new Set<Subscriber>()
    subscribers.add(subscriber)
    this.#channels.set(channel, subscribers)
    try {
      // The first subscription must fail loudly when the server is unreachable; later ones ride on
      // the reconnect loop, which announces itself through onReconnect.
      if (!this.#client && !this.#retryTimer) await (this.#connecting ??= this.#connect())
      await this.#sync()
    } catch (error) {
      this.#remove(channel, subscriber)
      throw mapPostgresError(error)
    }
    return async () => {
      this.#remove(channel, subscriber)
      await this.#sync().catch(this.#onError)
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#retryTimer)
    this.#retryTimer = undefined
    await this.#connecting?.catch(() => {})
    const client = this.#client
    this.#client = undefined
    this.#listening.clear()
    await client?.end().catch(() => {})
  }

  #remove(channel: string, subscriber: Subscriber): void {
    const subscribers = this.#channels.get(channel)
    subscribers?.delete(subscriber)
    if (subscribers?.size === 0) this.#channels.delete(channel)
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ ...this.#config, application_name: 'verdict-listener', keepAlive: true })
    client.on('notification', (message) => this.#deliver(message.channel, message.payload ?? ''))
    client.on('error', (error) => this.#lost(client, error))
    client.on('end', () => this.#lost(client, undefined))
    try {
      await client.connect()
    } catch (error) {
      client.removeAllListeners('end')
      await client.end().catch(() => {})
      throw error
    } finally {
      this.#connecting = undefined
    }
    if (this.#closed) {
      await client.end().catch(() => {})
      return
    }
    this.#client = client
    this.#listening.clear()
    this.#retryMs = FIRST_RETRY_MS
  }

  #sync(): Promise<void> {
    const run = this.#syncing.then(async () => {
      const client = this.#client
      if (!client) return
      for (const channel of this.#channels.keys()) {
        if (this.#listening.has(channel)) continue
        await client.query(`LISTEN ${client.escapeIdentifier(channel)}`)
        this.#listening.add(channel)
      }
      for (const channel of [...this.#listening]) {
        if (this.#channels.has(channel)) continue
        await client.query(`UNLISTEN ${client.escapeIdentifier(channel)}`)
        this.#listening.delete(channel)
      }
    })
    // The chain must survive a failed step; the caller still sees its own failure.
    this.#syncing = run.catch(() => {})
    return run
  }

  #deliver(channel: string, payload: string): void {
    for (const subscriber of this.#channels.get(channel) ?? []) {
      try {
        subscriber.onNotify(payload)
      } catch (error) {
        this.#onError(error)
      }
    }
  }

  #lost(client: pg.Client, error: Error | undefined): void {
    if (this.#client !== client) return
    this.#client = undefined
    this.#listening.clear()
    if (error) this.#onError(mapPostgresError(error))
    client.end().catch(() => {})
    this.#scheduleReconnect()
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retryTimer) return
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined
      this.#reconnect().catch(() => {})
    }, this.#retryMs)
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS)
  }

  async #reconnect(): Promise<void> {
    try {
      await (this.#connecting ??= this.#connect())
      await this.#sync()
    } catch (error) {
      this.#onError(mapPostgresError(error))
      const client = this.#client
      this.#client = undefined
      this.#listening.clear()
      await client?.end().catch(() => {})
      this.#scheduleReconnect()
      return
    }
    if (this.#closed) return
    for (const subscribers of this.#channels.values()) {
      for (const subscriber of subscribers) {
        try {
          subscriber.options.onReconnect?.()
        } catch (error) {
          this.#onError(error)
        }
      }
    }
  }
}
