import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { sentenceLiterals, unusedLiterals } from '../../../src/authoring/understand/coverage.js'
import { notCompiled, verdictsOf } from './reading.js'

const POD = { platform: 'kubernetes', resource: 'Pod' }
const GENERIC = { platform: 'generic', resource: 'settings' }

const pod = (securityContext: Record<string, unknown> | undefined, image = 'registry.example.com/app:1.0') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'app', image, ...(securityContext ? { securityContext } : {}) }] },
})

describe('one reading per sentence: structural, or a named requirement when that reads more', () => {
  it('takes a named requirement for a sentence whose structural reading left a literal unused', () => {
    const compiled = compileInstruction('The imagePullPolicy must be `Always` whenever the `latest` tag is used.', POD)
    expect(compiled.spec.rules.map((rule) => rule.template?.id)).toEqual(['image-pull-policy'])
    expect(compiled.sentences.map((sentence) => sentence.role)).toEqual(['requirement'])
  })

  it('does not offer a named requirement a sentence that exempts', () => {
    expect(notCompiled('Pods must not use hostNetwork. The only exception is stuff running in the platform team.', POD)).toHaveLength(1)
  })

  it('reads a line that starts by asking as a requirement, not a heading', () => {
    const compiled = compileInstruction('disable service account token automounting', POD)
    expect(compiled.spec.rules).toHaveLength(1)
    expect(compiled.sentences.map((sentence) => sentence.role)).toEqual(['requirement'])
  })

  it('reads a bound after "may" as a restriction, never a permission', () => {
    expect(compileInstruction('containers may use at most 1Gi of memory (limit)', POD).spec.rules).toHaveLength(1)
  })

  it('never offers a named requirement what absence means ("no type means ClusterIP")', () => {
    const service = (type?: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ...(type ? { type } : {}), ports: [{ port: 80 }] } })
    const instruction = 'Services may never be NodePort. Plain services are fine (no type means ClusterIP).'
    expect(verdictsOf(instruction, { platform: 'kubernetes', resource: 'Service' }, [service(), service('ClusterIP'), service('NodePort')])).toEqual([true, true, false])
  })

  it('refuses a narrowing that no requirement read is about', () => {
    const [sentence] = notCompiled('Services may never be NodePort. LoadBalancer is only OK when the Service lives in the edge namespace.', { platform: 'kubernetes', resource: 'Service' })
    expect(sentence?.became).toMatch(/no requirement read here is about what it names/)
  })

  it('refuses a named requirement that would drop a condition written after it', () => {
    const [sentence] = notCompiled('Services may never be NodePort. ExternalName is only acceptable when the team is platform.', { platform: 'kubernetes', resource: 'Service' })
    expect(sentence?.became).toMatch(/it applies only "the team is platform"/)
  })

  it('refuses a condition written after the requirement that nothing read', () => {
    const [sentence] = notCompiled('Containers must set priorityClassName to `batch` when the team is data.', POD)
    expect(sentence?.became).toMatch(/it applies only "the team is data"/)
    expect(compileInstruction('runAsNonRoot must be true if set.', POD).spec.rules).toHaveLength(1)
    expect(compileInstruction('Containers must never run as root, even if the pod says otherwise.', POD).spec.rules).toHaveLength(1)
  })

  it('still refuses a sentence that only permits', () => {
    expect(() => compileInstruction('Pods may use hostNetwork.', POD)).toThrow(/permits something/)
  })
})

describe('the only value a field may take, said before the field', () => {
  it('reads "only the V field may be used" as that enum value alone, unset passing', () => {
    const instruction = 'Only the Default procMount is allowed.'
    expect(verdictsOf(instruction, POD, [pod({ procMount: 'Default' }), pod(undefined), pod({ procMount: 'Unmasked' })])).toEqual([true, true, false])
  })

  it('reads "nothing but the v field can be specified" the same, matching the enum without case', () => {
    const instruction = 'Nothing but the default procMount can be specified.'
    expect(verdictsOf(instruction, POD, [pod({ procMount: 'Default' }), pod({ procMount: 'Unmasked' })])).toEqual([true, false])
  })

  it('refuses a word that is not a value of the field', () => {
    expect(() => compileInstruction('Only the fancy procMount may be used.', POD)).toThrow()
  })
})

