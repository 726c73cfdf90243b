/**
 * Fixes small typos of known words ("privilaged" -> "privileged", "contianers" -> "containers"):
 * a word that is not in the vocabulary is replaced by the vocabulary word at edit distance 1
 * (words of 5 to 7 letters) or at most 2 (8 letters and more), when exactly one such word is
 * closest. Only plain words of letters are touched, so values (registry.acme.io, cost-center,
 * 512Mi, :latest) are never changed; short words are left alone because one edit turns them
 * into other real words.
 */
export function correctTypos(text: string, vocabulary: ReadonlySet<string>): string {
  if (vocabulary.size === 0) return text
  return text.replace(/(?<![\w./:=-])[a-z]{5,}(?![\w./:=-])/g, (word) => (vocabulary.has(word) ? word : (closestWord(word, vocabulary) ?? word)))
}

function closestWord(word: string, vocabulary: ReadonlySet<string>): string | undefined {
  const limit = word.length >= 8 ? 2 : 1
  let best: string | undefined
  let bestDistance = limit + 1
  let tie = false
  for (const candidate of vocabulary) {
    if (Math.abs(candidate.length - word.length) > limit) continue
    const distance = editDistance(word, candidate, limit)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
      tie = false
    } else if (distance === bestDistance) {
      tie = true
    }
  }
  return bestDistance <= limit && !tie ? best : undefined
}

/** Damerau-Levenshtein (adjacent transpositions count once), giving up above `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min((rows[i - 1]?.[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (rows[i - 1]?.[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (rows[i - 2]?.[j - 2] ?? 0) + 1)
      row.push(value)
      rowMin = Math.min(rowMin, value)
    }
    if (rowMin > limit) return rowMin
    rows.push(row)
  }
  return rows[a.length]?.[b.length] ?? Number.POSITIVE_INFINITY
}
