// CHAR(n) columns come back padded with spaces, and some legacy apps padded
// with NULs; neither is data.
const EDGE_PADDING = /^[\s\u0000]+|[\s\u0000]+$/g;

/** A legacy text value as a trimmed string; blank or non-scalar → undefined. */
export function cleanText(raw: unknown): string | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'bigint') {
    return undefined;
  }
  if (typeof raw === 'number' && !Number.isFinite(raw)) return undefined;
  const text = String(raw).replace(EDGE_PADDING, '');
  return text === '' ? undefined : text;
}

/**
 * Key for case- and accent-insensitive exact name matching:
 * 'JOSÉ  da Conceição ' and 'jose da conceicao' fold to the same string.
 */
export function foldName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lower-cased, trimmed e-mail; undefined when blank or obviously not an address. */
export function normaliseEmail(s: unknown): string | undefined {
  const text = cleanText(s);
  if (text === undefined || !text.includes('@')) return undefined;
  return text.toLowerCase();
}
