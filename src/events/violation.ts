/** A Kubernetes object an Event is about: events.k8s.io/v1 `regarding` and `related`. */
export interface ObjectReference {
  apiVersion: string
  kind: string
  name: string
  /** Absent for a cluster-scoped object. */
  namespace?: string
  /** Absent for an object that does not exist: a denied CREATE was never stored. */
  uid?: string
}

/** Where a violation was found: `action` of the Event, and which reporting controller it names. */
export type ViolationAction = 'Admission' | 'Scan'

/** One rule's violation on one object, as a Kubernetes Event records it. */
export interface Violation {
  action: ViolationAction
  regarding: ObjectReference
  related?: ObjectReference
  /**
   * `policy/ruleset/rule`. Violations of one rule on one object that differ only in their note
   * (a Policy resource hears of every object its CREATE denials name) are similar: past a few,
   * they are counted on one combined Event.
   */
  rule: string
  /** What `kubectl describe` shows as the message; at most 1,024 bytes reach the API server. */
  note: string
}

/**
 * What the admission webhook and background scans record violations through. `record` never
 * waits and never throws: the Event is written later, or dropped and counted.
 */
export interface ViolationEvents {
  record(violation: Violation): void
  /** The Policy resource (policies.verdict.dev) a policy was stored from; undefined for a policy made through the REST API. */
  policyResource(policy: string): ObjectReference | undefined
}
