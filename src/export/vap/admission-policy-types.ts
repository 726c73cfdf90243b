import type { LabelSelector } from '../../engine/model/label-selector.js'

/**
 * The admissionregistration.k8s.io/v1 shapes the generator writes: only the fields it sets, with
 * the API server's names, so a value serialises to a manifest `kubectl apply` takes as it is.
 */

export const ADMISSION_API_VERSION = 'admissionregistration.k8s.io/v1'

export type VapOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*'

/** NamedRuleWithOperations: apiGroups x apiVersions x resources, for these operations (and names). */
export interface ResourceRule {
  apiGroups: string[]
  apiVersions: string[]
  resources: string[]
  operations: VapOperation[]
  resourceNames?: string[]
}

export interface MatchResources {
  resourceRules?: ResourceRule[]
  excludeResourceRules?: ResourceRule[]
  namespaceSelector?: LabelSelector
  objectSelector?: LabelSelector
  matchPolicy?: 'Exact' | 'Equivalent'
}

export interface NamedExpression {
  name: string
  expression: string
}

export interface VapValidation {
  expression: string
  message?: string
  messageExpression?: string
}

export interface ObjectMeta {
  name: string
  annotations?: Record<string, string>
}

export interface ValidatingAdmissionPolicy {
  apiVersion: typeof ADMISSION_API_VERSION
  kind: 'ValidatingAdmissionPolicy'
  metadata: ObjectMeta
  spec: {
    failurePolicy: 'Fail' | 'Ignore'
    matchConstraints: MatchResources
    matchConditions?: NamedExpression[]
    variables?: NamedExpression[]
    validations: VapValidation[]
  }
}

export interface ValidatingAdmissionPolicyBinding {
  apiVersion: typeof ADMISSION_API_VERSION
  kind: 'ValidatingAdmissionPolicyBinding'
  metadata: ObjectMeta
  spec: {
    policyName: string
    validationActions: ('Deny' | 'Warn' | 'Audit')[]
    matchResources?: MatchResources
  }
}
