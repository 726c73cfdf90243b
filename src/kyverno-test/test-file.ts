/** The parts of a Kyverno CLI `kyverno-test.yaml` (cli.kyverno.io/v1alpha1 Test) that this runner reads. */
export interface KyvernoTestFile {
  metadata?: { name?: string }
  policies?: string[]
  resources?: string[]
  variables?: string
  userinfo?: string
  /** Context file (cli.kyverno.io/v1alpha1 Context): what CEL `resource` and `image` calls find. */
  context?: string
  /** Files of Kyverno PolicyExceptions (kyverno.io/v2, policies.kyverno.io), relative to the test file. */
  exceptions?: string[]
  results?: ExpectedResultRow[]
}

export interface ExpectedResultRow {
  policy: string
  rule?: string
  isValidatingPolicy?: boolean
  kind?: string
  resources?: string[]
  result: string
}

/** The values (`variables:`) file; `kind` is not checked, as the Kyverno CLI does not check it. */
export interface ValuesFile {
  globalValues?: Record<string, unknown>
  policies?: {
    name: string
    resources?: { name: string; values?: Record<string, unknown> }[]
    rules?: { name: string; values?: Record<string, unknown> }[]
  }[]
  namespaceSelector?: { name: string; labels?: Record<string, string> }[]
  namespaces?: Record<string, unknown>[]
}

export interface UserInfoFile {
  userInfo?: { username?: string; groups?: string[] }
}
