import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { INSTALL_MANIFEST, only, parseObjects, renderInstallManifest, type K8sObject } from './chart-render.js'
import { validateObject } from './k8s-validate.js'

/**
 * manifests/install.yaml is the chart rendered with charts/verdict/ci/install-values.yaml, which leaves
 * nothing to Helm's random generators (cert-manager issues the certificate, Verdict makes the first
 * admin token), so the file is byte-for-byte reproducible and nothing in it is ignored by this check.
 * UPDATE_MANIFESTS=1 rewrites it.
 */
let expected = ''

beforeAll(async () => {
  expected = await renderInstallManifest()
  if (process.env.UPDATE_MANIFESTS === '1') writeFileSync(INSTALL_MANIFEST, expected)
})

describe('manifests/install.yaml', () => {
  it('is the current render of the chart', () => {
    expect(existsSync(INSTALL_MANIFEST), 'manifests/install.yaml is missing').toBe(true)
    const actual = readFileSync(INSTALL_MANIFEST, 'utf8')
    if (actual !== expected) {
      // A readable failure: the first line that differs, and how to bring the file up to date.
      const actualLines = actual.split('\n')
      const expectedLines = expected.split('\n')
      const line = expectedLines.findIndex((text, index) => actualLines[index] !== text)
      expect.fail(
        `manifests/install.yaml is stale (first difference at line ${line + 1}: ${JSON.stringify(actualLines[line])} should be ${JSON.stringify(expectedLines[line])}).\n` +
          'Regenerate it: UPDATE_MANIFESTS=1 npx vitest run test/charts/install-manifest.test.ts',
      )
    }
  })

  it('renders the same twice: nothing random in it', async () => {
    expect(await renderInstallManifest()).toBe(expected)
  })

  it('holds valid objects, a restricted Namespace first, and no generated secret', async () => {
    const objects = parseObjects(expected)
    expect(objects[0]).toMatchObject({ kind: 'Namespace', metadata: { name: 'verdict', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } })
    const problems = (await Promise.all(objects.map((object) => validateObject(object)))).flat()
    expect(problems).toEqual([])
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([])
    expect(expected).not.toMatch(/caBundle:|BEGIN (RSA )?PRIVATE KEY|vdt_/)
    const webhook = only<K8sObject & { webhooks: { failurePolicy: string }[] }>(objects, 'ValidatingWebhookConfiguration')
    expect(webhook.metadata.annotations?.['cert-manager.io/inject-ca-from']).toBe('verdict/verdict-webhook')
    expect(webhook.webhooks[0]?.failurePolicy).toBe('Ignore')
  })
})
