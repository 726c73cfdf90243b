import { describe, expect, it } from 'vitest'
import { compileRuleset } from '../../../src/engine/compile/compile-ruleset.js'
import { evaluateRule } from '../../../src/engine/evaluate/evaluate-rule.js'
import type { ClusterData, EvaluationInput } from '../../../src/engine/evaluate/evaluation-input.js'
import { PreparedInput } from '../../../src/engine/evaluate/prepared-input.js'
import type { RuleResult } from '../../../src/engine/results/rule-result.js'
import type { Rule } from '../../../src/engine/model/rule.js'

const pod = (image: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { containers: [{ name: 'app', image }] },
})

const deployment = (image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { template: { spec: { containers: [{ name: 'app', image }] } } },
})

const cluster: ClusterData = {
  configMap: (namespace, name) =>
    namespace === 'platform' && name === 'registries' ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { allowed: 'ghcr.io/' } } : undefined,
  imageMetadata: (reference) => (reference === 'ghcr.io/app:1' ? { image: reference, config: { User: '1000' } } : undefined),
}

/** Registries from a ConfigMap (through a variable), the image's user from its metadata (directly in the validation). */
const rule: Rule = {
  name: 'trusted-images',
  match: { kinds: ['Pod'] },
  autogen: { controllers: ['Deployment'] },
  variables: [{ name: 'allowed', expression: "resource.Get('v1', 'configmaps', 'platform', 'registries').data.allowed.split(',')" }],
  validate: {
    cel: [
      { expression: 'object.spec.containers.all(c, variables.allowed.exists(r, c.image.startsWith(r)))', message: 'untrusted registry' },
      { expression: "object.spec.containers.all(c, image.GetMetadata(c.image).config.?User.orValue('0') != '0')", message: 'runs as root' },
    ],
  },
}

const noVariables: Rule = {
  name: 'known-images',
  match: { kinds: ['Pod'] },
  validate: { cel: [{ expression: 'object.spec.containers.all(c, has(image.GetMetadata(c.image).config.User))', message: 'unknown user' }] },
}

function judge(input: EvaluationInput, judged: Rule = rule): Omit<RuleResult, 'ruleset' | 'severity'> {
  const [compiled] = compileRuleset({ name: 'rs', rules: [judged] }).rules
  const { ruleset: _ruleset, severity: _severity, ...result } = evaluateRule(compiled as NonNullable<typeof compiled>, new PreparedInput(input))
  return result
}

describe('rules reading cluster data through resource and image', () => {
  it('are judged against the input cluster data, in variables and validations', () => {
    expect(judge({ object: pod('ghcr.io/app:1'), cluster })).toEqual({ rule: 'trusted-images', status: 'pass' })
    expect(judge({ object: pod('docker.io/app:1'), cluster })).toEqual({ rule: 'trusted-images', status: 'fail', message: 'untrusted registry' })
    expect(judge({ object: pod('ghcr.io/app:1'), cluster }, noVariables)).toEqual({ rule: 'known-images', status: 'pass' })
  })

  it('see the same cluster data under autogen', () => {
    expect(judge({ object: deployment('ghcr.io/app:1'), cluster })).toEqual({ rule: 'trusted-images', status: 'pass', autogen: 'Deployment' })
  })

  it('err, saying so, on an input without cluster data or on an image nothing is known of', () => {
    expect(judge({ object: pod('ghcr.io/app:1') })).toEqual({
      rule: 'trusted-images',
      status: 'error',
      message:
        'expression "resource.Get(\'v1\', \'configmaps\', \'platform\', \'registries\').data.allowed.split(\',\')" failed: resource.Get("v1", "configmaps", "platform", "registries"): no cluster data is available to this evaluation (at 1:1)',
    })
    expect(judge({ object: pod('ghcr.io/other:1'), cluster })).toEqual({
      rule: 'trusted-images',
      status: 'error',
      message:
        'expression "object.spec.containers.all(c, image.GetMetadata(c.image).config.?User.orValue(\'0\') != \'0\')" failed: failed to get image data: image data for ghcr.io/other:1 not found (at 1:31)',
    })
  })
})
