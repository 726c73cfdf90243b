import type { PathSegment } from '../autogen/pod-template-path.js'
import type { ResourcePath } from './pattern-path.js'

/**
 * Why part of a resource does not match its pattern, carrying what Kyverno's matcher passes up
 * as a Go error. Kyverno decides whether a rule fails or is skipped by the kind of that error,
 * and for errors that are not anchor errors by the words in its text, so the text is kept as
 * Kyverno writes it.
 *
 * - plain: a value or structure that does not match;
 * - conditional / global / negation: Kyverno's anchor errors;
 * - skipped: every alternative at one level was skipped by conditional anchors (Kyverno's
 *   PatternError with Skip), its text the skipped errors joined by "; ".
 */
export type MismatchKind = 'plain' | 'conditional' | 'global' | 'negation' | 'skipped'

/** What a failure asks of one field, for explanations and remediations. */
export type Requirement =
  | { kind: 'match'; pattern: string | number | boolean | null }
  | { kind: 'object' }
  | { kind: 'list' }
  | { kind: 'set' }
  | { kind: 'unset' }
  | { kind: 'some-item' }

export interface MismatchFinding {
  /** The field in the judged subject. */
  field: ResourcePath
  /** The value found there; undefined when the field is missing. */
  actual: unknown
  requirement: Requirement
}

/** A finding with its field spelled out, in the submitted document. */
export interface PatternField {
  path: PathSegment[]
  /** Undefined when the field is missing. */
  actual: unknown
  requirement: Requirement
}

export class Mismatch {
  constructor(
    readonly kind: MismatchKind,
    readonly message: string,
    readonly finding?: MismatchFinding,
  ) {}
}

const CONDITIONAL = 'conditional anchor mismatch'
const GLOBAL = 'global anchor mismatch'
const NEGATION = 'negation anchor matched in resource'

export function conditionalMismatch(detail: string): Mismatch {
  return new Mismatch('conditional', `${CONDITIONAL}: ${detail}`)
}

export function globalMismatch(detail: string): Mismatch {
  return new Mismatch('global', `${GLOBAL}: ${detail}`)
}

export function negationMismatch(detail: string, finding: MismatchFinding): Mismatch {
  return new Mismatch('negation', `${NEGATION}: ${detail}`, finding)
}

export function skippedMismatch(skips: readonly Mismatch[]): Mismatch {
  return new Mismatch('skipped', skips.map((skip) => skip.message).join('; '))
}

function isAnchorError(mismatch: Mismatch): boolean {
  return mismatch.kind === 'conditional' || mismatch.kind === 'global' || mismatch.kind === 'negation'
}

/** Kyverno's IsConditionalAnchorError: by kind for anchor errors, else by the words in the text. */
export function isConditional(mismatch: Mismatch): boolean {
  return isAnchorError(mismatch) ? mismatch.kind === 'conditional' : mismatch.message.includes(CONDITIONAL)
}

export function isGlobal(mismatch: Mismatch): boolean {
  return isAnchorError(mismatch) ? mismatch.kind === 'global' : mismatch.message.includes(GLOBAL)
}

export function isNegation(mismatch: Mismatch): boolean {
  return isAnchorError(mismatch) ? mismatch.kind === 'negation' : mismatch.message.includes(NEGATION)
}

/** A conditional or global anchor that did not hold: the part (or the rule) does not apply. */
export function isSkip(mismatch: Mismatch): boolean {
  return isConditional(mismatch) || isGlobal(mismatch)
}

/**
 * Where Kyverno reports a mismatch: a path, or 'none' where it returns an empty path (an array
 * length mismatch), which turns the rule's result into an error rather than a failure.
 */
export type ReportedPath = ResourcePath | 'none'

export interface Failure {
  path: ReportedPath
  mismatch: Mismatch
}
