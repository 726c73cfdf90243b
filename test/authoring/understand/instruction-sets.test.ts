import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

/**
 * Instruction sets written by others in the dev set's format: the project's own held-out sets
 * (test/authoring/own-holdout to own-holdout-5, each written apart from the compiler and scored
 * untouched before it joined the suite) and, when the workspace has them, ../shared's two dev sets.
 *
 * Each case has one of three outcomes, as the dev sets' runner counts them: right (every document
 * judged as meant), refused (nothing stored, the user is told what was not understood), or
 * silently wrong (a ruleset was created, yet it misjudges a document). The ratchet is on the first
 * and the last: right never falls below, silently wrong never rises above, the figures last
 * measured. Not on the share of documents judged right: there a refusal scores nothing and a
 * half-right ruleset half, so it rewarded the outcome that hurts a user most (issue 32).
 */
interface InstructionCase {
  id: string
  instruction: string
  labels: Record<string, string>
  inputs: Array<{ name: string; expectPassed: boolean; object: unknown }>
}

interface Outcomes {
  right: number
  refused: number
  silentlyWrong: number
}

function outcomes(cases: InstructionCase[]): Outcomes {
  const counts: Outcomes = { right: 0, refused: 0, silentlyWrong: 0 }
  for (const item of cases) {
    let ruleset
    try {
      ruleset = compileRuleset({ ...compileInstruction(item.instruction, item.labels).spec, name: 'set' })
    } catch (error) {
      if (!(error instanceof InstructionNotUnderstoodError)) throw error
      counts.refused += 1
      continue
    }
    const judgedAsMeant = item.inputs.every((input) => evaluateRuleset(ruleset, new PreparedInput({ object: input.object })).passed === input.expectPassed)
    if (judgedAsMeant) counts.right += 1
    else counts.silentlyWrong += 1
  }
  return counts
}

const shared = (path: string): string => fileURLToPath(new URL(`../../../../shared/${path}`, import.meta.url))

/**
 * Each set with the figures last measured on it: at least `right` cases right, at most `silentlyWrong` silently wrong.
 * own-holdout fell from 14 right to 13 once a named rule could no longer check constants the text never wrote: its
 * sysctl allow-list was "right" only because the Pod Security safe set it added happened to agree with the documents.
 * Sets 2, 3 and 5 lost right cases (9 to 7, 9 to 8, 5 to 4) once Terraform attributes had to exist in the providers'
 * schemas: those rulesets carried a rule on a name made from words (`means_never_expire`, `nobody`) or an old
 * attribute name (`enable_https_traffic_only`), harmless only because no document had it; the same check turned
 * 34 silently wrong cases into refusals. Refusing what no reader took (a qualifier on the subject, an exemption, an
 * exception, a stage such as "in production", a scope of namespaces said in words) took the five sets from 62 silently
 * wrong to 36; reading each sentence once (no second reading of the whole text by the catalog), bounds written as words
 * and "<=" after a space took them to 33, and refusing a narrowing no requirement is about, a condition after a named
 * requirement that nothing read, and never offering the catalog what absence means ("no type means ClusterIP"), to 32;
 * "only X may <do>" as a requirement of its own, "i.e. <the thing forbidden>" keeping the ban, and "are the one
 * exception" as an exemption said, to 30; unquoted paths as values, "Reject X if" leads and titles ("hostPort policy"), to 28.
 */
const OWN_SETS: Array<{ folder: string; right: number; silentlyWrong: number }> = [
  { folder: 'own-holdout', right: 14, silentlyWrong: 10 },
  { folder: 'own-holdout-2', right: 9, silentlyWrong: 4 },
  { folder: 'own-holdout-3', right: 8, silentlyWrong: 8 },
  { folder: 'own-holdout-4', right: 13, silentlyWrong: 5 },
  { folder: 'own-holdout-5', right: 4, silentlyWrong: 1 },
]

// The dev sets live beside the project, not in it: a clone without ../shared skips these (get them with the workspace).
const SHARED_SETS: Array<{ path: string; right: number; silentlyWrong: number }> = [
  { path: 'authoring-devset/cases.json', right: 50, silentlyWrong: 1 },
  // The silently wrong description forbids "these verbs" (escalate, bind, impersonate) and its test also denies a rule
  // granting `*` verbs on `*` resources: RBAC knowledge the text does not state. Two descriptions say their practice
  // "should be followed if Pods do not need to speak to the API server"; that narrowing is refused (72 right, was 73).
  { path: 'authoring-kyverno-descriptions/cases.json', right: 72, silentlyWrong: 1 },
]

describe('instructions written by others', () => {
  it.each(OWN_SETS)('$folder: at least $right right and at most $silentlyWrong silently wrong', ({ folder, right, silentlyWrong }) => {
    const cases = JSON.parse(readFileSync(fileURLToPath(new URL(`../${folder}/cases.json`, import.meta.url)), 'utf8')) as InstructionCase[]
    expect(cases.length).toBeGreaterThanOrEqual(40)
    const measured = outcomes(cases)
    expect(measured.right, 'right').toBeGreaterThanOrEqual(right)
    expect(measured.silentlyWrong, 'silently wrong').toBeLessThanOrEqual(silentlyWrong)
  })

  it.each(SHARED_SETS.filter((set) => existsSync(shared(set.path))))('../shared/$path: at least $right right and at most $silentlyWrong silently wrong', ({ path, right, silentlyWrong }) => {
    const measured = outcomes(JSON.parse(readFileSync(shared(path), 'utf8')) as InstructionCase[])
    expect(measured.right, 'right').toBeGreaterThanOrEqual(right)
    expect(measured.silentlyWrong, 'silently wrong').toBeLessThanOrEqual(silentlyWrong)
  })
})
