// CHAR(n) columns come back padded with spaces, and some legacy apps padded
// with NULs; neither is data.
// eslint-disable-next-line no-control-regex -- NUL padding is what this strips
const EDGE_PADDING = /^[\s\u0000]+|[\s\u0000]+$/g

/** Printable ASCII other than space, or a character from U+00A1 to U+167F: never what the trim removes (\s, NUL). */
function isPlain (code: number): boolean {
  return (code > 32 && code < 127) || (code > 0xa0 && code < 0x1680)
}

/** A legacy text value as a trimmed string; blank or non-scalar → undefined. */
export function cleanText (raw: unknown): string | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'bigint') {
    return undefined
  }
  if (typeof raw === 'number' && !Number.isFinite(raw)) return undefined
  if (typeof raw === 'string' && raw.length > 0 && isPlain(raw.charCodeAt(0)) && isPlain(raw.charCodeAt(raw.length - 1))) {
    return raw // the usual case: nothing at either edge to trim (no regular expression per value)
  }
  const text = String(raw).replace(EDGE_PADDING, '')
  return text === '' ? undefined : text
}

/**
 * Key for case- and accent-insensitive exact name matching:
 * 'JOSÉ  da Conceição ' and 'jose da conceicao' fold to the same string.
 */
export function foldName (s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
}

/** Lower-cased, trimmed e-mail; undefined when blank or obviously not an address. */
export function normaliseEmail (s: unknown): string | undefined {
  const text = cleanText(s)
  if (text === undefined || !text.includes('@')) return undefined
  return text.toLowerCase()
}

/** Text with each digit as 9, trailing spaces dropped: how a value is spelt, without the value. */
export function textShape (s: string): string {
  return s.trimEnd().replace(/\d/g, '9')
}

/** A name as a system keeping names in upper case stores it (`Graças` → `GRAÇAS`). */
export function upperName (s: string): string {
  return s.toLocaleUpperCase('pt-BR')
}
