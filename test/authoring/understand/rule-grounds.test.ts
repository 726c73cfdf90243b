import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import type { RuleGrounds } from '../../../src/authoring/understand/rule-grounds.js'

const K8S = { platform: 'kubernetes' }

/** Per sentence of a compiled instruction, its rules' grounds. */
function groundsOf(instruction: string, labels: Record<string, string>): Array<RuleGrounds[] | undefined> {
  return compileInstruction(instruction, labels).sentences.map((sentence) => sentence.grounds)
}

/** Every `words` in the grounds, wherever it stands. */
function allWords(grounds: readonly RuleGrounds[]): string[] {
  const words: string[] = []
  const visit = (value: unknown, key?: string): void => {
    if (key === 'words' && typeof value === 'string') words.push(value)
    else if (Array.isArray(value)) for (const item of value) visit(item)
    else if (typeof value === 'object' && value !== null) for (const [name, item] of Object.entries(value)) visit(item, name)
  }
  visit(grounds)
  return words
}

describe('the words each rule stands on', () => {
  it('shows the words of a schema field and of a number with the words that bound it', () => {
    expect(groundsOf('Containers must run as user 1000 or higher', K8S)).toEqual([
      [
        {
          rule: 'runasuser-bounds',
          fields: [{ words: 'run as user', field: 'spec.containers[*].securityContext.runAsUser', how: 'schema field name' }],
          values: [{ words: '1000 or higher', value: 1000, how: 'number' }],
        },
      ],
    ])
  })

  it('says a field written in backticks is written as code, and true/false as written', () => {
    expect(groundsOf('`securityContext.runAsNonRoot` must be true', K8S)).toEqual([
      [
        {
          rule: 'runasnonroot-is-true',
          fields: [{ words: '`securityContext.runAsNonRoot`', field: 'spec.containers[*].securityContext.runAsNonRoot', how: 'written as code' }],
          values: [{ words: 'true', value: true, how: 'true/false' }],
        },
      ],
    ])
  })

  it('says how a label key is written: quoted', () => {
    expect(groundsOf('Pods must have the label "team"', K8S)).toEqual([[{ rule: 'team-required', fields: [{ words: '"team"', field: 'metadata.labels.team', how: 'label key, quoted' }] }]])
  })

  it('grounds an exemption: its words, its field and its value', () => {
    expect(groundsOf('`spec.replicas` must be at least 2, except in the kube-system namespace', { platform: 'kubernetes', resource: 'Deployment' })).toEqual([
      [
        {
          rule: 'replicas-bounds',
          fields: [{ words: '`spec.replicas`', field: 'spec.replicas', how: 'written as code' }],
          values: [{ words: 'at least 2', value: 2, how: 'number' }],
          exemptions: [
            {
              words: 'except in the kube-system namespace',
              field: { words: 'namespace', field: 'metadata.namespace', how: 'schema field name' },
              values: [{ words: 'kube-system', value: 'kube-system', how: 'written as a name' }],
            },
          ],
        },
      ],
    ])
  })

  it('says a value of the field\'s enum is one, and shows the other field of a comparison', () => {
    expect(groundsOf('imagePullPolicy must be Always', K8S)[0]?.[0]?.values).toEqual([{ words: 'Always', value: 'Always', how: 'enum value' }])
    expect(groundsOf('maxReplicas must be greater than minReplicas', { platform: 'kubernetes', resource: 'HorizontalPodAutoscaler' })).toEqual([
      [
        {
          rule: 'maxreplicas-compare-field',
          fields: [{ words: 'maxReplicas', field: 'spec.maxReplicas', how: 'written as a field name' }],
          comparedWith: { words: 'minReplicas', field: 'spec.minReplicas', how: 'written as a field name' },
        },
      ],
    ])
  })

  it('shows a number with its unit as written, with the value the rule compares (seconds)', () => {
    expect(groundsOf('backup retention must be at least 7 days', { platform: 'terraform', resource: 'aws_db_instance' })).toEqual([
      [
        {
          rule: 'backup-retention-period-bounds',
          fields: [{ words: 'backup retention', field: 'backup_retention_period', how: 'schema field name' }],
          values: [{ words: 'at least 7 days', value: 604800, how: 'number with unit' }],
        },
      ],
    ])
  })

  it('leaves the words out of a value no words spell: true, from a ban of a true/false field', () => {
    expect(groundsOf('`hostPID` is not allowed', K8S)).toEqual([[{ rule: 'hostpid-denied-values', fields: [{ words: '`hostPID`', field: 'spec.hostPID', how: 'written as code' }], values: [{ value: true, how: 'implied by the field' }] }]])
  })

  it('grounds a rule of the catalog on the named requirement, with the parameter values the sentence wrote', () => {
    expect(groundsOf('no privileged pods', K8S)).toEqual([[{ rule: 'no-privileged-containers', named: { id: 'pss-privileged', title: 'No privileged containers' } }]])
    expect(groundsOf('images must come from registry.acme.io', K8S)).toEqual([
      [
        {
          rule: 'images-only-from-registry-acme-io',
          named: { id: 'image-registry-allowed', title: 'Images only from allowed registries', parameters: [{ parameter: 'registries', words: 'registry.acme.io', value: 'registry.acme.io', how: 'written as a name' }] },
        },
      ],
    ])
  })

  it('gives a sentence that became no rule no grounds', () => {
    const sentences = compileInstruction('PLAT-77 Resource hygiene\nEvery container must set a memory limit. A missing CPU limit is fine.', { platform: 'kubernetes', resource: 'Pod' }).sentences
    expect(sentences.filter((sentence) => sentence.rules === undefined).map((sentence) => sentence.grounds)).toEqual(sentences.filter((sentence) => sentence.rules === undefined).map(() => undefined))
    expect(sentences.filter((sentence) => sentence.rules !== undefined).every((sentence) => sentence.grounds?.length === sentence.rules?.length)).toBe(true)
  })

  it('quotes every word from the instruction exactly as written', () => {
    const instructions: Array<[string, Record<string, string>]> = [
      ['In namespaces starting with prod-, containers must set `readOnlyRootFilesystem` to true. Pods labelled team=payments must not use hostNetwork.', K8S],
      ['The tier label must be one of frontend, backend or data; CPU limits must be no more than 2 cores.', { platform: 'kubernetes', resource: 'Deployment' }],
      ['storage_encrypted must be true. For anything tagged Environment = prod, deletion_protection must also be on.', { platform: 'terraform', resource: 'aws_db_instance' }],
      ['owner must be an email address; the timeout must be at most 30 seconds', { platform: 'generic' }],
    ]
    for (const [instruction, labels] of instructions) {
      const grounds = groundsOf(instruction, labels).flatMap((item) => item ?? [])
      expect(grounds.length).toBeGreaterThan(0)
      for (const words of allWords(grounds)) expect(instruction).toContain(words)
    }
  })

  it('keeps the grounds of the rules read before a sentence that is refused', () => {
    try {
      compileInstruction('`hostPID` must not be true. Containers must set priorityClassName to `fair` when the team is platform.', K8S)
      expect.unreachable('compiled')
    } catch (error) {
      if (!(error instanceof InstructionNotUnderstoodError)) throw error
      expect(error.sentences.map((sentence) => sentence.grounds?.map((ground) => ground.rule))).toEqual([['hostpid-denied-values'], undefined])
    }
  })
})
