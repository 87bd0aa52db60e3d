// Text for a column that does not hold Unicode (VARCHAR/CHAR on SQL Server, a latin1 column
// on MariaDB). Such a column stores one byte per character in its code page, and the server
// turns every character it cannot hold into `?`. A name may lose only what the interface
// ignores when it compares names (normalise/text.ts foldName: accents, kinds of space), so the
// client is still found by the name they gave; any other loss refuses the write instead.
//
// Kept as they are: ASCII and the Latin-1 block (U+00A0–U+00FF: á ã ç é ñ ü ß Æ º …) — the
// characters code page 1252, the usual one for Portuguese and English collations, shares
// with ISO-8859-1, so the clinic's own system reads them whichever of the two it assumes.

const SPACE_LIKE = /^[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]$/u
const MARK = /^\p{M}$/u

/** One byte in code page 1252 and the same character in ISO-8859-1. */
function holds (ch: string): boolean {
  const c = ch.codePointAt(0) as number
  return c <= 0x7E || (c >= 0xA1 && c <= 0xFF && c !== 0xAD)
}

/** `ch` as the code page holds it with its accents dropped (`ễ` → `e`); undefined when that is not enough (`Ł`, `李`, an emoji). */
function withoutAccents (ch: string): string | undefined {
  if (SPACE_LIKE.test(ch)) return ' '
  if (MARK.test(ch)) return ''
  const bare = ch.normalize('NFD').replace(/\p{M}/gu, '')
  return bare !== '' && [...bare].every(holds) ? bare : undefined
}

/**
 * `s` as a code page 1252 column can hold it, the same name under foldName; undefined when a
 * character of it has no such form there (other scripts, emoji, `Ł`, `€`, curly quotes).
 */
export function foldToCodePage (s: string): string | undefined {
  let out = ''
  for (const ch of s) {
    const kept = holds(ch) ? ch : withoutAccents(ch)
    if (kept === undefined) return undefined
    out += kept
  }
  return out
}
