/**
 * "only the port range 32000 to 33000 may be used for Service resources", "only `gp3` or `io2`
 * can be chosen as the volume type": what alone is permitted is what is required. The sentence is
 * said again as a requirement on the field its words name: "for Service resources, port must be in
 * the range 32000 to 33000". Read only when the words before the values name something (the field)
 * and the values are written (numbers, quoted or code literals); otherwise the sentence is left as it is.
 * "The only X that can be mounted as Y is V" likewise says X must be V, where there is one.
 */
const ONLY_MAY = /^(.*?)\bonly\s+(?:the\s+)?([^.;]+?)\s+(?:may|can)\s+be\s+(?:used|set|specified|chosen|requested|configured|exposed|given)\b([^.;]*?)[.;]?\s*$/i

/** Where the values start: the first number or literal. */
const FIRST_VALUE = /(?<![\w.-])(?:\d|[`"'])/

/** "the only directory that can be mounted as a hostPath volume is /data": the one thing permitted, named after. */
const THE_ONLY = /^(.*?)\bthe only\s+([^.;]+?)\s+(?:that\s+|which\s+)?(?:can|may)\s+be\s+(used|set|specified|chosen|requested|configured|exposed|given|mounted|pulled|referenced)\b([^.;]*?)\s+(?:is|are)\s+((?:\d|[`"'/])[^;]*?)[.;]?\s*$/i

export function onlyPermittedAsRequired(text: string): string | undefined {
  const theOnly = THE_ONLY.exec(text)
  if (theOnly?.[2] && theOnly[3] && theOnly[5]) {
    // What is not there at all is not restricted: the requirement holds where the thing is.
    const [, lead = '', noun, verb, rest = '', values] = theOnly
    const several = /,|\bor\b|\band\b/.test(values)
    return `${lead}${noun} ${verb}${rest} must be ${several ? 'one of ' : ''}${values.trim()} if set.`
  }
  const match = ONLY_MAY.exec(text)
  if (!match?.[2]) return undefined
  const [, lead = '', phrase, rest = ''] = match
  const start = FIRST_VALUE.exec(phrase)
  if (!start || start.index === 0) return undefined
  const words = phrase.slice(0, start.index).trim()
  const values = phrase.slice(start.index).trim()
  const range = /\branges?$/i.test(words)
  const field = words.replace(/\s+(?:ranges?|values?|of)$/i, '').trim()
  if (field === '' || values === '') return undefined
  const several = /,|\bor\b|\band\b/.test(values) && !range
  const asked = `${field} must be ${range ? 'in the range ' : several ? 'one of ' : ''}${values}`
  // "... as the volume type", "... for Service resources": the scope or the field, kept in front.
  const scope = rest.trim()
  return `${lead}${scope !== '' ? `${scope}, ` : ''}${asked}.`
}
