import type { RuleTemplate } from './catalog/index.js'
import type { ClauseRecognition } from './recognize-clause.js'
import { normalizeText, type Clause } from './text/clause.js'

const STOP_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'be', 'is', 'are', 'must', 'should', 'not', 'no', 'all', 'every', 'any', 'with', 'from', 'only', 'need', 'needs'])

function contentWords(text: string): Set<string> {
  return new Set(normalizeText(text).split(/[^a-z0-9]+/).filter((word) => word.length > 1 && !STOP_WORDS.has(word)))
}

/**
 * The templates a clause most likely meant when none took it: those that scored something
 * first, then those whose example phrasings share the most words with it. At most `limit`.
 */
export function suggestTemplates(clause: Clause, catalog: readonly RuleTemplate[], recognition: ClauseRecognition, limit = 3): RuleTemplate[] {
  const chosen: RuleTemplate[] = recognition.ranked.map((candidate) => candidate.template).slice(0, limit)
  if (chosen.length >= limit) return chosen
  const words = contentWords(clause.text)
  const scored = catalog
    .filter((template) => !chosen.includes(template))
    .map((template) => {
      const templateWords = contentWords([template.title, ...template.phrasings].join(' '))
      let shared = 0
      for (const word of words) if (templateWords.has(word)) shared += 1
      return { template, shared }
    })
    .filter((entry) => entry.shared > 0)
    .sort((a, b) => b.shared - a.shared)
  return [...chosen, ...scored.map((entry) => entry.template)].slice(0, limit)
}
