import { describe, expect, it } from 'vitest'
import { policyHints, rulesetHints, type StoredRulesetSummary } from '../../src/authoring/hints.js'

describe('rulesetHints', () => {
  it('offers one example per category for an empty instruction', () => {
    const hints = rulesetHints('')
    expect(new Set(hints.templates.map((template) => template.category)).size).toBe(hints.templates.length)
    expect(hints.templates.length).toBeGreaterThanOrEqual(6)
  })

  it('names the parameters a clause still lacks', () => {
    const hints = rulesetHints('images only from approved registries')
    expect(hints.templates[0]).toMatchObject({ id: 'image-registry-allowed', missing: ['registries'] })
    expect(hints.clauses[0]).toMatchObject({ status: 'missing-parameters', missing: [{ name: 'registries' }] })
  })

  it('completes a half-typed last word', () => {
    expect(rulesetHints('no host net').templates.map((template) => template.id)).toContain('pss-host-namespaces')
  })

  it('suggests the labels of what the instruction is about', () => {
    expect(rulesetHints('S3 buckets must be encrypted').suggestedLabels).toEqual({ platform: 'terraform', resource: 'aws_s3_bucket' })
    expect(rulesetHints('Deployments need at least 2 replicas').suggestedLabels).toEqual({ platform: 'kubernetes', resource: 'Deployment' })
  })
})

describe('policyHints', () => {
  const stored: StoredRulesetSummary[] = [
    { name: 'pod-security', labels: { platform: 'kubernetes' }, templateIds: ['pss-privileged', 'pss-host-path'], ruleNames: [] },
    { name: 'images', labels: { team: 'platform' }, templateIds: ['image-tag-not-latest'], ruleNames: [] },
  ]

  it('reads the action from the wording', () => {
    expect(policyHints('block privileged pods', stored).action).toBe('Deny')
    expect(policyHints('warn about privileged pods', stored).action).toBe('Warn')
    expect(policyHints('report privileged pods', stored).action).toBe('Audit')
  })

  it('points to stored rulesets that cover the instruction and templates for the rest', () => {
    const hints = policyHints('deny privileged pods and images from docker.io in the prod namespace', stored)
    expect(hints.rulesets).toEqual([
      { name: 'pod-security', reason: 'has rules from pss-privileged' },
      { name: 'images', reason: 'its name or labels are named in the instruction' },
    ])
    expect(hints.templates.map((template) => template.id)).toContain('image-registry-denied')
    expect(hints.match).toEqual({ kinds: ['Pod'], namespaces: ['prod'] })
  })
})
