/** Median wall time in milliseconds of `runs` calls (an even number), after `warmup` untimed ones. */
export async function medianMs(run: () => Promise<unknown>, options: { runs: number; warmup: number }): Promise<number> {
  for (let i = 0; i < options.warmup; i += 1) await run()
  const times: number[] = []
  for (let i = 0; i < options.runs; i += 1) times.push(await timed(run))
  times.sort((a, b) => a - b)
  return ((times[options.runs / 2 - 1] ?? 0) + (times[options.runs / 2] ?? 0)) / 2
}

/** Milliseconds as the benchmarks print them. */
export function fmt(ms: number): string {
  return ms.toFixed(1)
}

/** Wall time of one call, in milliseconds. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}
