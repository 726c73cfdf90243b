/** A generated ValidatingAdmissionPolicy or binding as this replica last saw it in the cluster. */
export interface ObservedGenerated {
  /** The Verdict policy it says it was generated from (its verdict.dev/policy annotation). */
  readonly generatedFrom: string | undefined
  readonly spec: unknown
  /** For a policy: the API server has type-checked its current generation (status.observedGeneration), so it judges by it. */
  readonly typeChecked: boolean
}

/**
 * The generated ValidatingAdmissionPolicies and bindings in the cluster, as every replica's watch
 * on them holds them (src/k8s/generated-vap-controller.ts): what the webhook trusts the API server
 * to judge by. Without a cluster, or with VERDICT_GENERATED_VAPS=off, there is none.
 */
export interface GeneratedVapView {
  policy(name: string): ObservedGenerated | undefined
  binding(name: string): ObservedGenerated | undefined
  /** Called after any of them changes. */
  onChange(listener: () => void): () => void
}
