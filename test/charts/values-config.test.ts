import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHART_CONFIG_BEGIN, CHART_CONFIG_END, formatChartConfigValues } from '../../src/chart-config-values.js'
import { SETTINGS } from '../../src/config.js'
import { repoRoot } from '../commands/run-cli.js'

const VALUES = join(repoRoot, 'charts', 'verdict', 'values.yaml')
const DEPLOYMENT = join(repoRoot, 'charts', 'verdict', 'templates', 'deployment.yaml')

/** The generated block of values.yaml and the keys it sets. */
function generatedBlock(text: string): { block: string; keys: string[] } {
  const begin = text.indexOf(CHART_CONFIG_BEGIN)
  const end = text.indexOf(CHART_CONFIG_END)
  expect(begin, 'values.yaml has the generated config block').toBeGreaterThanOrEqual(0)
  expect(end).toBeGreaterThan(begin)
  const block = text.slice(begin, end + CHART_CONFIG_END.length)
  const keys = [...block.matchAll(/^ {2}([A-Za-z][A-Za-z0-9]*):/gm)].map((match) => match[1] as string)
  return { block, keys }
}

describe("the chart's config values", () => {
  it('carry each setting’s description and default from src/config.ts', () => {
    const text = readFileSync(VALUES, 'utf8')
    const { block, keys } = generatedBlock(text)
    const expected = formatChartConfigValues(keys)
    if (process.env.UPDATE_VALUES === '1' && block !== expected) writeFileSync(VALUES, text.replace(block, expected))
    else expect(block).toBe(expected)
  })

  it('each reach the service as the environment variable of their setting', () => {
    const { keys } = generatedBlock(readFileSync(VALUES, 'utf8'))
    const deployment = readFileSync(DEPLOYMENT, 'utf8')
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      const name = SETTINGS.find((setting) => setting.key === key)?.name
      expect(deployment, `config.${key}`).toMatch(new RegExp(`- name: ${name}\\n\\s+value: \\{\\{[^}]*\\.Values\\.config\\.${key}\\b`))
    }
  })

  it('refuses a key that is no setting, and a setting without a default', () => {
    expect(() => formatChartConfigValues(['noSuchSetting'])).toThrow('config.noSuchSetting in values.yaml is not a setting of src/config.ts')
    expect(() => formatChartConfigValues(['databaseUrl'])).toThrow(/config.databaseUrl: /)
  })
})
