import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { formatCatalogMarkdown } from '../src/authoring/catalog/catalog-table.js'
import { formatSettingsMarkdown } from '../src/config.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const read = (page: string): string => readFileSync(join(root, page), 'utf8')

/**
 * The text between `<!-- name:begin -->` and `<!-- name:end -->` of a page, which must be exactly the
 * generated table. UPDATE_DOCS=1 rewrites it from the code instead of checking it.
 */
function generatedSection(page: string, name: string, generated: string): { found: string; expected: string } {
  const text = read(page)
  const begin = `<!-- ${name}:begin -->\n`
  const end = `<!-- ${name}:end -->`
  const start = text.indexOf(begin)
  const stop = text.indexOf(end, start)
  if (start < 0 || stop < 0) throw new Error(`${page} lacks the markers ${begin.trim()} ... ${end}`)
  const expected = `${generated.trimEnd()}\n`
  if (process.env.UPDATE_DOCS === '1') writeFileSync(join(root, page), text.slice(0, start + begin.length) + expected + text.slice(stop))
  return { found: read(page).slice(start + begin.length, read(page).indexOf(end, start)), expected }
}

describe('generated documentation', () => {
  it('docs/configuration.md carries the settings table generated from the one list of settings', () => {
    const { found, expected } = generatedSection('docs/configuration.md', 'settings', formatSettingsMarkdown())
    expect(found, 'run UPDATE_DOCS=1 npx vitest run test/readme.test.ts').toBe(expected)
  })

  it('docs/authoring.md carries the table of instruction templates generated from the catalog', () => {
    const { found, expected } = generatedSection('docs/authoring.md', 'catalog', formatCatalogMarkdown())
    expect(found, 'run UPDATE_DOCS=1 npx vitest run test/readme.test.ts').toBe(expected)
  })
})

describe('README', () => {
  it('shows the two set-up commands', () => {
    const readme = read('README.md')
    expect(readme).toContain('make run')
    expect(readme).toContain('make test')
  })

  it('stays a front door of at most 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250)
  })
})
