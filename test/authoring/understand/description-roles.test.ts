import { describe, expect, it } from 'vitest'
import { describeRoles, splitDescription } from '../../../src/authoring/understand/description-roles.js'

describe('roles of a published policy description', () => {
  it('keeps the operative sentence, stated as its requirement, and sets the title, background and notes aside', () => {
    const text =
      'Pin Batch Queues. Batch queues that drift cause overnight pages, see https://example.com/runbook. for details. This policy ensures that every Job sets `spec.backoffLimit` to at most 3. Note that this policy requires Kubernetes v1.21 or later.'
    expect(describeRoles(text)).toEqual({
      requirementText: 'Every Job must set `spec.backoffLimit` to at most 3.',
      context: [
        { text: 'Pin Batch Queues.', role: 'heading', note: 'the title; the operative sentence says what is required' },
        { text: 'Batch queues that drift cause overnight pages, see https://example.com/runbook. for details.', role: 'rationale', note: 'background; the operative sentence says what is required' },
        { text: 'Note that this policy requires Kubernetes v1.21 or later.', role: 'rationale', note: 'a note about the policy, not a requirement on documents' },
      ],
      scopes: [],
    })
  })

  it('keeps continuations and sentences that say what is skipped, and drops version asides', () => {
    const text = 'Tidy Jobs. This policy, requiring Kubernetes v1.23 or later, validates that Jobs set `ttlSecondsAfterFinished`. In addition, Jobs must set `spec.backoffLimit`. Jobs labelled `keep: "true"` are skipped.'
    expect(describeRoles(text)).toMatchObject({
      requirementText: 'Jobs must set `ttlSecondsAfterFinished`. In addition, Jobs must set `spec.backoffLimit`. Jobs labelled `keep: "true"` are skipped.',
      scopes: ['Jobs labelled `keep: "true"` are skipped.'],
    })
  })

  it('leaves an instruction without an operative sentence, or written as lines, as it is', () => {
    expect(describeRoles('Every Job must set spec.backoffLimit. We page on failures.')).toBeUndefined()
    expect(describeRoles('Job rules:\n- This policy ensures backoffLimit is set')).toBeUndefined()
  })

  it('splits sentences at capitals only, never inside code, URLs or after e.g.', () => {
    expect(splitDescription('Use `a.b`. See https://x.io/a.b for more, e.g. this. Done')).toEqual(['Use `a.b`.', 'See https://x.io/a.b for more, e.g. this.', 'Done'])
  })
})

describe('the operative sentence stated as a requirement', () => {
  it('turns "prevents X" into "Disallow X"', () => {
    expect(describeRoles('No Debug Shells. Shells help attackers. This policy prevents the use of `hostPID`.')?.requirementText).toBe('Disallow the use of `hostPID`.')
  })

  it('says what a compliant document does with a modal, once: the statement is the requirement', () => {
    expect(describeRoles('Priority. This policy requires that a Pod defines the priorityClassName field with some value.')?.requirementText).toBe('A Pod must define the priorityClassName field with some value.')
    expect(describeRoles('Drop All. This policy ensures that all containers explicitly specify the `drop: ["ALL"]` ability.')?.requirementText).toBe('All containers must explicitly specify the `drop: ["ALL"]` ability.')
    expect(describeRoles('Dept. This policy validates that the annotation `corp.org/department` is specified with some value.')?.requirementText).toBe('The annotation `corp.org/department` must be specified with some value.')
    // Already said with a modal: left as written.
    expect(describeRoles('PDBs. This policy validates that minAvailable should be no higher than 50%.')?.requirementText).toBe('minAvailable should be no higher than 50%.')
  })

  it('"This policy requires that, for any Pod mounting X, it must ..." keeps the condition in the requirement', () => {
    expect(describeRoles('Docker. This policy requires that, for any Pod mounting the Docker socket, it must have the label `allow-docker` set to `true`.')?.requirementText).toBe('For any Pod mounting the Docker socket, it must have the label `allow-docker` set to `true`.')
  })

  it('"illustrates how to ensure X" is an operative sentence; the background never becomes a rule', () => {
    const roles = describeRoles('Metadata Matches Regex. Rather than a simple check to see if labels and annotations are present, they need to match a regular expression. This policy illustrates how to ensure a label with key `corp.org/version` is both present and matches a given regex.')
    expect(roles?.requirementText).toBe('A label with key `corp.org/version` must be both present and matches a given regex.')
    expect(roles?.context.map((sentence) => sentence.role)).toEqual(['heading', 'rationale'])
  })

  it('turns "restricts the use of X" into "Disallow X", never into "only X"', () => {
    expect(describeRoles('Quiet Nodes. Host ports leak. This policy restricts the use of the `hostPort` field.')?.requirementText).toBe('Disallow the `hostPort` field.')
    expect(describeRoles('Quiet Nodes. This policy restricts `hostPort` to 8080.')?.requirementText).toBe('This policy restricts `hostPort` to 8080.')
  })

  it('keeps a background sentence that says when the practice applies, so it narrows the requirement or refuses', () => {
    const roles = describeRoles('Quiet Sidecars. Silencing them is good hygiene and should be applied only when the pod has no debugger attached. This policy ensures that `spec.shareProcessNamespace` is false.')
    expect(roles?.scopes).toEqual(['Silencing them is good hygiene and should be applied only when the pod has no debugger attached.'])
  })
})
