import { describe, expect, it } from 'vitest'
import type { Policy, Rule, Ruleset } from '../../src/engine/index.js'
import { pluralOf } from '../../src/k8s/kind-resources.js'
import { webhookRules, type WebhookRule } from '../../src/k8s/webhook-rules.js'

const cel = { cel: [{ expression: 'true' }] }

function ruleset(name: string, rules: Partial<Rule>[], labels: Record<string, string> = {}): Ruleset {
  return { name, labels, rules: rules.map((rule, index) => ({ name: `r${index}`, validate: cel, ...rule })) }
}

/** The rules as "operations group/version resource" lines, easy to read in a failure. */
function lines(rules: WebhookRule[]): string[] {
  return rules.flatMap((rule) =>
    rule.apiGroups.flatMap((group) => rule.apiVersions.flatMap((version) => rule.resources.map((resource) => `${rule.operations.join(',')} ${group || 'core'}/${version} ${resource}`))),
  )
}

describe('webhook rules from admission policies', () => {
  it('registers nothing when no policy can match anything', () => {
    expect(webhookRules([], [])).toEqual([])
    const rulesets = [ruleset('pods', [{ match: { kinds: ['Service'] } }])]
    expect(webhookRules([{ name: 'audit-only', rulesets: ['pods'], admission: false }], rulesets)).toEqual([])
    expect(webhookRules([{ name: 'switched-off', rulesets: ['pods'], enabled: false, disabledReason: 'replaced' }], rulesets)).toEqual([])
    expect(webhookRules([{ name: 'missing', rulesets: ['nope'] }], rulesets)).toEqual([])
  })

  it('maps kinds to resources, a Pod rule to the pod controllers too, CREATE and UPDATE by default', () => {
    const rulesets = [ruleset('pods', [{ match: { kinds: ['Pod'] } }, { match: { kinds: ['networking.k8s.io/Ingress', 'Service'] } }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['pods'] }], rulesets)).sort()).toEqual(
      [
        'CREATE,UPDATE core/* pods',
        'CREATE,UPDATE core/* replicationcontrollers',
        'CREATE,UPDATE core/* services',
        'CREATE,UPDATE apps/* daemonsets',
        'CREATE,UPDATE apps/* deployments',
        'CREATE,UPDATE apps/* replicasets',
        'CREATE,UPDATE apps/* statefulsets',
        'CREATE,UPDATE batch/* cronjobs',
        'CREATE,UPDATE batch/* jobs',
        'CREATE,UPDATE networking.k8s.io/* ingresses',
      ].sort(),
    )
    const rule = webhookRules([{ name: 'p', rulesets: ['pods'] }], rulesets).find((entry) => entry.apiGroups[0] === 'apps')
    expect(rule).toEqual({ apiGroups: ['apps'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['daemonsets', 'deployments', 'replicasets', 'statefulsets'], scope: '*' })
  })

  it('follows autogen: off, or narrowed to some controllers', () => {
    const off = [ruleset('pods', [{ match: { kinds: ['Pod'] }, autogen: false }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['pods'] }], off))).toEqual(['CREATE,UPDATE core/* pods'])
    const narrowed = [ruleset('pods', [{ match: { kinds: ['Pod'] }, autogen: { controllers: ['Deployment'] } }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['pods'] }], narrowed)).sort()).toEqual(['CREATE,UPDATE apps/* deployments', 'CREATE,UPDATE core/* pods'])
  })

  it('takes the operations rules and policies name, and their intersection when both do', () => {
    const rulesets = [ruleset('rs', [{ match: { kinds: ['ConfigMap'], operations: ['DELETE', 'CREATE'] } }, { match: { kinds: ['Secret'] } }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['rs'] }], rulesets))).toEqual(['CREATE,DELETE core/* configmaps', 'CREATE,UPDATE core/* secrets'])
    const policy: Policy = { name: 'p', rulesets: ['rs'], match: { operations: ['DELETE'] } }
    expect(lines(webhookRules([policy], rulesets))).toEqual(['DELETE core/* configmaps', 'DELETE core/* secrets'])
    const disjoint: Policy = { name: 'p', rulesets: ['rs'], match: { operations: ['CONNECT'] } }
    expect(lines(webhookRules([disjoint], rulesets))).toEqual(['CONNECT core/* secrets'])
  })

  it('narrows a rule that matches every kind to the kinds its policy names', () => {
    const rulesets = [ruleset('labels', [{}], { platform: 'kubernetes' })]
    const policy: Policy = { name: 'p', rulesetSelector: { matchLabels: { platform: 'kubernetes' } }, match: { kinds: ['apps/v1/Deployment'] } }
    expect(lines(webhookRules([policy], rulesets))).toEqual(['CREATE,UPDATE apps/v1 deployments'])
  })

  it('registers every built-in resource for a rule on every kind, never leases or events', () => {
    const rulesets = [ruleset('all', [{ match: { kinds: ['*'] } }, { match: { kinds: ['Lease', 'Event', 'events.k8s.io/Event'] } }])]
    const registered = lines(webhookRules([{ name: 'p', rulesets: ['all'] }], rulesets))
    expect(registered).toEqual(expect.arrayContaining(['CREATE,UPDATE core/* pods', 'CREATE,UPDATE apps/* deployments', 'CREATE,UPDATE rbac.authorization.k8s.io/* clusterroles']))
    expect(registered.filter((line) => /leases|events|\*$/.test(line))).toEqual([])
  })

  it('maps kinds it does not know to custom resources in the group they name, or any group', () => {
    const rulesets = [ruleset('crds', [{ match: { kinds: ['cert-manager.io/Certificate', 'Gateway', 'example.com/v2/Proxy', 'acme.io/*'] } }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['crds'] }], rulesets)).sort()).toEqual(
      ['CREATE,UPDATE */* gateways', 'CREATE,UPDATE acme.io/* *', 'CREATE,UPDATE cert-manager.io/* certificates', 'CREATE,UPDATE example.com/v2 proxies'].sort(),
    )
    expect(['Policy', 'Ingress', 'Ruleset', 'NetworkPolicy', 'Box'].map(pluralOf)).toEqual(['policies', 'ingresses', 'rulesets', 'networkpolicies', 'boxes'])
  })

  it('registers each alternative of any with its own operations, and reads kinds from all', () => {
    const rulesets = [ruleset('alt', [{ match: { any: [{ kinds: ['Service'] }, { kinds: ['ConfigMap'], operations: ['DELETE'] }] } }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['alt'] }], rulesets))).toEqual(['CREATE,UPDATE core/* services', 'DELETE core/* configmaps'])
    const all = [ruleset('all', [{ match: { all: [{ namespaces: ['prod'] }, { kinds: ['Secret'] }] } }])]
    expect(lines(webhookRules([{ name: 'p', rulesets: ['all'] }], all))).toEqual(['CREATE,UPDATE core/* secrets'])
  })
})
