// Typed readers: what a mapped value means for a field of the interface. Every reader
// returns undefined for what cannot be read, so one sloppy row never fails a whole list.
import type { Value } from '../model.js'
import type { Reader } from './value.js'
import { cleanText } from '../../normalise/text.js'
import { readDate, readHour } from '../../normalise/datetime.js'
import { memoText } from './memo.js'
import { endAfterLastMinute, endDateAfterLastMinute } from './inclusive.js'
import { patternMinutes } from './length-pattern.js'
import { readDecimal } from '../../normalise/decimal.js'

export type Decoder<T> = (row: Record<string, unknown>) => T | undefined

const TRUTHY = new Set(['1', 'S', 'Y', 'YES', 'SIM', 'T', 'TRUE', 'V'])
const TRUE_SPELLINGS = ['1', 'T', 'TRUE']
const FALSE_SPELLINGS = ['0', 'F', 'FALSE']

/**
 * A `trueValues` entry as stored text, upper-cased: the mapping's `true`/`false` is a boolean
 * column's value, which a database without booleans keeps as 1/0 (MariaDB's TINYINT(1), SQLite).
 */
function spellings (t: unknown): string[] {
  if (typeof t === 'boolean') return t ? TRUE_SPELLINGS : FALSE_SPELLINGS
  return [String(t).trim().toUpperCase()]
}

export function idOf (read: Reader): Decoder<string> {
  return (row) => {
    const x = read(row)
    if (x === null || x === undefined) return undefined
    if (typeof x === 'number' && Number.isInteger(x)) return String(x) // no padding to trim
    const s = String(x).trim()
    return s === '' ? undefined : s
  }
}

export function textOf (read: Reader): Decoder<string> {
  return (row) => cleanText(read(row))
}

export function numberOf (v: Value, read: Reader): Decoder<number> {
  const divide = v.divide ?? 1
  const mark = v.decimal ?? '.'
  return (row) => {
    const n = readDecimal(read(row), mark)
    return n === undefined ? undefined : n / divide
  }
}

const PER_MINUTE = { minutes: 1, seconds: 1 / 60, hours: 60 }

/** A duration in whole minutes; the interface says positive, so zero and less read as none. */
export function minutesOf (v: Value, read: Reader): Decoder<number> {
  if (v.pattern) {
    const per = v.pattern.per
    return (row) => patternMinutes(read(row), per)
  }
  const num = numberOf(v, read)
  const factor = PER_MINUTE[v.unit ?? 'minutes']
  return (row) => {
    const n = num(row)
    if (n === undefined) return undefined
    const minutes = Math.round(n * factor)
    return minutes > 0 ? minutes : undefined
  }
}

export function booleanOf (v: Value, read: Reader): Decoder<boolean> {
  const truthy = v.trueValues ? new Set(v.trueValues.flatMap(spellings)) : TRUTHY
  const invert = v.invert === true
  return (row) => {
    const x = read(row)
    if (x === null || x === undefined) return undefined
    // A boolean column (PostgreSQL's, a driver's bit) matches any spelling of its value.
    if (typeof x === 'boolean') return (x ? TRUE_SPELLINGS : FALSE_SPELLINGS).some((s) => truthy.has(s)) !== invert
    return truthy.has(String(x).trim().toUpperCase()) !== invert
  }
}

export function dateOf (v: Value, read: Reader, fallback: 'date' | 'datetime' = 'date'): Decoder<string> {
  // 'dmy' and 'ymd' are text too: the reader recognises DD/MM/YYYY and YYYYMMDD on its own.
  const format = (v.format === 'dmy' || v.format === 'ymd' ? 'text' : v.format ?? fallback) as Parameters<typeof readDate>[1]
  // A list holds few distinct stored dates: each text is read once (memo.ts).
  // An inclusive date-time end at 23:59 stands for the next day's midnight.
  const date = v.inclusive === true && format === 'datetime'
    ? memoText((x) => { const d = readDate(x, format); const h = readHour(x, format); return d === undefined || h === undefined ? d : endDateAfterLastMinute(d, h) })
    : memoText((x) => readDate(x, format))
  return (row) => date(read(row))
}

export function hourOf (v: Value, read: Reader, fallback: 'text' | 'datetime' = 'text'): Decoder<string> {
  const format = (v.format ?? fallback) as Parameters<typeof readHour>[1]
  const inclusive = v.inclusive === true
  const hour = memoText((x) => { const h = readHour(x, format); return inclusive && h !== undefined ? endAfterLastMinute(h) : h })
  return (row) => hour(read(row))
}
