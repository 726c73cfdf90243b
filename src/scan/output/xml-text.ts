/**
 * Text as XML 1.0 may carry it, in an attribute or element: markup characters escaped, and
 * characters XML forbids (control characters, lone surrogates) replaced by U+FFFD, since a rule
 * message can hold anything a manifest held.
 */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- these are the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  )
}

/** An attribute value: line breaks and tabs as character references, which attribute normalization would otherwise turn into spaces. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}
