import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { LoadError, parseDocuments, type ClusterData, type CompiledException, type Policy, type Ruleset } from '../engine/index.js'
import { importDocuments, type SkippedRule } from '../import/index.js'
import { loadTestExceptions } from './test-exceptions.js'
import { throughVap, type VapOrigin } from './through-vap.js'
import { TestLoadError } from './test-load-error.js'
import { ContextClusterData } from './context-cluster-data.js'
import { keyResources, type LoadedResource } from './loaded-resource.js'
import type { KyvernoTestFile, UserInfoFile, ValuesFile } from './test-file.js'

/** A foreign policy as imported: which kind it was and the ruleset that stands for it. */
export interface TestPolicy {
  name: string
  kind: string
  ruleset?: Ruleset
  policy?: Policy
  skipped: SkippedRule[]
  /** Run through ValidatingAdmissionPolicies (through-vap.ts): the test's rule and form each rule of the ruleset stands for, by name. */
  vapOrigins?: ReadonlyMap<string, VapOrigin>
}

export interface LoadOptions {
  /** Judge every policy as the ValidatingAdmissionPolicies it exports to, imported back (`verdict test --through-vap`). */
  throughVap?: boolean
}

export interface LoadedTest {
  file: string
  name: string
  definition: KyvernoTestFile
  policies: Map<string, TestPolicy>
  resources: LoadedResource[]
  values: ValuesFile
  userInfo?: { username?: string; groups?: string[] }
  /** The context file's objects and image metadata, for CEL policies' `resource` and `image` calls. */
  cluster?: ClusterData
  /** The test's PolicyExceptions (its `exceptions:` files), imported and compiled, in name order. */
  exceptions: CompiledException[]
  /** The instant the test is judged at: exceptions past their expiresAt no longer apply. */
  now: Date
}

export { TestLoadError }

export function loadTest(file: string, now: Date = new Date(), options: LoadOptions = {}): LoadedTest {
  const definition = readSingle(file) as KyvernoTestFile
  if (typeof definition !== 'object' || definition === null) throw new TestLoadError(file, 'is not a test document')
  const base = dirname(file)
  const policies = new Map<string, TestPolicy>()
  for (const path of definition.policies ?? []) {
    const documents = readAll(resolve(base, path))
    for (const imported of importDocuments(documents)) {
      policies.set(imported.sourceName, {
        name: imported.sourceName,
        kind: imported.sourceKind,
        ruleset: imported.rulesets[0],
        policy: imported.policies[0],
        skipped: imported.skipped,
      })
    }
  }
  const resources = keyResources((definition.resources ?? []).flatMap((path) => readAll(resolve(base, path))))
  const values = definition.variables ? ((readSingle(resolve(base, definition.variables)) ?? {}) as ValuesFile) : {}
  const test: LoadedTest = {
    file,
    name: definition.metadata?.name ?? file,
    definition,
    policies,
    resources,
    values,
    exceptions: loadTestExceptions((definition.exceptions ?? []).map((path) => resolve(base, path)), file, readAll),
    now,
  }
  if (options.throughVap) {
    for (const [name, policy] of policies) policies.set(name, throughVap(policy, test.exceptions, now))
  }
  if (definition.userinfo) {
    const userInfo = (readSingle(resolve(base, definition.userinfo)) as UserInfoFile | undefined)?.userInfo
    if (userInfo) test.userInfo = userInfo
  }
  if (definition.context) {
    const path = resolve(base, definition.context)
    try {
      test.cluster = new ContextClusterData(readSingle(path))
    } catch (error) {
      if (error instanceof TestLoadError) throw error
      throw new TestLoadError(path, error instanceof Error ? error.message : String(error))
    }
  }
  return test
}

export function readAll(path: string): unknown[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new TestLoadError(path, `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  try {
    return parseDocuments(text, path, 'yaml').map((document) => document.value)
  } catch (error) {
    if (error instanceof LoadError) throw new TestLoadError(path, error.message)
    throw error
  }
}

function readSingle(path: string): unknown {
  return readAll(path)[0]
}
