/**
 * A requirement said with "there": "there must not be an image containing the name `tiller`", "there
 * must be a hostname for each rule defined", "for every containerPort defined there must also be a
 * name specified". Said again with the thing as the subject ("an image must not contain the name
 * `tiller`", "each rule defined must have a hostname"), it is read as any other clause. Undefined
 * for a sentence of another shape.
 */
const THERE_NOT = /^\s*there\s+(?:(?:must|should|shall|may|can)\s*(?:not|never)\s+be|(?:must|should|shall)\s+be\s+no|(?:is|are)\s+(?:not|no|never))\s+(?:an?\s+|any\s+)?(.+?)\s+(containing|including|using|referencing|mounting|matching|requesting|with|that\s+(?:contains?|includes?|uses?|references?|mounts?|has|have)|which\s+(?:contains?|includes?|uses?|references?|mounts?|has|have))\s+(\S.*)$/i

const PARTICIPLE_VERB: Readonly<Record<string, string>> = { containing: 'contain', including: 'include', using: 'use', referencing: 'reference', mounting: 'mount', matching: 'match', requesting: 'request', with: 'have' }

/** What is there, for each of what: "a hostname for each rule defined", "for every containerPort defined ... a name specified". */
const ADJUNCT = String.raw`(?:\s+(?:defined|listed|declared|specified|given|set|configured|present))?`
const THERE_FOR_EACH = new RegExp(String.raw`^\s*there\s+(?:must|should|shall|has to|needs to)\s+(?:also\s+)?be\s+(?:also\s+)?(?:an?|one)\s+([\w\`"' -]+?)${ADJUNCT}\s+(?:for|in|on)\s+(?:each|every|all)\s+([\w\`"' -]+?)${ADJUNCT}\s*[.!]?$`, 'i')
const FOR_EACH_THERE = new RegExp(String.raw`^\s*(?:for|in|on)\s+(?:each|every|all|any)\s+([\w\`"' -]+?)${ADJUNCT}\s*,?\s+there\s+(?:must|should|shall|has to|needs to)\s+(?:also\s+)?be\s+(?:also\s+)?(?:an?\s+|one\s+)?([\w\`"' -]+?)${ADJUNCT}\s*[.!]?$`, 'i')

export interface ThereSaid {
  text: string
  /** What must not be there ("image"): the reading is about one value of it, so a noun naming a list is not read. */
  banned?: string
  /** "a B for each A": every element of a list has a field; no other reading of the words is meant. */
  eachElement?: true
}

export function thereAsSubject(text: string): ThereSaid | undefined {
  const not = THERE_NOT.exec(text)
  if (not?.[1] && not[2] && not[3]) {
    const word = not[2].toLowerCase().replace(/^(?:that|which)\s+/, '')
    const verb = PARTICIPLE_VERB[word] ?? (word === 'has' ? 'have' : word.replace(/(?<=[^s])s$|(?<=ss)es$/, ''))
    return { text: `The ${not[1]} must not ${verb} ${not[3]}`, banned: not[1] }
  }
  const forEach = THERE_FOR_EACH.exec(text)
  if (forEach?.[1] && forEach[2]) return { text: `Each ${forEach[2]} must have a ${forEach[1]}.`, eachElement: true }
  const eachThere = FOR_EACH_THERE.exec(text)
  if (eachThere?.[1] && eachThere[2]) return { text: `Each ${eachThere[1]} must have a ${eachThere[2]}.`, eachElement: true }
  return undefined
}
