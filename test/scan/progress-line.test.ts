import { describe, expect, it } from 'vitest'
import { ProgressLine } from '../../src/scan/progress-line.js'

function terminal(isTTY: boolean): { isTTY: boolean; written: string[]; write(text: string): boolean } {
  const written: string[] = []
  return { isTTY, written, write: (text) => written.push(text) > 0 }
}

describe('ProgressLine', () => {
  it('redraws "scanned N objects…" in place on a terminal for a long input, at most once an interval, and erases it at the end', () => {
    let now = 0
    const stream = terminal(true)
    const progress = new ProgressLine(stream, 201, { intervalMs: 100, now: () => now })
    progress.update(1)
    now = 100
    progress.update(2)
    now = 150
    progress.update(3)
    now = 200
    progress.update(4)
    progress.finish()
    progress.finish()
    expect(stream.written).toEqual(['\rscanned 2 objects…', '\rscanned 4 objects…', '\r\u001b[2K'])
  })

  it('shows the count of a scan whose total is not known once it outlasts one interval, however few objects it has read', () => {
    let now = 0
    const stream = terminal(true)
    const progress = new ProgressLine(stream, undefined, { intervalMs: 100, now: () => now })
    progress.update(3)
    now = 100
    progress.update(7)
    progress.finish()
    expect(stream.written).toEqual(['\rscanned 7 objects…', '\r\u001b[2K'])
    const quiet = terminal(false)
    new ProgressLine(quiet, undefined, { intervalMs: -1 }).update(1)
    expect(quiet.written).toEqual([])
  })

  it('writes nothing when the stream is not a terminal, or the input is short', () => {
    for (const [isTTY, total] of [[false, 10_000], [true, 200]] as const) {
      const stream = terminal(isTTY)
      const progress = new ProgressLine(stream, total, { intervalMs: -1 })
      for (let done = 1; done <= total; done += 1) progress.update(done)
      progress.finish()
      expect(stream.written).toEqual([])
    }
  })
})
