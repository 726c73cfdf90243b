import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { compileCel } from '../../../src/engine/cel/index.js'
import { CONFORMANCE_DIR as conformanceDir, conformanceIndex, HAS_CONFORMANCE, WITHOUT_CONFORMANCE } from '../../support/shared-conformance.js'

/**
 * Every CEL expression in the policies of the Kyverno library's tier-A tests (CEL-only policies,
 * see index.json) must compile. The library snapshot lives beside the repository, in
 * ../shared/conformance/kyverno.
 */


interface FoundExpression {
  file: string
  path: string
  expression: string
}

type Node = Record<string, unknown>

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : undefined
}

function asList(value: unknown): Node[] {
  return Array.isArray(value) ? value.map(asNode).filter((n): n is Node => n !== undefined) : []
}

/** Collects `expression` / `messageExpression` / `valueExpression` of each entry of a list field. */
function collect(out: FoundExpression[], file: string, path: string, entries: unknown): void {
  asList(entries).forEach((entry, i) => {
    for (const key of ['expression', 'messageExpression', 'valueExpression']) {
      const value = entry[key]
      if (typeof value === 'string') out.push({ file, path: `${path}[${i}].${key}`, expression: value })
    }
  })
}

function expressionsOf(document: Node, file: string): FoundExpression[] {
  const out: FoundExpression[] = []
  const spec = asNode(document.spec) ?? {}
  switch (document.kind) {
    case 'ClusterPolicy':
    case 'Policy':
      asList(spec.rules).forEach((rule, r) => {
        collect(out, file, `spec.rules[${r}].celPreconditions`, rule.celPreconditions)
        const cel = asNode(asNode(rule.validate)?.cel)
        if (!cel) return
        collect(out, file, `spec.rules[${r}].validate.cel.expressions`, cel.expressions)
        collect(out, file, `spec.rules[${r}].validate.cel.variables`, cel.variables)
        collect(out, file, `spec.rules[${r}].validate.cel.auditAnnotations`, cel.auditAnnotations)
      })
      break
    case 'ValidatingPolicy':
    case 'NamespacedValidatingPolicy':
    case 'ValidatingAdmissionPolicy':
      for (const key of ['validations', 'variables', 'matchConditions', 'auditAnnotations']) collect(out, file, `spec.${key}`, spec[key])
      break
    default:
      break
  }
  return out
}

function tierAExpressions(): FoundExpression[] {
  const found: FoundExpression[] = []
  const seen = new Set<string>()
  for (const test of conformanceIndex()) {
    if (test.tier !== 'A') continue
    const testDir = join(conformanceDir, 'policies', test.dir, '.kyverno-test')
    const spec = asNode(yaml.load(readFileSync(join(testDir, 'kyverno-test.yaml'), 'utf8'))) ?? {}
    for (const policy of Array.isArray(spec.policies) ? spec.policies : []) {
      const file = resolve(testDir, String(policy))
      if (seen.has(file)) continue
      seen.add(file)
      for (const document of yaml.loadAll(readFileSync(file, 'utf8'))) {
        const node = asNode(document)
        if (node) found.push(...expressionsOf(node, file))
      }
    }
  }
  return found
}

describe.skipIf(!HAS_CONFORMANCE)(`Kyverno library tier-A CEL expressions${WITHOUT_CONFORMANCE}`, () => {
  const expressions = tierAExpressions()

  it('finds the expressions of every tier-A policy', () => {
    expect(expressions.length).toBeGreaterThan(300)
  })

  it('compiles every one of them', () => {
    const failures: string[] = []
    for (const { file, path, expression } of expressions) {
      try {
        compileCel(expression)
      } catch (error) {
        failures.push(`${file.slice(conformanceDir.length + 1)} ${path}: ${(error as Error).message}`)
      }
    }
    expect(failures).toEqual([])
  })
})
