import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** test/fixtures/scan: manifests, policies and the vendored SARIF schema. */
export const scanFixtures = join(dirname(dirname(fileURLToPath(import.meta.url))), 'fixtures', 'scan')

export function scanFixture(path: string): string {
  return join(scanFixtures, path)
}
