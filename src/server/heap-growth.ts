import { setFlagsFromString } from 'node:v8'

/**
 * How far the old generation may grow past what the last full collection kept, in percent: 50,
 * a limit of 1.5 times the live heap.
 *
 * Left to itself V8 picks a factor between 1.1 and 4 from how fast the program allocates against
 * how fast it collects, so the same background scan peaks at very different sizes from one run to
 * the next: a scan of 100,000 Pods (bench:memory's) peaked at 221 to 393 MiB of RSS with 70 to 90
 * MB live, most of it garbage waiting for a collection that the factor kept putting off. At 1.5
 * the same scan peaked at 225-227 MiB (at 1.25: 207; at 2: 274) and took as long; REST load at
 * 1,000/s after it peaked at 246 MiB instead of 418, and REST and admission load kept their CPU per
 * request: a full collection of this heap costs 10-25 ms, and with the limit nearer it runs every
 * few seconds of a scan instead of every dozen.
 */
export const HEAP_GROWING_PERCENT = 50

/**
 * Fixes V8's heap growing factor for this process, unless its command line already sets one (a
 * deliberate choice wins). A run-time flag: NODE_OPTIONS does not carry this V8 option, and the
 * image starts `node dist/src/cli.js` without V8 flags. V8 reads it each time it sets the next
 * collection's limit, so setting it after start takes effect from the next full collection on.
 */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT, execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((argument) => /^--heap[-_]growing[-_]percent\b/.test(argument))) return
  setFlagsFromString(`--heap-growing-percent=${percent}`)
}
