import { describe, expect, it } from 'vitest'
import type { Rule } from '../../src/engine/index.js'
import { messageOf, remediationOf } from '../../src/remediation/rule-remediation.js'
import { rulesetRemediations } from '../../src/remediation/ruleset-remediations.js'

const own: Rule = {
  name: 'no-latest',
  severity: 'high',
  validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] },
  remediation: 'Pin every image to a version or digest.',
}
const messageOnly: Rule = { name: 'team', message: 'The team label is required.', validate: { cel: [{ expression: "has(object.metadata.labels.team)" }] } }
const celMessageOnly: Rule = { name: 'replicas', validate: { cel: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas' }] } }
const descriptionOnly: Rule = { name: 'probes', description: 'This policy requires that every container has a liveness probe.', validate: { cel: [{ expression: 'true' }] } }
const bare: Rule = { name: 'bare', validate: { cel: [{ expression: "object.kind != 'Secret'" }] }, remediation: '  ' }

describe('remediationOf', () => {
  it("keeps a rule's own remediation, not derived", () => {
    expect(remediationOf(own)).toEqual({ remediation: 'Pin every image to a version or digest.', derived: false })
  })

  it('derives one from the message, the validation messages, the description or the expression, and says so', () => {
    expect(remediationOf(messageOnly)).toEqual({ remediation: 'Add the team label.', derived: true })
    expect(remediationOf(celMessageOnly)).toEqual({ remediation: 'Use at most 5 replicas.', derived: true })
    expect(remediationOf(descriptionOnly)).toEqual({ remediation: 'Make sure every container has a liveness probe.', derived: true })
    expect(remediationOf(bare)).toEqual({ remediation: "Change the resource so that `object.kind != 'Secret'` holds.", derived: true })
  })

  it('reads the message results show: the rule\'s, else the first static validation message', () => {
    expect(messageOf(messageOnly)).toBe('The team label is required.')
    expect(messageOf(celMessageOnly)).toBe('at most 5 replicas')
    expect(messageOf(bare)).toBeUndefined()
  })
})

describe('rulesetRemediations', () => {
  it('lists every rule in order with its severity (medium by default), message, remediation and template', () => {
    const templated: Rule = { ...messageOnly, name: 'templated', template: { id: 'required-labels', parameters: { labels: ['team'] } } }
    expect(rulesetRemediations({ name: 'r', rules: [own, celMessageOnly, templated] })).toEqual([
      { rule: 'no-latest', severity: 'high', message: 'images must be pinned', remediation: 'Pin every image to a version or digest.', derived: false },
      { rule: 'replicas', severity: 'medium', message: 'at most 5 replicas', remediation: 'Use at most 5 replicas.', derived: true },
      { rule: 'templated', severity: 'medium', message: 'The team label is required.', remediation: 'Add the team label.', derived: true, template: 'required-labels' },
    ])
  })
})
