import { substituteVariables, type KyvernoContext } from '../jmespath/index.js'
import { holdsVariables } from '../pattern/index.js'

/**
 * A message with its `{{ }}` variables substituted, or undefined when substitution fails or
 * does not give a string (callers then fall back as Kyverno does, each in its own way).
 */
export function substitutedText(text: string, context: KyvernoContext): string | undefined {
  if (!holdsVariables(text)) return text
  try {
    const value = substituteVariables(text, context)
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}
