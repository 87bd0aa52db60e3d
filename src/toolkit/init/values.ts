// What a sample of stored values looks like (names, phones, e-mails, CPFs, dates kept as text),
// so `ponte init` judges columns by what they hold and not only by what they are called.
import { isValidCpf, normaliseCpf } from '../../normalise/cpf.js'

/** A stored value as text: drivers give dates as text already, a `Date` only from a stray type. */
export function asText (v: unknown): string {
  if (v instanceof Date) return v.toISOString().replace('T', ' ').slice(0, 19)
  if (Buffer.isBuffer(v)) return v.toString('hex')
  return String(v).trim()
}

/** The share of the non-blank values that pass; undefined when there are none to judge. */
export function share (values: unknown[], test: (text: string) => boolean): number | undefined {
  const texts = values.map(asText).filter((s) => s !== '')
  if (texts.length === 0) return undefined
  return texts.filter(test).length / texts.length
}

/** Mostly letters and spaces (`Ana`, `da Costa`, `O'Neil`, `Dr. Rui Sousa`), not codes or numbers. */
export const NAME_VALUE = /^[\p{L}][\p{L}\s.'’-]*$/u
export function nameLike (values: unknown[]): boolean | undefined {
  const s = share(values, (t) => NAME_VALUE.test(t) && /\p{L}{2}/u.test(t))
  return s === undefined ? undefined : s >= 0.8
}

/**
 * A place's or a service's label: letters with digits and signs (`Urgent Care (24h)`, `Pilsen
 * Clinic #2`, `Women's Health & Pediatrics`), still words and not codes, numbers, phones or dates.
 */
export const LABEL_VALUE = /^[\p{L}\p{N}(][\p{L}\p{N}\s.,;:'’()&#/+°ºª-]*$/u
export function labelLike (values: unknown[]): boolean | undefined {
  const s = share(values, (t) => LABEL_VALUE.test(t) && /\p{L}{2}/u.test(t) && !phoneValue(t) && dateSpelling([t]) === undefined)
  return s === undefined ? undefined : s >= 0.8
}

const PHONE_VALUE = /^\+?[\d\s().\-/]+(\s*(x|ext\.?|ramal|#)\s*\d{1,6})?$/i
export function phoneValue (t: string): boolean {
  const digits = t.replace(/(x|ext\.?|ramal|#)\s*\d+$/i, '').replace(/\D/g, '')
  return PHONE_VALUE.test(t) && digits.length >= 7 && digits.length <= 15 && !DATE_FORMATS.some(([re]) => re.test(t))
}
export const phoneLike = (values: unknown[]): boolean | undefined => mostly(share(values, phoneValue))

export const EMAIL_VALUE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/
export const emailLike = (values: unknown[]): boolean | undefined => mostly(share(values, (t) => EMAIL_VALUE.test(t)))

/** Valid Brazilian CPFs (check digits), so an SSN, a NIF or a record number is never taken for one. */
export const cpfLike = (values: unknown[]): boolean | undefined => mostly(share(values, (t) => {
  const digits = normaliseCpf(t)
  return digits !== undefined && isValidCpf(digits)
}))

const mostly = (s: number | undefined): boolean | undefined => s === undefined ? undefined : s >= 0.8

/** How a date kept as text (or a number) is spelt, with what the mapping calls it and what to say. */
export interface DateSpelling { format: 'datetime' | 'date' | 'text' | 'dmy' | 'ymd' | 'int', withTime: boolean, example: string, note?: string }

const DATE_FORMATS: [RegExp, Omit<DateSpelling, 'example'>][] = [
  [/^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$/, { format: 'datetime', withTime: true }],
  [/^\d{4}-\d{2}-\d{2}$/, { format: 'text', withTime: false }],
  [/^\d{1,2}\/\d{1,2}\/\d{4}$/, { format: 'dmy', withTime: false }],
  [/^\d{1,2}\.\d{1,2}\.\d{4}$/, { format: 'dmy', withTime: false, note: 'dots, not slashes: read as dmy, but a write stores DD/MM/YYYY' }],
  [/^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/, { format: 'int', withTime: false, note: 'YYYYMMDD' }]
]

/**
 * The one spelling most sampled values share (80 %), or undefined: not dates, or no values.
 * YYYYMMDD is `int` in a number column and `ymd` in a text one (`int` on text is refused by check).
 */
export function dateSpelling (values: unknown[], kind?: string): DateSpelling | undefined {
  const texts = values.map(asText).filter((s) => s !== '')
  if (texts.length === 0) return undefined
  for (const [re, spelling] of DATE_FORMATS) {
    const hits = texts.filter((t) => re.test(t))
    if (hits.length / texts.length >= 0.8) return { ...spelling, ...spelling.format === 'int' && kind !== undefined && kind !== 'number' ? { format: 'ymd' } : {}, example: hits[0] }
  }
  return undefined
}

/** An hour of the day kept as text or a time type: `09:30`, `9:30:00`. */
export const HOUR_VALUE = /^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?$/
export const hourLike = (values: unknown[]): boolean | undefined => mostly(share(values, (t) => HOUR_VALUE.test(t)))

/**
 * How sampled date-times spread around today: a start has days ahead and hours through the
 * day; a creation stamp has only days behind. Values that are no date count for nothing.
 */
export function spread (values: unknown[], today: string): { ahead: number, days: number, hours: number, n: number } {
  const isos = values.map(asText).map(toIso).filter((s): s is string => s !== undefined)
  return {
    ahead: isos.filter((s) => s.slice(0, 10) >= today).length,
    days: new Set(isos.map((s) => s.slice(0, 10))).size,
    hours: new Set(isos.map((s) => s.slice(11, 16)).filter((h) => h !== '' && h !== '00:00')).size,
    n: isos.length
  }
}

/** `DD.MM.YYYY`, `DD/MM/YYYY`, `YYYYMMDD` and ISO spellings as ISO text; undefined for what is not a date. */
export function toIso (t: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) return t.replace('T', ' ')
  const dmy = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(t)
  if (dmy) return `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}`
  const ymd = /^(\d{4})(\d{2})(\d{2})$/.exec(t)
  return ymd ? `${ymd[1]}-${ymd[2]}-${ymd[3]}` : undefined
}

/** A column's default as the value it stores (`'M'`, `((0))`, `'-'::character varying` → M, 0, -); undefined for an expression (`now()`). */
export function defaultValue (sql: string | undefined): string | undefined {
  if (sql === undefined) return undefined
  const bare = sql.trim().replace(/^\(+|\)+$/g, '').replace(/::[\w ]+$/, '')
  const quoted = /^'((?:[^']|'')*)'$/.exec(bare)
  if (quoted) return quoted[1].replace(/''/g, '\'')
  return /^-?\d+(\.\d+)?$/.test(bare) ? bare : undefined
}
