import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export type FixtureName =
  | 'pod-create'
  | 'pod-create-dry-run'
  | 'pod-update'
  | 'pod-delete'
  | 'pod-status-update'
  | 'pod-exec-connect'
  | 'deployment-create'
  | 'deployment-scale-update'
  | 'statefulset-create'
  | 'daemonset-create'
  | 'replicaset-create'
  | 'job-create'
  | 'cronjob-create'
  | 'namespace-create'
  | 'clusterrole-create'

export interface ReviewFixture {
  apiVersion: string
  kind: string
  request: {
    uid: string
    operation: string
    namespace?: string
    name?: string
    dryRun?: boolean
    userInfo: { username: string }
    object: Record<string, unknown> | null
    oldObject: Record<string, unknown> | null
  } & Record<string, unknown>
}

/** An AdmissionReview as the API server sends it (test/admission/fixtures), a fresh copy each time. */
export function fixture(name: FixtureName): ReviewFixture {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`fixtures/${name}.json`, import.meta.url)), 'utf8')) as ReviewFixture
}

/** A fixture with a new uid and changes applied, so each test's audits are its own. */
export function variant(name: FixtureName, uid: string, change: (review: ReviewFixture) => void = () => {}): ReviewFixture {
  const review = fixture(name)
  review.request.uid = uid
  change(review)
  return review
}
