import { SETTINGS, type SettingDescription } from './config.js'

/** The lines that fence the part of the chart's values.yaml written from the settings list. */
export const CHART_CONFIG_BEGIN = '  # BEGIN generated from src/config.ts (UPDATE_VALUES=1 npx vitest run test/charts/values-config.test.ts)'
export const CHART_CONFIG_END = '  # END generated from src/config.ts'

const WIDTH = 100

/**
 * The `config:` values of the chart for the settings with these keys: each setting's own
 * description and default, as `verdict serve --help` and docs/configuration.md give them, so the
 * chart's comments cannot drift from what the service does.
 */
export function formatChartConfigValues(keys: readonly string[]): string {
  const lines = [CHART_CONFIG_BEGIN]
  for (const key of keys) {
    const setting = settingOf(key)
    lines.push(...commentLines(`${capitalized(setting.description)} (${setting.name}).`))
    lines.push(`  ${setting.key}: ${yamlScalar(setting.default ?? '')}`)
  }
  lines.push(CHART_CONFIG_END)
  return lines.join('\n')
}

function settingOf(key: string): SettingDescription {
  const setting = SETTINGS.find((entry) => entry.key === key)
  if (!setting) throw new Error(`config.${key} in values.yaml is not a setting of src/config.ts`)
  if (setting.default === undefined) throw new Error(`config.${key}: the setting has no default to give the chart`)
  if (setting.secret) throw new Error(`config.${key}: a secret setting belongs in a Secret, not in values.yaml`)
  return setting
}

function commentLines(text: string): string[] {
  const lines: string[] = []
  let line = '  #'
  for (const word of text.split(/\s+/)) {
    if (line.length > 3 && line.length + 1 + word.length > WIDTH) {
      lines.push(line)
      line = '  #'
    }
    line += ` ${word}`
  }
  lines.push(line)
  return lines
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** Plain when YAML reads it back as the same text or number, else JSON-quoted (a valid YAML string). */
function yamlScalar(value: string): string {
  const plain = /^[A-Za-z0-9][A-Za-z0-9._/=-]*$/.test(value) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(value)
  return plain ? value : JSON.stringify(value)
}
