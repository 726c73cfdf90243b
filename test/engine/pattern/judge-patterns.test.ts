import { describe, expect, it } from 'vitest'
import { toCelValue } from '../../../src/engine/cel/values.js'
import { compilePattern, judgePatterns } from '../../../src/engine/pattern/index.js'
import { judge, pod } from './pattern-helpers.js'

const privileged = { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } }
const privilegedPod = pod({ containers: [{ name: 'a', securityContext: { privileged: true } }] })

describe('rule judgements and messages, as Kyverno words them', () => {
  it('a failed pattern: the rule message, a period, the rule and the path', () => {
    expect(judge('pattern', [privileged], privilegedPod, 'privileged-containers', 'Privileged mode is disallowed')).toEqual({
      status: 'fail',
      message: 'validation error: Privileged mode is disallowed. rule privileged-containers failed at path /spec/containers/0/securityContext/privileged/',
      fields: [{ path: ['spec', 'containers', 0, 'securityContext', 'privileged'], actual: true, requirement: { kind: 'match', pattern: 'false' } }],
      path: ['spec', 'containers', 0, 'securityContext', 'privileged'],
    })
  })

  it('keeps a message that ends with a period as it is, and leaves it out when the rule has none', () => {
    expect(judge('pattern', [privileged], privilegedPod, 'p', 'No privileged containers.').message).toBe(
      'validation error: No privileged containers. rule p failed at path /spec/containers/0/securityContext/privileged/',
    )
    expect(judge('pattern', [privileged], privilegedPod, 'p').message).toBe('validation error: rule p failed at path /spec/containers/0/securityContext/privileged/')
  })

  it('passes without a message, and skips with the reason of the anchor that did not hold', () => {
    expect(judge('pattern', [privileged], pod({ containers: [{ name: 'a' }] }), 'p', 'm')).toEqual({ status: 'pass', fields: [] })
    expect(judge('pattern', [{ spec: { '(hostNetwork)': true, hostPID: false } }], pod({}), 'p', 'm')).toEqual({
      status: 'skip',
      message: "conditional anchor mismatch: conditional anchor key doesn't exist in the resource",
      fields: [],
    })
  })

  it('an error names the execution error', () => {
    const judgement = judge('pattern', [{ spec: { '^(initContainers)': [{ name: '*' }], hostNetwork: false } }], pod({ hostNetwork: true }), 'p', 'Host network is disallowed')
    expect(judgement).toEqual({
      status: 'error',
      message: "validation error: Host network is disallowed. rule p execution error: resource value 'true' does not match 'false' at path /spec/hostNetwork/",
      fields: [],
    })
  })

  describe('anyPattern', () => {
    // The Kyverno documentation's run-as-non-root example: either the Pod sets runAsNonRoot, or every container does.
    const patterns = [
      {
        spec: {
          securityContext: { runAsNonRoot: true },
          containers: [{ '=(securityContext)': { '=(runAsNonRoot)': true } }],
          '=(initContainers)': [{ '=(securityContext)': { '=(runAsNonRoot)': true } }],
        },
      },
      {
        spec: {
          containers: [{ securityContext: { runAsNonRoot: true } }],
          '=(initContainers)': [{ securityContext: { runAsNonRoot: true } }],
        },
      },
    ]

    it('passes when any one pattern matches', () => {
      expect(judge('anyPattern', patterns, pod({ securityContext: { runAsNonRoot: true }, containers: [{ name: 'a' }] })).status).toBe('pass')
      expect(judge('anyPattern', patterns, pod({ containers: [{ name: 'a', securityContext: { runAsNonRoot: true } }] })).status).toBe('pass')
    })

    it('fails with every pattern\'s failure, each named rule[index]', () => {
      const judgement = judge('anyPattern', patterns, pod({ containers: [{ name: 'a' }] }), 'run-as-non-root', 'Running as root is not allowed')
      expect(judgement.message).toBe(
        'validation error: Running as root is not allowed. rule run-as-non-root[0] failed at path /spec/securityContext/ rule run-as-non-root[1] failed at path /spec/containers/0/securityContext/',
      )
      expect(judgement.status).toBe('fail')
      expect(judgement.path).toEqual(['spec', 'securityContext'])
      expect(judgement.fields.map((field) => field.path)).toEqual([
        ['spec', 'securityContext'],
        ['spec', 'containers', 0, 'securityContext'],
      ])
    })

    it('without a rule message, the failures follow "validation error:" directly; a period ending the message is not doubled', () => {
      expect(judge('anyPattern', patterns, pod({ containers: [{ name: 'a' }] }), 'r').message).toBe(
        'validation error: rule r[0] failed at path /spec/securityContext/ rule r[1] failed at path /spec/containers/0/securityContext/',
      )
      expect(judge('anyPattern', patterns, pod({ containers: [{ name: 'a' }] }), 'r', 'Root.').message).toMatch(/^validation error: Root\. rule r\[0\]/)
    })

    it('is skipped only when no pattern failed and some were skipped', () => {
      const conditional = [{ spec: { '(hostNetwork)': true, hostPID: false } }, { metadata: { '(labels)': { tier: 'db' } }, spec: { hostIPC: false } }]
      expect(judge('anyPattern', conditional, pod({}), 'r')).toEqual({
        status: 'skip',
        message:
          "rule r[0] skipped: conditional anchor mismatch: conditional anchor key doesn't exist in the resource rule r[1] skipped: conditional anchor mismatch: conditional anchor key doesn't exist in the resource",
        fields: [],
      })
      const oneFails = [{ spec: { '(hostNetwork)': true, hostPID: false } }, { spec: { hostIPC: false } }]
      expect(judge('anyPattern', oneFails, pod({ hostIPC: true }), 'r')).toMatchObject({ status: 'fail', message: 'validation error: rule r[1] failed at path /spec/hostIPC/' })
    })

    it('counts an alternative that errs as failed, naming its error', () => {
      const erring = [{ spec: { '^(initContainers)': [{ name: '*' }], hostNetwork: false } }, { spec: { hostNetwork: false } }]
      expect(judge('anyPattern', erring, pod({ hostNetwork: true }), 'r').message).toBe(
        "validation error: rule r[0] failed: resource value 'true' does not match 'false' at path /spec/hostNetwork/ rule r[1] failed at path /spec/hostNetwork/",
      )
    })
  })

  describe('substitution of {{ }} variables and $(...) references', () => {
    const replicas = { spec: { replicas: '{{ minimum }}' } }

    it('matches the pattern the hook returns, for each alternative', () => {
      const compiled = [compilePattern(replicas).pattern]
      const seen: unknown[] = []
      const substitute = (pattern: unknown, at: { kind: string; index: number }) => {
        seen.push(at)
        return JSON.parse(JSON.stringify(pattern).replace('{{ minimum }}', '>=2')) as unknown
      }
      expect(judgePatterns({ kind: 'pattern', patterns: compiled }, toCelValue({ spec: { replicas: 3 } }), { rule: 'r', substitute }).status).toBe('pass')
      expect(judgePatterns({ kind: 'pattern', patterns: compiled }, toCelValue({ spec: { replicas: 1 } }), { rule: 'r', substitute })).toMatchObject({
        status: 'fail',
        message: 'validation error: rule r failed at path /spec/replicas/',
      })
      expect(seen).toEqual([
        { kind: 'pattern', index: 0 },
        { kind: 'pattern', index: 0 },
      ])
    })

    it('is an error when the hook fails, or when there is no hook', () => {
      const compiled = [compilePattern(replicas).pattern]
      const failing = () => {
        throw new Error('failed to resolve minimum at path /validate/pattern/spec/replicas')
      }
      expect(judgePatterns({ kind: 'pattern', patterns: compiled }, toCelValue({ spec: { replicas: 1 } }), { rule: 'r', substitute: failing })).toEqual({
        status: 'error',
        message: 'variable substitution failed: failed to resolve minimum at path /validate/pattern/spec/replicas',
        fields: [],
      })
      expect(judgePatterns({ kind: 'pattern', patterns: compiled }, toCelValue({ spec: { replicas: 1 } }), { rule: 'r' })).toMatchObject({ status: 'error' })
    })
  })
})
