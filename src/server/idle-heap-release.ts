import { performance, type EventLoopUtilization } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export interface HeapReleaseReport {
  rssBefore: number
  rssAfter: number
  ms: number
}

export interface IdleHeapReleaseOptions {
  /** How often the process is looked at; default 5 s. */
  checkEveryMs?: number
  /** Quiet looks in a row before memory is returned; default 2 (10 s without work). */
  quietChecks?: number
  /** Event-loop utilisation below which a look counts as quiet; default 0.05. */
  quietUtilization?: number
  /** RSS growth, in bytes, since the start or the last return that is worth one; default 24 MiB. */
  minGrowthBytes?: number
  onRelease?: (report: HeapReleaseReport) => void
  /** The process's resident set in bytes; tests pass their own. */
  rss?: () => number
  /** Event-loop utilisation since the previous reading; tests pass their own. */
  utilization?: () => number
  /** The full collection that returns memory; tests pass their own. */
  collect?: () => void
}

export interface IdleHeapRelease {
  stop(): void
}

/**
 * Gives back what a burst took once the process is quiet again. After a load or a background scan
 * V8 keeps the pages it freed in a pool, still resident, and an idle process never collects again:
 * V8's memory reducer judges the allocation rate from collections, and with no collection it keeps
 * finding it high. So a service that peaked at 225-265 MiB under REST and admission load stayed
 * there for good. When the event loop has been nearly idle for `quietChecks` looks in a row and RSS
 * has grown by `minGrowthBytes` since the last return, one last-resort full collection (what V8
 * does under memory pressure) returns the garbage and the pooled pages: 20-65 MiB, in one pause of
 * 90-210 ms with 60-90 MB of heap (compaction may first take a few MiB more). It runs once per
 * burst: RSS must grow again before the next one. Timers are unref'd.
 */
export function startIdleHeapRelease(options: IdleHeapReleaseOptions = {}): IdleHeapRelease {
  const checkEveryMs = options.checkEveryMs ?? 5000
  const quietChecks = options.quietChecks ?? 2
  const quietUtilization = options.quietUtilization ?? 0.05
  const minGrowthBytes = options.minGrowthBytes ?? 24 * 1024 * 1024
  const rss = options.rss ?? (() => process.memoryUsage.rss())
  const utilization = options.utilization ?? utilizationSincePrevious()
  const collect = options.collect ?? lastResortCollector()
  let floor = rss()
  let quiet = 0
  const timer = setInterval(() => {
    quiet = utilization() < quietUtilization ? quiet + 1 : 0
    const before = rss()
    // The level may also fall on its own (a collection during the burst's tail): follow it down.
    if (before < floor) floor = before
    if (quiet < quietChecks || before - floor < minGrowthBytes) return
    const started = performance.now()
    collect()
    const ms = performance.now() - started
    floor = rss()
    quiet = 0
    options.onRelease?.({ rssBefore: before, rssAfter: floor, ms })
  }, checkEveryMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

function utilizationSincePrevious(): () => number {
  let previous: EventLoopUtilization = performance.eventLoopUtilization()
  return () => {
    const current = performance.eventLoopUtilization()
    const { utilization } = performance.eventLoopUtilization(current, previous)
    previous = current
    return utilization
  }
}

/**
 * V8's last-resort collection (repeated full collections, then the pooled pages released), through
 * the `gc` function of --expose-gc: the process's own when it was started with the flag, else one
 * exposed now to a new context only (the flag applies to contexts made after it is set, so the main
 * context keeps no `gc` global).
 */
function lastResortCollector(): () => void {
  let gc = globalThis.gc
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as NodeJS.GCFunction
  }
  const collector = gc
  return () => collector({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}
