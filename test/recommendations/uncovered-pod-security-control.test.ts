import { describe, expect, it } from 'vitest'
import { POD_SECURITY_TEMPLATES, templateById } from '../../src/authoring/catalog/index.js'
import type { Policy, Rule, Ruleset } from '../../src/engine/index.js'
import { podSecurityControls, uncoveredPodSecurityControls } from '../../src/recommendations/uncovered-pod-security-control.js'

const CONTROL_IDS = POD_SECURITY_TEMPLATES.map((template) => template.id).filter((id) => !id.endsWith('-profile'))
const BASELINE_IDS = POD_SECURITY_TEMPLATES.filter((template) => template.category === 'pod-security-baseline' && !template.id.endsWith('-profile')).map((template) => template.id)

/** The catalog's rule for a template, recording the template as rules compiled from instructions do. */
function templateRule(id: string): Rule {
  const template = templateById(id)
  if (!template) throw new Error(`no template ${id}`)
  return { ...template.rule({}), template: { id, parameters: {} } }
}

/** Written by hand: checks app containers only, so init containers get through. */
const appContainersNotPrivileged: Rule = {
  name: 'no-privileged-app-containers',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: 'object.spec.containers.all(c, c.?securityContext.?privileged.orValue(false) == false)', message: 'privileged' }] },
}

/** Fails every Pod: a refusal that says nothing about Pod Security. */
const ownerLabel: Rule = {
  name: 'owner-label',
  validate: { cel: [{ expression: "'owner' in object.metadata.?labels.orValue({})", message: 'an owner label is required' }] },
}

function ids(policies: Policy[], rulesets: Ruleset[]): string[] {
  return uncoveredPodSecurityControls(policies, rulesets).map((item) => item.target.name)
}

describe('uncovered-pod-security-control', () => {
  it('has the catalog controls (not the profiles), each with samples its own rule fails', () => {
    const controls = podSecurityControls()
    expect(controls.map((control) => control.template.id)).toEqual(CONTROL_IDS)
    expect(CONTROL_IDS).toHaveLength(17)
    for (const control of controls) expect(control.violations.length).toBe(control.template.samples({}).bad.length)
  })

  it('lists every control when no Deny policy exists, with the samples admitted', () => {
    const found = uncoveredPodSecurityControls([], [])
    expect(found.map((item) => item.id)).toEqual(CONTROL_IDS.map((id) => `uncovered-pod-security-control:${id}`))
    expect(found[0]).toEqual({
      id: 'uncovered-pod-security-control:pss-privileged',
      type: 'uncovered-pod-security-control',
      target: { kind: 'control', name: 'pss-privileged' },
      message:
        'Pod Security baseline control "No privileged containers" (pss-privileged) is not enforced: no Deny admission policy rejects any of its 2 non-compliant samples ' +
        '(an app container with securityContext.privileged: true; an init container with securityContext.privileged: true). ' +
        'To enforce it, create a ruleset from the instruction "no privileged pods" and apply it in a policy with action Deny.',
      evidence: {
        title: 'No privileged containers',
        level: 'baseline',
        samples: 2,
        admitted: 2,
        admittedSamples: ['an app container with securityContext.privileged: true', 'an init container with securityContext.privileged: true'],
        denyPolicies: 0,
        templateRules: [],
      },
    })
  })

  it('counts a Deny admission policy applying the baseline profile as covering every baseline control', () => {
    const rulesets: Ruleset[] = [{ name: 'baseline', rules: [templateRule('pss-baseline-profile')] }]
    const remaining = ids([{ name: 'enforce', rulesets: ['baseline'], action: 'Deny' }], rulesets)
    expect(remaining).toEqual(CONTROL_IDS.filter((id) => !BASELINE_IDS.includes(id)))
  })

  it('judges hand-written rules by what they refuse: app containers only is partial coverage', () => {
    const rulesets: Ruleset[] = [{ name: 'hand-written', labels: { tier: 'prod' }, rules: [appContainersNotPrivileged] }]
    const [privileged] = uncoveredPodSecurityControls([{ name: 'prod', rulesetSelector: { matchLabels: { tier: 'prod' } }, action: 'Deny' }], rulesets)
    expect(privileged?.message).toBe(
      'Pod Security baseline control "No privileged containers" (pss-privileged) is only partly enforced: Deny admission policies admit 1 of its 2 non-compliant samples ' +
        '(an init container with securityContext.privileged: true). To enforce it, create a ruleset from the instruction "no privileged pods" and apply it in a policy with action Deny.',
    )
    expect(privileged?.evidence).toMatchObject({ samples: 2, admitted: 1, denyPolicies: 1 })
  })

  it('does not count Audit policies, policies kept off the webhook, or policies whose match leaves Pods out', () => {
    const rulesets: Ruleset[] = [{ name: 'privileged', rules: [templateRule('pss-privileged')] }]
    for (const policy of [
      { name: 'p', rulesets: ['privileged'], action: 'Audit' },
      { name: 'p', rulesets: ['privileged'], action: 'Deny', admission: false },
      { name: 'p', rulesets: ['privileged'], action: 'Deny', match: { kinds: ['Service'] } },
      { name: 'p', rulesets: ['privileged'], action: 'Deny', match: { namespaces: ['kube-*'] } },
    ] satisfies Policy[]) {
      const [first] = uncoveredPodSecurityControls([policy], rulesets)
      expect(first?.target.name).toBe('pss-privileged')
      expect(first?.evidence.templateRules).toEqual(['privileged/no-privileged-containers'])
      expect(first?.message).toContain('Rules made from this template exist (privileged/no-privileged-containers) but no Deny admission policy rejects these samples with them.')
    }
    expect(ids([{ name: 'p', rulesets: ['privileged'], action: 'Deny' }], rulesets)).not.toContain('pss-privileged')
  })

  it('does not take a policy that refuses every Pod for coverage', () => {
    const rulesets: Ruleset[] = [{ name: 'ownership', rules: [ownerLabel] }]
    expect(ids([{ name: 'owners', rulesets: ['ownership'], action: 'Deny' }], rulesets)).toEqual(CONTROL_IDS)
  })

  it('lists rules from a profile template as rules for each control it includes', () => {
    const rulesets: Ruleset[] = [{ name: 'restricted', rules: [templateRule('pss-restricted-profile')] }]
    const found = uncoveredPodSecurityControls([{ name: 'watch', rulesets: ['restricted'], action: 'Warn' }], rulesets)
    expect(found).toHaveLength(CONTROL_IDS.length)
    for (const item of found) expect(item.evidence.templateRules).toEqual(['restricted/pod-security-restricted'])
  })
})
