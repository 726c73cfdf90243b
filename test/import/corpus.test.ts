import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import * as yaml from 'js-yaml'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { describe, expect, it } from 'vitest'
import { PolicySpecSchema } from '../../src/engine/model/policy.js'
import { RulesetSpecSchema } from '../../src/engine/model/ruleset.js'
import { compileRuleset } from '../../src/engine/index.js'
import { importDocuments, isImportable, type ImportedDocument } from '../../src/import/index.js'
import { CONFORMANCE_DIR, conformanceIndex, HAS_CONFORMANCE, WITHOUT_CONFORMANCE } from '../support/shared-conformance.js'

/** The Kyverno policy library with its CLI tests, beside the repository (see its README.md and FORMAT.md). */
const CONFORMANCE = CONFORMANCE_DIR

interface KyvernoTest {
  policies: string[]
  results?: { policy: string; rule?: string }[]
}

interface SourcePolicy {
  kind: string
  metadata: { name: string }
  spec: { rules?: { name: string }[] }
}

const index = { tests: conformanceIndex() }

/** Every policy file a test loads, with its parsed documents and the test that loads it. */
function policyFiles(tiers: readonly string[]): { dir: string; file: string; documents: unknown[]; test: KyvernoTest }[] {
  return index.tests
    .filter((entry) => tiers.includes(entry.tier))
    .flatMap((entry) => {
      const testDir = resolve(CONFORMANCE, 'policies', entry.dir, '.kyverno-test')
      const test = yaml.load(readFileSync(resolve(testDir, 'kyverno-test.yaml'), 'utf8')) as KyvernoTest
      return test.policies.map((path) => {
        const file = resolve(testDir, path)
        const documents = yaml.loadAll(readFileSync(file, 'utf8')).filter((doc) => doc !== null && doc !== undefined)
        return { dir: entry.dir, file: file.slice(resolve(CONFORMANCE, 'policies').length + 1), documents, test }
      })
    })
}

const checkRuleset = Compile(RulesetSpecSchema)
const checkPolicy = Compile(PolicySpecSchema)

function schemaErrors(check: ReturnType<typeof Compile<TSchema>>, value: unknown): string[] {
  if (check.Check(value)) return []
  return [...check.Errors(value)].map((error) => `${error.instancePath} ${error.message}`)
}

/** Imports and checks that every ruleset and policy is valid for the model's schemas. */
function importValid(documents: unknown[]): ImportedDocument[] {
  const imported = importDocuments(documents)
  for (const document of imported) {
    for (const { name: _name, version: _version, source: _source, ...spec } of document.rulesets) {
      expect(schemaErrors(checkRuleset, spec), `ruleset ${_name}`).toEqual([])
    }
    for (const { name: _name, version: _version, ...spec } of document.policies) {
      expect(schemaErrors(checkPolicy, spec), `policy ${_name}`).toEqual([])
    }
  }
  return imported
}

describe.skipIf(!HAS_CONFORMANCE)(`tier A of the Kyverno conformance corpus${WITHOUT_CONFORMANCE}`, () => {
  const files = policyFiles(['A'])

  it('holds the 184 tests of the index', () => {
    expect(new Set(files.map((f) => f.dir)).size).toBe(184)
  })

  it.each(files.map((f) => [f.file, f] as const))('%s imports completely', (_file, { documents, test }) => {
    const sources = documents.filter(isImportable) as SourcePolicy[]
    const imported = importValid(documents)
    expect(imported.map((d) => d.sourceName)).toEqual(sources.map((s) => s.metadata.name))
    sources.forEach((source, i) => {
      const document = imported[i] as ImportedDocument
      expect(document.skipped).toEqual([])
      expect(document.rulesets.map((r) => r.name)).toEqual([source.metadata.name])
      expect(document.policies.map((p) => [p.name, p.rulesets])).toEqual([[source.metadata.name, [source.metadata.name]]])
      const ruleNames = document.rulesets[0]?.rules.map((rule) => rule.name)
      if (source.kind === 'ClusterPolicy') {
        expect(ruleNames).toEqual(source.spec.rules?.map((rule) => rule.name))
        // Every rule a result row names exists, by its base name for autogen-X / autogen-cronjob-X.
        for (const row of test.results ?? []) {
          if (row.policy !== source.metadata.name || row.rule === undefined) continue
          expect(ruleNames).toContain(row.rule.replace(/^autogen-(cronjob-)?/, ''))
        }
      } else {
        expect(ruleNames).toEqual([source.metadata.name])
      }
    })
  })
})

describe.skipIf(!HAS_CONFORMANCE)(`the other tiers of the corpus${WITHOUT_CONFORMANCE}`, () => {
  const files = policyFiles(['B', 'B-PSS', 'C', 'D', 'OOS'])

  it.each(files.map((f) => [f.file, f] as const))('%s accounts for every rule', (_file, { documents }) => {
    const sources = documents.filter(isImportable) as SourcePolicy[]
    const imported = importValid(documents)
    for (const source of sources) {
      const document = imported.find((d) => d.sourceKind === source.kind && d.sourceName === source.metadata.name) as ImportedDocument
      expect(document).toBeDefined()
      for (const skip of document.skipped) expect(skip.reason).not.toBe('')
      const importedRules = document.rulesets.flatMap((r) => r.rules.map((rule) => rule.name))
      const skippedRules = document.skipped.map((s) => s.rule)
      const expected = source.kind === 'ClusterPolicy' ? (source.spec.rules ?? []).map((r) => r.name) : [source.metadata.name]
      expect([...importedRules, ...skippedRules].sort()).toEqual([...expected].sort())
    }
  })

  it('skips a generate rule with the reason, rule by rule', () => {
    const file = 'best-practices/add-network-policy/add-network-policy.yaml'
    const documents = yaml.loadAll(readFileSync(resolve(CONFORMANCE, 'policies', file), 'utf8'))
    const [imported] = importDocuments(documents)
    const policy = (documents[0] as SourcePolicy).metadata.name
    expect(imported).toEqual({ sourceKind: 'ClusterPolicy', sourceName: policy, rulesets: [], policies: [], skipped: [{ policy, rule: 'default-deny', reason: 'generate rules are not supported' }] })
  })
})

describe.skipIf(!HAS_CONFORMANCE)(`tiers B and C of the corpus (patterns, deny, foreach, JMESPath)${WITHOUT_CONFORMANCE}`, () => {
  const files = policyFiles(['B', 'C'])

  it.each(files.map((f) => [f.file, f] as const))('%s imports every validate rule, and its rulesets compile', (_file, { documents }) => {
    const imported = importValid(documents)
    for (const document of imported) {
      // Matching on the requester's RBAC roles needs the cluster's bindings, which Verdict does not read.
      for (const skip of document.skipped) expect(skip.reason).toMatch(/roles is not supported|^(mutate|generate) rules are not supported/)
      for (const ruleset of document.rulesets) {
        const compiled = compileRuleset(ruleset)
        expect(compiled.rules.every((rule) => rule.patterns !== undefined || rule.classic !== undefined || rule.validations.length > 0)).toBe(true)
      }
    }
  })
})
