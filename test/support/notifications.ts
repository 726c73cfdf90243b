import type { Db } from '../../src/store/db.js'

export interface NotificationInbox {
  /** Resolves with the next payload received (or one already waiting). */
  next(): Promise<string>
  /** Payloads received and not yet taken by next(). */
  readonly pending: string[]
  stop(): Promise<void>
}

/**
 * Subscribes to a channel and lets a test wait for the notification itself rather than sleep.
 * `next()` is bounded by the test timeout.
 */
export async function listenInbox(db: Db, channel: string, options: { onReconnect?: () => void } = {}): Promise<NotificationInbox> {
  const pending: string[] = []
  const waiters: Array<(payload: string) => void> = []
  const stop = await db.listen(
    channel,
    (payload) => {
      const waiter = waiters.shift()
      if (waiter) waiter(payload)
      else pending.push(payload)
    },
    options,
  )
  return {
    pending,
    next() {
      const ready = pending.shift()
      if (ready !== undefined) return Promise.resolve(ready)
      return new Promise<string>((resolve) => waiters.push(resolve))
    },
    stop,
  }
}
