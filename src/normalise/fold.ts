// Text for a column that does not hold Unicode (VARCHAR/CHAR on SQL Server). Such a column
// stores one byte per character in its code page, and the server turns every character it
// cannot hold into `?`. We fold first, so every dialect stores the same readable text.
//
// Kept as they are: ASCII and the Latin-1 block (U+00A0–U+00FF: á ã ç é ñ ü ß Æ º …) — the
// characters code page 1252, the usual one for Portuguese and English collations, shares
// with ISO-8859-1, so the clinic's own system reads them whichever of the two it assumes.
// Everything else is folded to its nearest form (`ễ`→`e`, `Ł`→`L`, `Œ`→`OE`, curly quotes →
// straight ones, `–`→`-`, `…`→`...`) or, when it has none (emoji, other scripts), dropped.

/** Characters without a decomposition to Latin-1, and punctuation 1252 has but Latin-1 lacks. */
const NEAREST: Record<string, string> = {
  Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŀ: 'L', ŀ: 'l', Ŋ: 'N', ŋ: 'n',
  Œ: 'OE', œ: 'oe', Ŧ: 'T', ŧ: 't', ƒ: 'f', ĸ: 'k', ẞ: 'SS', Ɖ: 'D', ɖ: 'd', Ƀ: 'B', ƀ: 'b',
  Ɨ: 'I', ɨ: 'i', Ʉ: 'U', ʉ: 'u', ȷ: 'j',
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'", '\u02BC': "'", '\u02B9': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u2039': '<', '\u203A': '>',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2022': '-', '\u20AC': 'EUR', '\u02C6': '^', '\u02DC': '~'
}

const SPACE_LIKE = /^[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]$/u

/** One byte in code page 1252 and the same character in ISO-8859-1. */
function holds (ch: string): boolean {
  const c = ch.codePointAt(0) as number
  return c <= 0x7E || (c >= 0xA1 && c <= 0xFF && c !== 0xAD)
}

/** The nearest form of one character a 1252 column cannot hold; '' when there is none. */
function nearest (ch: string): string {
  if (NEAREST[ch] !== undefined) return NEAREST[ch]
  if (SPACE_LIKE.test(ch)) return ' '
  // Compatibility decomposition without the marks: ễ → e, ǅ → Dz, ﬁ → fi, Ａ → A.
  const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '')
  const parts = [...bare].map((c) => holds(c) ? c : NEAREST[c] ?? '')
  return bare !== '' && parts.every((p) => p !== '') ? parts.join('') : ''
}

/**
 * `s` as a code page 1252 column can hold it. A dropped character leaves no doubled space
 * and no space at either end where it stood ("Ana 😀 Silva" → "Ana Silva").
 */
export function foldToCodePage (s: string): string {
  let out = ''
  let dropped = false
  for (const ch of s) {
    let kept = holds(ch) ? ch : nearest(ch)
    if (kept === '') {
      dropped = true
      continue
    }
    if (dropped && kept.startsWith(' ') && (out === '' || out.endsWith(' '))) kept = kept.slice(1)
    if (kept !== '') dropped = false
    out += kept
  }
  return dropped && out.endsWith(' ') ? out.slice(0, -1) : out
}
