import { MAX_INSTRUCTION_LENGTH } from '../authoring/instruction-length.js'
import { InvalidRequestError } from './service-errors.js'

/** The spec's other way to create a ruleset: `{instruction, labels}` (and an optional description). */
export interface InstructionBody {
  instruction: string
  labels: Record<string, string>
  description?: string
}

const FIELDS = new Set(['instruction', 'labels', 'description', 'name'])

/** A plain-form body that carries an instruction and no rules. */
export function isInstructionBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const record = body as Record<string, unknown>
  return 'instruction' in record && !('rules' in record) && !('apiVersion' in record) && !('kind' in record)
}

/** Checks every field, naming the first wrong one; `name` may repeat the path's name. */
export function parseInstructionBody(name: string, body: Record<string, unknown>): InstructionBody {
  for (const key of Object.keys(body)) {
    if (!FIELDS.has(key)) throw new InvalidRequestError(`body.${key}: unknown field; an instruction body has instruction, labels and description`)
  }
  if (body.name !== undefined && body.name !== name) throw new InvalidRequestError(`body.name: ${JSON.stringify(body.name)} differs from the name in the path, "${name}"`)
  const { instruction, labels, description } = body
  if (typeof instruction !== 'string') throw new InvalidRequestError('body.instruction: must be a string')
  if (instruction.trim() === '') throw new InvalidRequestError('body.instruction: must not be empty')
  if (instruction.length > MAX_INSTRUCTION_LENGTH) {
    throw new InvalidRequestError(`body.instruction: ${instruction.length} characters; at most ${MAX_INSTRUCTION_LENGTH}`)
  }
  if (labels !== undefined && (typeof labels !== 'object' || labels === null || Array.isArray(labels))) {
    throw new InvalidRequestError('body.labels: must be a map of strings')
  }
  for (const [key, value] of Object.entries((labels ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new InvalidRequestError(`body.labels.${key}: must be a string`)
    if (key === '') throw new InvalidRequestError('body.labels: keys must not be empty')
  }
  if (description !== undefined && typeof description !== 'string') throw new InvalidRequestError('body.description: must be a string')
  const parsed: InstructionBody = { instruction, labels: { ...((labels ?? {}) as Record<string, string>) } }
  if (description !== undefined) parsed.description = description
  return parsed
}
