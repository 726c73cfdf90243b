import { describe, expect, it } from 'vitest'
import type { Policy, Ruleset } from '../../../src/engine/index.js'
import { listPath, scanTargets } from '../../../src/scan/background/scan-targets.js'

const podRules: Ruleset = { name: 'pods', rules: [{ name: 'r', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: 'true' }] } }] }
const widgets: Ruleset = {
  name: 'widgets',
  rules: [
    { name: 'known', match: { kinds: ['example.com/v1/Widget'] }, validate: { cel: [{ expression: 'true' }] } },
    { name: 'unknown', match: { kinds: ['example.com/Gadget'] }, validate: { cel: [{ expression: 'true' }] } },
  ],
}

describe('scanTargets', () => {
  it('lists the kinds the background policies match, autogen controllers included, at their served versions', () => {
    const policies: Policy[] = [{ name: 'p', rulesets: ['pods'], action: 'Deny' }]
    const { targets, unlistable } = scanTargets(policies, [podRules])
    expect(targets.map(listPath).sort()).toEqual([
      '/api/v1/pods',
      '/api/v1/replicationcontrollers',
      '/apis/apps/v1/daemonsets',
      '/apis/apps/v1/deployments',
      '/apis/apps/v1/replicasets',
      '/apis/apps/v1/statefulsets',
      '/apis/batch/v1/cronjobs',
      '/apis/batch/v1/jobs',
    ])
    expect(unlistable).toEqual([])
  })

  it('leaves out policies with background: false, whatever their admission setting', () => {
    expect(scanTargets([{ name: 'p', rulesets: ['pods'], background: false }], [podRules]).targets).toEqual([])
    expect(scanTargets([{ name: 'p', rulesets: ['pods'], admission: false }], [podRules]).targets.length).toBe(8)
  })

  it('lists a custom resource only when its version is named, and says why not otherwise', () => {
    const { targets, unlistable } = scanTargets([{ name: 'p', rulesets: ['widgets'] }], [widgets])
    expect(targets).toEqual([{ group: 'example.com', version: 'v1', resource: 'widgets' }])
    expect(unlistable).toEqual([{ group: 'example.com', resource: 'gadgets', reason: 'a custom resource whose API version the policy does not name (write group/version/Kind)' }])
  })
})
