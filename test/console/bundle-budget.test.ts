import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

const CONSOLE = join(import.meta.dirname, '..', '..', 'dist', 'console')
/** The budget for the first screen's JavaScript, gzipped. */
const FIRST_SCREEN_BUDGET = 150 * 1024

describe('the console build', () => {
  it('keeps the JavaScript the first screen loads under 150 KB gzipped, as built (a size, not a time)', () => {
    const html = readFileSync(join(CONSOLE, 'index.html'), 'utf8')
    const scripts = [...html.matchAll(/<script[^>]*src="\/ui\/([^"]+)"/g)].map((match) => match[1] as string)
    expect(scripts.length).toBeGreaterThan(0)
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(CONSOLE, file))).length, 0)
    expect(gzipped).toBeLessThan(FIRST_SCREEN_BUDGET)
    // The manifest the build prints from says the same.
    const manifest = JSON.parse(readFileSync(join(CONSOLE, 'build-manifest.json'), 'utf8')) as { js: { file: string; gzipBytes: number } }
    expect(scripts).toContain(manifest.js.file)
  })
})
