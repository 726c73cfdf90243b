/** Appends a field (`key`, `any[0]`) or an index (`[0]`) to a field path that may be empty. */
export function joinPath(base: string, part: string): string {
  if (base === '') return part
  return part.startsWith('[') ? `${base}${part}` : `${base}.${part}`
}
