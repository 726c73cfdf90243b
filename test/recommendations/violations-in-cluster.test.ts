import { describe, expect, it } from 'vitest'
import type { Policy } from '../../src/engine/index.js'
import { VIOLATIONS_IN_CLUSTER_LISTED, violationsInCluster } from '../../src/recommendations/violations-in-cluster.js'

const policies: Policy[] = [
  { name: 'pss', rulesets: ['pss'], action: 'Audit' },
  { name: 'labels', rulesets: ['labels'], action: 'Deny' },
  { name: 'clean', rulesets: ['clean'] },
  { name: 'never-scanned', rulesets: ['x'] },
]

describe('violations-in-cluster', () => {
  it('names the policies existing objects fail, most failing first, with the worst objects', () => {
    const worst = Array.from({ length: 12 }, (_, i) => `v1/Pod/shop/web-${i}`)
    const cluster = new Map([
      ['pss', { scanned: 300, failing: 12, worst }],
      ['labels', { scanned: 300, failing: 40, worst: ['apps/v1/Deployment/shop/api'] }],
      ['clean', { scanned: 300, failing: 0, worst: [] }],
    ])
    expect(violationsInCluster(policies, cluster)).toEqual([
      {
        id: 'violations-in-cluster:labels',
        type: 'violations-in-cluster',
        target: { kind: 'policy', name: 'labels' },
        message: '40 existing objects of 300 fail policy "labels" (action Deny); each will be refused at its next update. Worst first: apps/v1/Deployment/shop/api.',
        evidence: { action: 'Deny', failing: 40, scanned: 300, objects: ['apps/v1/Deployment/shop/api'] },
      },
      {
        id: 'violations-in-cluster:pss',
        type: 'violations-in-cluster',
        target: { kind: 'policy', name: 'pss' },
        message: `12 existing objects of 300 fail policy "pss" (action Audit); as a Deny policy it would refuse each at its next update. Worst first: ${worst.slice(0, VIOLATIONS_IN_CLUSTER_LISTED).join(', ')}.`,
        evidence: { action: 'Audit', failing: 12, scanned: 300, objects: worst.slice(0, VIOLATIONS_IN_CLUSTER_LISTED) },
      },
    ])
  })

  it('finds nothing before any scan', () => {
    expect(violationsInCluster(policies, new Map())).toEqual([])
  })
})
