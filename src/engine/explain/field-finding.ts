import type { PathSegment } from '../autogen/pod-template-path.js'

/** One field of the judged document that a failing rule checks, and what the rule wants of it. */
export interface FieldFinding {
  /** Where the field is: `spec.containers[0].securityContext.privileged`, `metadata.labels["app.kubernetes.io/name"]`. */
  path: string
  /** The value found; absent when the field is missing (or is a map or a list of maps, which would only be noise). */
  actual?: unknown
  /** A value that complies, when the rule asks for one value (`false` for "must not be true"). */
  expected?: unknown
  /** What the rule asks of the field, in words: "must be set", "must not be 0", "must be one of ...". */
  requirement: string
}

/** A finding whose path is still segments of the subject the rule judged (a controller's pod view under autogen). */
export interface RawFinding {
  path: readonly PathSegment[]
  actual?: unknown
  expected?: unknown
  requirement: string
}

const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** Dotted where keys are plain, bracketed and quoted where they hold dots or slashes, as kubectl users read paths. */
export function formatPath(path: readonly PathSegment[]): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else if (BARE_KEY.test(segment)) text += text === '' ? segment : `.${segment}`
    else text += `[${JSON.stringify(segment)}]`
  }
  return text
}

/** Scalars and lists of scalars read well next to a path; a whole container spec would drown it. */
export function isReadable(value: unknown): boolean {
  const scalar = (item: unknown) => item === null || typeof item !== 'object'
  return scalar(value) || (Array.isArray(value) && value.every(scalar))
}
