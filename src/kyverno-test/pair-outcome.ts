/** One expected (resource, rule) pair of a test and what Verdict made of it. */
export interface PairOutcome {
  test: string
  policy: string
  /** The rule as the row names it; the policy name for ValidatingPolicy rows. */
  rule: string
  resource: string
  expected: string
  actual: string
  /** Why the actual result is what it is, when it is not a plain rule result. */
  detail?: string
  /** The PolicyException of the test that made the result a skip. */
  exception?: string
}

export function pairKey(pair: Pick<PairOutcome, 'test' | 'policy' | 'rule' | 'resource'>): string {
  return [pair.test, pair.policy, pair.rule, pair.resource].join(' ')
}
