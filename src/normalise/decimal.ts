// Numbers kept as text (a price `1.150,50`): read by the decimal mark the mapping declares
// (`decimal`), never guessed from the value, so `1.150` means one thing for the whole column.
export type DecimalMark = '.' | ','

// A currency sign before the digits, as desks type prices (`R$ 1.150,50`).
const CURRENCY = /^(?:R\$|US\$|\$|€|£)\s*/
const LONE_COMMA = /^[-+]?\d+,\d+$/
const COMMA_PLAIN = /^[-+]?\d+(?:,\d+)?$/
const COMMA_GROUPED = /^[-+]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$/
/** Thousands grouped with dots and a decimal comma: the Brazilian spelling a dot-mark column cannot read. */
const LOOKS_COMMA = /^[-+]?\d{1,3}(?:\.\d{3})+,\d+$/
/** Thousands grouped with commas and a decimal dot, or a plain decimal dot: a comma-mark column's other spelling. */
const LOOKS_DOT = /^[-+]?(?:\d{1,3}(?:,\d{3})+\.\d+|\d+\.\d{1,2})$/

function stripped (text: string): string {
  return text.trim().replace(CURRENCY, '')
}

/**
 * The number a stored value holds, undefined when it is blank or cannot be read under `mark`.
 * Under `.` (the default) a lone comma is a decimal mark too (`250,00` → 250); `1.150` is 1.15.
 * Under `,` dots group thousands (`1.150,50` → 1150.5, `1.150` → 1150).
 */
export function readDecimal (raw: unknown, mark: DecimalMark = '.'): number | undefined {
  if (raw === null || raw === undefined) return undefined
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined
  if (typeof raw === 'bigint') return Number(raw)
  const s = stripped(String(raw))
  if (s === '') return undefined
  let n: number
  if (mark === ',') {
    if (!COMMA_PLAIN.test(s) && !COMMA_GROUPED.test(s)) return undefined
    n = Number(s.replaceAll('.', '').replace(',', '.'))
  } else {
    n = Number(LONE_COMMA.test(s) ? s.replace(',', '.') : s)
  }
  return Number.isFinite(n) ? n : undefined
}

/** Whether a stored text is spelt in the other convention than `mark` (what `ponte check` warns of). */
export function spelledOtherwise (raw: unknown, mark: DecimalMark = '.'): boolean {
  if (typeof raw !== 'string') return false
  const s = stripped(raw)
  return mark === ',' ? LOOKS_DOT.test(s) : LOOKS_COMMA.test(s)
}