describe('numbers and comparisons as written', () => {
  it('counts a bound written as a word: unread, it refuses naming the word', () => {
    const [sentence] = notCompiled('ConfigMaps may hold no more than ten keys.', { platform: 'kubernetes' })
    expect(sentence?.became).toMatch(/it writes "ten"/)
  })

  it('does not count "at least one", which says there is some', () => {
    expect(sentenceLiterals('budgets must leave room for at least one eviction and at most three')).toEqual(['three'])
    expect(unusedLiterals('no more than ten keys', ['size(object.data) <= 10'])).toEqual([])
  })

  it('counts a path written unquoted as a value: a named rule that drops it refuses', () => {
    const [sentence] = notCompiled('A hostPath volume may only point at /srv/logs or below it.', POD)
    expect(sentence?.became).toMatch(/"\/srv\/logs"/)
    expect(sentenceLiterals('every ipBlock must be a /16 or smaller range')).toEqual([])
  })

  it('reads "<=" after a space as a bound, and ">=" after "must be"', () => {
    expect(verdictsOf('ratio must be >= 0.5 and <= 0.9', GENERIC, [{ ratio: 0.7 }, { ratio: 0.95 }, { ratio: 0.2 }])).toEqual([true, false, false])
  })

  it('never takes a word written as the verb after a modal for a value', () => {
    const [sentence] = notCompiled('premium tiers can\'t switch their alerts off', GENERIC)
    expect(sentence?.became).toMatch(/"switch" is a word of the sentence/)
  })
})

describe('what only some may do, restatements of a ban, and exceptions said as such', () => {
  it('reads "only X may <do>" as a requirement of its own, never a narrowing of the others', () => {
    const refused = notCompiled('Every ClusterRole must set the label `owner`. Only roles whose name starts with ops- may grant escalate on roles.', { platform: 'kubernetes', resource: 'ClusterRole' })
    expect(refused.map((sentence) => sentence.text)).toEqual(['Only roles whose name starts with ops- may grant escalate on roles.'])
  })

  it('keeps the ban when "i.e." names the thing forbidden', () => {
    const tolerating = (toleration: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'a:1' }], tolerations: [toleration] } })
    const instruction = 'Pods must never tolerate all taints, i.e. a toleration with operator Exists and no key.'
    expect(verdictsOf(instruction, POD, [tolerating({ operator: 'Exists' }), tolerating({ key: 'gpu', operator: 'Exists' })])).toEqual([false, true])
  })

  it('refuses "X are the one exception" when no exemption was read from it', () => {
    const refused = notCompiled('Pods must not set hostNetwork to true. Static pods are the one exception to that.', POD)
    expect(refused[0]?.became).toMatch(/are the one exception/)
  })
})

describe('a lead that leaves its condition to the items after it', () => {
  it('refuses "Reject X if" followed by items read as requirements', () => {
    const refused = notCompiled('Reject a Secret if\n- any key in `data` starts with `tmp_`', { platform: 'kubernetes', resource: 'Secret' })
    expect(refused.map((sentence) => sentence.text)).toEqual(['Reject a Secret if'])
  })
})

describe('titles', () => {
  it('reads a few words ending in what a title names as a title, field names or not', () => {
    const error = (() => {
      try {
        compileInstruction('hostPort policy, in short: nobody should be binding ports on our nodes directly.', POD)
      } catch (caught) {
        return caught as InstructionNotUnderstoodError
      }
      throw new Error('compiled')
    })()
    expect(error).toBeInstanceOf(InstructionNotUnderstoodError)
    expect(error.sentences.map((sentence) => [sentence.role, sentence.text])[0]).toEqual(['heading', 'hostPort policy'])
  })
})

