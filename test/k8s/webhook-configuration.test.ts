import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DefinitionService } from '../../src/services/definition-service.js'
import { ControllerHarness, NO_LATEST_TAG, policyResource, readyOf, rulesetResource } from './controller-harness.js'
import type { Json } from './fake-kube-api.js'
import { waitFor } from './wait-for.js'
import { useTestDatabase } from '../support/databases.js'

const CHART_WEBHOOK = {
  name: 'validate.verdict.dev',
  clientConfig: { service: { name: 'verdict', namespace: 'verdict', path: '/validate', port: 9443 }, caBundle: 'LS0tLS1CRUdJTi0tLS0t' },
  namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'verdict'] }] },
  failurePolicy: 'Fail',
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  timeoutSeconds: 5,
  rules: [],
}

describe('the webhook configuration', () => {
  let harness: ControllerHarness

  // One store for the file, emptied for each test by ControllerHarness.start.
  const database = useTestDatabase('pglite')

  beforeEach(async () => {
    harness = await ControllerHarness.start(database.current)
  })
  afterEach(async () => {
    await harness.close()
  })

  const webhooks = (): Json[] => (harness.api.get('validatingwebhookconfigurations', 'verdict')?.webhooks ?? []) as Json[]
  const resources = (): string[] => ((webhooks()[0]?.rules ?? []) as { apiGroups: string[]; resources: string[]; operations: string[] }[]).flatMap((rule) => rule.resources.map((resource) => `${rule.apiGroups[0] || 'core'}/${resource} ${rule.operations.join(',')}`)).sort()

  it('registers what the admission policies match, follows their changes, and touches nothing but rules', async () => {
    const { api } = harness
    api.create('validatingwebhookconfigurations', { metadata: { name: 'verdict' }, webhooks: [CHART_WEBHOOK, { ...CHART_WEBHOOK, name: 'second.verdict.dev' }] })
    const leader = await harness.leader()
    api.create('rulesets', rulesetResource('pod-hygiene', { rules: [NO_LATEST_TAG] }))
    api.create('policies', policyResource('production', { rulesets: ['pod-hygiene'], action: 'Deny' }))
    await waitFor('pods registered', () => resources().includes('core/pods CREATE,UPDATE'))
    expect(resources()).toEqual(
      ['apps/daemonsets', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'batch/cronjobs', 'batch/jobs', 'core/pods', 'core/replicationcontrollers'].map((resource) => `${resource} CREATE,UPDATE`),
    )
    for (const webhook of webhooks()) {
      const { rules: _rules, name: _name, ...untouched } = webhook
      const { rules: _chartRules, name: _chartName, ...chart } = CHART_WEBHOOK
      expect(untouched).toEqual(chart)
      expect(webhook.rules).toEqual(webhooks()[0]?.rules)
    }

    // An API-made admission policy counts as well.
    const service = new DefinitionService(harness.db, leader.catalog)
    await service.createRuleset('services', { rules: [{ name: 'no-node-ports', match: { kinds: ['Service'], operations: ['CREATE'] }, validate: { cel: [{ expression: "object.spec.type != 'NodePort'" }] } }] }, { by: 'alice@example.com' })
    await service.createPolicy('networking', { rulesets: ['services'] }, { by: 'alice@example.com' })
    await waitFor('services registered', () => resources().includes('core/services CREATE'))

    // Not for admission: nothing is registered for it.
    api.update('policies', policyResource('production', { rulesets: ['pod-hygiene'], action: 'Deny', admission: false }))
    await service.deletePolicy('networking')
    await waitFor('no rules left', () => readyOf(api, 'policies', 'production')?.message === 'stored as version 2; applies 1 ruleset (pod-hygiene)' && webhooks()[0]?.rules !== undefined && resources().length === 0)
    await harness.settled(leader)
    expect(webhooks().map((webhook) => webhook.rules)).toEqual([[], []])
    const patches = api.requests.filter((request) => request.method === 'PATCH' && request.path.includes('validatingwebhookconfigurations'))
    expect(patches.every((request) => request.contentType === 'application/json-patch+json')).toBe(true)
  })

  it('puts the rules back when something else changed them', async () => {
    const { api } = harness
    api.create('validatingwebhookconfigurations', { metadata: { name: 'verdict' }, webhooks: [CHART_WEBHOOK] })
    api.create('rulesets', rulesetResource('pod-hygiene', { rules: [NO_LATEST_TAG] }))
    api.create('policies', policyResource('production', { rulesets: ['pod-hygiene'] }))
    const leader = await harness.leader('replica-a', { resyncMs: 200 })
    await waitFor('pods registered', () => resources().includes('core/pods CREATE,UPDATE'))
    // A helm upgrade rewrites the configuration with the chart's rules; the next resync repairs it.
    api.update('validatingwebhookconfigurations', { metadata: { name: 'verdict' }, webhooks: [CHART_WEBHOOK] })
    expect(resources()).toEqual([])
    await waitFor('pods registered again', () => resources().includes('core/pods CREATE,UPDATE'))
    await harness.settled(leader)
  })

  it('carries on without a webhook configuration', async () => {
    const leader = await harness.leader()
    harness.api.create('rulesets', rulesetResource('pod-hygiene', { rules: [NO_LATEST_TAG] }))
    harness.api.create('policies', policyResource('production', { rulesets: ['pod-hygiene'] }))
    await waitFor('Ready', () => readyOf(harness.api, 'policies', 'production')?.status === 'True')
    await harness.settled(leader)
    expect(leader.logger.lines.filter((line) => line.message.startsWith('the ValidatingWebhookConfiguration does not exist'))).toHaveLength(1)
  })
})
