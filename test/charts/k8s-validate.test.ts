import { describe, expect, it } from 'vitest'
import type { K8sObject } from './chart-render.js'
import { validateObject } from './k8s-validate.js'

const deployment = (spec: Record<string, unknown>): K8sObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec })
const template = (container: Record<string, unknown>) => ({
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', ...container }] } },
})

/** The chart tests trust this validator; it must find what the API server would refuse or drop. */
describe('validateObject', () => {
  it('accepts a valid object', async () => {
    expect(await validateObject(deployment(template({ ports: [{ containerPort: 80 }] })))).toEqual([])
  })

  it('finds wrong types and missing required fields', async () => {
    expect((await validateObject(deployment({ ...template({}), replicas: 'three' }))).join('\n')).toMatch(/replicas/)
    expect((await validateObject(deployment({ selector: {} }))).join('\n')).toMatch(/template/)
  })

  it('finds unknown (misspelt) fields at any depth', async () => {
    expect(await validateObject(deployment(template({ securtyContext: { privileged: false } })))).toEqual([
      'Deployment web: unknown field spec.template.spec.containers[0].securtyContext',
    ])
  })

  it('checks the shape of objects of other APIs', async () => {
    const certificate: K8sObject = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'Bad_Name' } }
    expect(await validateObject(certificate)).toEqual(['Certificate Bad_Name: bad metadata.name "Bad_Name"'])
  })
})
