import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { formatCatalogMarkdown } from '../src/authoring/catalog/catalog-table.js'
import { formatSettingsMarkdown } from '../src/config.js'

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8')

describe('README', () => {
  it('carries the settings table generated from the one list of settings', () => {
    expect(readme).toContain(formatSettingsMarkdown().trimEnd())
  })

  it('carries the table of instruction templates generated from the catalog', () => {
    expect(readme).toContain(formatCatalogMarkdown().trimEnd())
  })

  it('shows the two set-up commands', () => {
    expect(readme).toContain('make run')
    expect(readme).toContain('make test')
  })
})
