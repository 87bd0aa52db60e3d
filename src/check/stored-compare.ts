// Whether a column holds what the mapping says a write puts there, read as stored (a driver's
// number, text, Date or bytes) against the value Ponte bound. CHAR padding and a date read as
// midnight are the column's form, not a difference; anything else is.
import type { NowParts } from '../normalise/datetime.js'
import type { LiveTable } from '../db/columns.js'

export type Columns = Record<string, unknown>

/** The columns whose value does not depend on the clock (what `now` fills is not compared). */
export function steady (at: (now: NowParts) => Columns): Columns {
  const a = at({ date: '2001-02-03', time: '04:05:06', datetime: '2001-02-03 04:05:06', at: new Date('2001-02-03T04:05:06Z') })
  const b = at({ date: '2002-03-04', time: '05:06:07', datetime: '2002-03-04 05:06:07', at: new Date('2002-03-04T05:06:07Z') })
  return Object.fromEntries(Object.entries(a).filter(([c, v]) => same(v, b[c])))
}

export interface Difference {
  column: string
  /** Why, in words that never repeat what the row holds (it may be copied from a patient's). */
  why: string
}

/** Each expected column against the stored row, and against the column's declared length. */
export function differences (expected: Columns, stored: Columns, table: LiveTable | undefined): Difference[] {
  const out: Difference[] = []
  for (const [column, value] of Object.entries(expected)) {
    const live = table?.columns.get(column.toLowerCase())
    if (typeof value === 'string' && live?.length !== undefined && value.length > live.length) {
      out.push({ column, why: `the mapping writes ${describe(value)} (${value.length} characters) into column \`${column}\`, which holds at most ${live.length}` })
    } else if (!same(stored[column], value)) {
      out.push({ column, why: `column \`${column}\` should hold ${describe(value)} but holds something else after the write (a trigger, a default or another write of the mapping changed it)` })
    }
  }
  return out
}

function describe (value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return `'${value}'`
  if (value instanceof Uint8Array) return `${value.length} bytes`
  return String(value)
}

export function same (stored: unknown, expected: unknown): boolean {
  if (expected === null || expected === undefined) return stored === null || stored === undefined
  if (stored === null || stored === undefined) return false
  if (expected instanceof Uint8Array) return stored instanceof Uint8Array && Buffer.compare(Buffer.from(stored), Buffer.from(expected)) === 0
  if (typeof expected === 'number' || typeof expected === 'bigint' || typeof expected === 'boolean') {
    const s = typeof stored === 'boolean' ? Number(stored) : stored
    return typeof s !== 'object' && String(s).trim() !== '' && Number(s) === Number(expected)
  }
  const s = text(stored)
  const e = text(expected)
  return s === e || asInstant(s) === asInstant(e)
}

function text (v: unknown): string {
  if (v instanceof Date) return v.toISOString()
  return String(v).trimEnd()
}

/** '2026-11-23', '2026-11-23 00:00:00', '2026-11-23T00:00:00.000Z' → one form; other text unchanged. */
function asInstant (s: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.0+)?Z?)?$/.exec(s)
  if (!m) return s
  const time = m[2] === undefined ? '00:00:00' : m[2].length === 5 ? `${m[2]}:00` : m[2]
  return `${m[1]} ${time}`
}
