/**
 * Closed-class English words (articles, pronouns, prepositions, conjunctions, auxiliaries) and
 * the verbs and adjectives authors use to talk about rules (a list, not a suffix rule: "restricted"
 * and "staging" are values people write). Written unquoted, such a word is
 * prose: it is never a label key or a value a rule compares against, whatever position the
 * reader found it in ("be set to make certain guarantees", "Define and use labels").
 */
const WORDS = `
a an the this that these those it its they them their there here we you our your he she his her
and or nor but if then else when where while whether unless until because since so though although
as at by for from in into of off on onto out over per to under up upon with within without via about
above across after against along among around before behind below beneath beside between beyond
during except inside near outside through throughout toward towards
is are was were be been being am do does did done have has had having can could may might must shall
should will would ought need needs needed not no yes any all each every some none other others another
such same own only also too very just even still already again ever never always often sometimes
more most less least many much few several both either neither than
what which who whom whose how why
make makes made making use uses used using set sets setting define defines defined defining declare
declares specify specifies specified add adds adding apply applies give gives
given get gets got getting take takes took taken keep keeps kept put puts let lets allow allows
require requires requiring ensure ensures check checks validate validates
enforce enforces prevent prevents block blocks forbid forbids
deny denies reject rejects restrict restricts limit limits
include includes contain contains carry carries provide provides
create creates run runs running ran call calls called name names named mount mounts
consume consumes reuse reused exist exists existing present absent found find finds known
certain specific particular given new old good bad best better important common recommended optional
desired potential potentially possible possibly typically usually generally commonly normally
policy policies rule rules resource resources object objects value values field fields key keys
list lists pattern patterns regex item items entry entries
something anything everything nothing someone anyone everyone nobody one ones thing things way ways
number numbers numeric string strings text word words enough missing empty blank explicit explicitly
`

const ENGLISH = new Set(WORDS.split(/\s+/).filter((word) => word.length > 0))

/** A plain word that reads as English prose when unquoted: a function word or a verb of rule talk. */
export function isProseWord(word: string): boolean {
  return /^[a-z]+$/i.test(word) && ENGLISH.has(word.toLowerCase())
}
