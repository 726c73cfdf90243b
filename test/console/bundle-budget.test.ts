import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

const CONSOLE = join(import.meta.dirname, '..', '..', 'dist', 'console')
/** The budget for the first screen's JavaScript, gzipped. */
const FIRST_SCREEN_BUDGET = 150 * 1024

/** The scripts a page loads before it can draw: those index.html names, and what they import statically (not `import()`). */
function firstScreenScripts(): string[] {
  const html = readFileSync(join(CONSOLE, 'index.html'), 'utf8')
  const pending = [...html.matchAll(/<script[^>]*src="\/ui\/([^"]+)"/g)].map((match) => match[1] as string)
  const seen = new Set<string>()
  while (pending.length > 0) {
    const file = pending.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    const code = readFileSync(join(CONSOLE, file), 'utf8')
    // Minified static imports: `import{a as b}from"./chunk-X.js"` or `import"./chunk-X.js"`; `import("./chunk-X.js")` loads later.
    for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) pending.push(`assets/${match[1]}`)
  }
  return [...seen]
}

describe('the console build', () => {
  it('keeps the JavaScript the first screen loads under 150 KB gzipped, as built (a size, not a time)', () => {
    const scripts = firstScreenScripts()
    expect(scripts.length).toBeGreaterThan(0)
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(CONSOLE, file))).length, 0)
    expect(gzipped).toBeLessThan(FIRST_SCREEN_BUDGET)
  })

  it('loads the chart library only when a chart is shown: a chunk the first screen does not import', () => {
    const manifest = JSON.parse(readFileSync(join(CONSOLE, 'build-manifest.json'), 'utf8')) as { entry: { file: string }; chunks: { file: string }[] }
    expect(manifest.chunks.length).toBeGreaterThan(0)
    const first = firstScreenScripts()
    expect(first).toContain(manifest.entry.file)
    const charts = manifest.chunks.filter((chunk) => readFileSync(join(CONSOLE, chunk.file), 'utf8').includes('u-legend'))
    expect(charts.length).toBe(1)
    expect(first).not.toContain(charts[0]?.file)
  })
})
