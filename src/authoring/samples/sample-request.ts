import type { RulesetSpec } from '../../engine/index.js'
import { CATALOG, type RuleTemplate } from '../catalog/index.js'
import { compileInstruction, contextFromLabels } from '../compile-instruction.js'
import { kindFromLabel } from '../text/kinds.js'
import { baseGenericDocument, baseKubernetesDocument, baseTerraformPlan, SAMPLE_KINDS } from './base-documents.js'
import { instructionSamples, type LabelledSample } from './instruction-samples.js'

export interface SampleRequest {
  instruction?: string
  category: string
  type: string
}

export interface ValidSample {
  label: 'valid'
  kind: string
  description: string
  document: Record<string, unknown>
}

export interface SampleResponse {
  category: string
  type: string
  instruction?: string
  /** The ruleset the instruction compiles to, which judged the samples. */
  ruleset?: RulesetSpec
  samples: Array<ValidSample | LabelledSample>
  /** Samples that were made but judged against their label, and so left out. */
  unverified: string[]
}

/** A request naming something the catalog has no samples for; `field` is the body field. */
export class SampleRequestError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message)
    this.name = 'SampleRequestError'
  }
}

export const SAMPLE_CATEGORIES = ['kubernetes', 'terraform', 'generic'] as const

function terraformTypes(catalog: readonly RuleTemplate[]): string[] {
  return [...new Set(catalog.filter((template) => template.platform === 'terraform').flatMap((template) => template.kinds))].sort()
}

/**
 * Sample documents: without an instruction, a valid document of the category and type; with one,
 * a compliant document and non-compliant ones that the compiled ruleset actually passes and fails.
 */
export function generateSamples(request: SampleRequest, catalog: readonly RuleTemplate[] = CATALOG): SampleResponse {
  const platform = contextFromLabels({ platform: request.category }).platform
  if (!platform || (platform === 'generic' && !/^(generic|json)$/i.test(request.category.trim()))) {
    throw new SampleRequestError('category', `"${request.category}" is not a sample category; use one of ${SAMPLE_CATEGORIES.join(', ')}`)
  }
  const type = sampleType(platform, request.type, catalog)
  const response: SampleResponse = { category: platform, type, samples: [], unverified: [] }
  if (request.instruction === undefined || request.instruction.trim() === '') {
    response.samples.push({ label: 'valid', kind: type, description: `a valid ${type}`, document: validDocument(platform, type, catalog) })
    return response
  }
  const labels = { platform, resource: type }
  const { spec, rules } = compileInstruction(request.instruction, labels, catalog)
  const { samples, unverified } = instructionSamples('samples', spec, rules, type)
  response.instruction = request.instruction
  response.ruleset = spec
  response.samples = samples
  response.unverified = unverified
  return response
}

function sampleType(platform: string, type: string, catalog: readonly RuleTemplate[]): string {
  if (platform === 'kubernetes') {
    const kind = kindFromLabel(type)
    if (!kind || !SAMPLE_KINDS.includes(kind)) throw new SampleRequestError('type', `"${type}" is not a Kubernetes kind with samples; use one of ${SAMPLE_KINDS.join(', ')}`)
    return kind
  }
  if (platform === 'terraform') {
    const types = terraformTypes(catalog)
    if (!types.includes(type.trim())) throw new SampleRequestError('type', `"${type}" is not a Terraform resource type with samples; use one of ${types.join(', ')}`)
    return type.trim()
  }
  return type.trim() === '' ? 'json' : type.trim()
}

/** A document of the type that follows every template of the catalog at its example parameters. */
function validDocument(platform: string, type: string, catalog: readonly RuleTemplate[]): Record<string, unknown> {
  if (platform === 'kubernetes') return baseKubernetesDocument(type) ?? {}
  const document = platform === 'terraform' ? baseTerraformPlan(type) : baseGenericDocument()
  const examples = (template: RuleTemplate) => Object.fromEntries(template.parameters.map((parameter) => [parameter.name, parameter.example]))
  for (const template of catalog) {
    if (template.platform !== platform) continue
    if (platform === 'terraform' && !template.kinds.includes(type)) continue
    for (const edit of template.samples(examples(template)).good) edit(document)
  }
  return document
}
