/**
 * The words of a name or phrase, as a field's name and an author's words are compared:
 * "serviceAccountName" is service, account, name; "Secret resources" is secret, resources.
 * `singular` also folds plurals ("policies" is policy, "secrets" is secret), so a list's name
 * matches its element's word.
 */
export function nameWords(text: string, options: { singular?: boolean } = {}): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
  return options.singular ? words.map((word) => word.replace(/ies$/, 'y').replace(/(?<=[a-z]{3})s$/, '')) : words
}
