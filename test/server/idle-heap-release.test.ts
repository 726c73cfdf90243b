import { afterEach, describe, expect, it } from 'vitest'
import { startIdleHeapRelease, type HeapReleaseReport, type IdleHeapRelease } from '../../src/server/idle-heap-release.js'

const MIB = 1024 * 1024

/** A process whose RSS and event-loop utilisation the test sets, and whose collections it counts. */
function fakeProcess(): { rss: number; utilization: number; collections: number; afterCollection: number } {
  return { rss: 100 * MIB, utilization: 0, collections: 0, afterCollection: 100 * MIB }
}

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Makes `count` objects that nothing keeps once this returns, and the heap in use while they were alive. */
function heapUsedAfterGarbage(count: number): number {
  const garbage = Array.from({ length: count }, (_, i) => ({ i, text: `garbage ${i}` }))
  const used = process.memoryUsage().heapUsed
  // Read after the measure, so the objects are alive when it is taken.
  return garbage.length === count ? used : Number.NaN
}

describe('startIdleHeapRelease', () => {
  let running: IdleHeapRelease | undefined
  afterEach(() => running?.stop())

  function start(state: ReturnType<typeof fakeProcess>, reports: HeapReleaseReport[]): void {
    running = startIdleHeapRelease({
      checkEveryMs: 5,
      quietChecks: 2,
      minGrowthBytes: 24 * MIB,
      rss: () => state.rss,
      utilization: () => state.utilization,
      collect: () => {
        state.collections++
        state.rss = state.afterCollection
      },
      onRelease: (report) => reports.push(report),
    })
  }

  it('returns memory once after a burst, when the process has gone quiet, and not again until RSS grows again', async () => {
    const state = fakeProcess()
    const reports: HeapReleaseReport[] = []
    start(state, reports)
    // The burst: RSS up, the loop busy.
    state.rss = 180 * MIB
    state.utilization = 0.9
    await tick(40)
    expect(state.collections).toBe(0)
    // Quiet again: one collection, then none while RSS stays where it fell.
    state.utilization = 0.01
    state.afterCollection = 120 * MIB
    await tick(60)
    expect(state.collections).toBe(1)
    expect(reports[0]).toMatchObject({ rssBefore: 180 * MIB, rssAfter: 120 * MIB })
    // Growth under the threshold since the last return: nothing.
    state.rss = 130 * MIB
    await tick(40)
    expect(state.collections).toBe(1)
    // A new burst past it: one more.
    state.rss = 150 * MIB
    await tick(40)
    expect(state.collections).toBe(2)
  })

  it('leaves a process alone that grew less than the threshold, or that never goes quiet', async () => {
    const small = fakeProcess()
    start(small, [])
    small.rss = 110 * MIB
    await tick(40)
    expect(small.collections).toBe(0)
    running?.stop()

    const busy = fakeProcess()
    start(busy, [])
    busy.rss = 300 * MIB
    busy.utilization = 0.5
    await tick(40)
    expect(busy.collections).toBe(0)
  })

  it('measures growth from the lowest level seen, so memory a collection gave back on its own is not counted as growth', async () => {
    const state = fakeProcess()
    start(state, [])
    state.utilization = 0.01
    state.rss = 80 * MIB
    await tick(20)
    state.rss = 100 * MIB
    await tick(40)
    expect(state.collections).toBe(0)
    state.rss = 110 * MIB
    await tick(40)
    expect(state.collections).toBe(1)
  })

  it('collects for real with the last-resort collection: the garbage of a burst goes', async () => {
    const withGarbage = heapUsedAfterGarbage(200_000)
    const reports: HeapReleaseReport[] = []
    // Every look counts and any level is enough: the first look collects, with the real RSS and collector.
    running = startIdleHeapRelease({ checkEveryMs: 5, quietChecks: 0, minGrowthBytes: 0, onRelease: (report) => reports.push(report) })
    while (reports.length === 0) await tick(5)
    running.stop()
    expect(process.memoryUsage().heapUsed).toBeLessThan(withGarbage)
    expect(reports[0]?.ms).toBeGreaterThan(0)
  })
})
