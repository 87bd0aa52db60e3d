// What the appointment's sampled rows say beside its columns: rows whose start stands for none
// (a date before 1900), the state codes of the bookings ahead (what a new booking is), and a
// reference's default that names no row (0 for none), so a booking stores what the desk does.
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import type { Start } from './start.js'
import { ident } from './tables.js'
import { asText, defaultValue, toIso } from './values.js'

/**
 * Rows whose start is a date no visit has (Open Dental's `0001-01-01 00:00:00` on a planned
 * visit not yet scheduled, a zero date): never on the schedule, so left out by a `where`.
 */
export function undated (t: LiveTable, start: Start | undefined, samples: Samples): string[] {
  const at = start?.via ? undefined : start?.datetime ?? start?.date
  if (at === undefined) return []
  const values = (samples.values(t, at.name) ?? []).map(asText)
  const none = [...new Set(values.filter((v) => { const y = /^(\d{4})-/.exec(toIso(v) ?? '')?.[1] ?? /^\d{1,2}[./]\d{1,2}[./](\d{4})/.exec(v)?.[1]; return y !== undefined && Number(y) < 1900 }))]
  if (none.length === 0) return []
  const n = values.filter((v) => none.includes(v)).length
  const test = none.length === 1 ? `ne: ${JSON.stringify(none[0])}` : `notIn: [${none.map((v) => JSON.stringify(v)).join(', ')}]`
  return [`    where: { column: ${ident(at.name)}, ${test} }   # guess: ${n} sampled row${n === 1 ? '' : 's'} start${n === 1 ? 's' : ''} on a date before 1900, which stands for none: not on the schedule`]
}

/**
 * A reference column's default where it is no key of the table it names (`pc_facility` NOT
 * NULL DEFAULT 0): what the clinic's program stores for none, so a booking without it stores
 * that too, and reads it back as none.
 */
export function noneDefault (ref: Ref, samples: Samples): string | undefined {
  const d = defaultValue(ref.column.defaultSql)
  if (d === undefined || (d !== '' && d !== '0')) return undefined
  if ((samples.values(ref.to, ref.key.name) ?? []).map(asText).includes(d)) return undefined
  return ref.column.kind === 'number' ? d : `'${d}'`
}

/** Sampled rows starting today or later, by their state code: what the clinic's bookings hold. */
export function aheadByCode (t: LiveTable, state: LiveColumn, start: Start | undefined, samples: Samples, today: string): Map<string, number> {
  const at = start?.via ? undefined : start?.datetime ?? start?.date
  const ahead = new Map<string, number>()
  if (at === undefined) return ahead
  for (const r of samples.records(t) ?? []) {
    const when = r[at.name.toLowerCase()]
    const iso = when === null || when === undefined ? undefined : toIso(asText(when))
    const code = r[state.name.toLowerCase()]
    if (iso !== undefined && iso.slice(0, 10) >= today && code !== null && code !== undefined) ahead.set(asText(code), (ahead.get(asText(code)) ?? 0) + 1)
  }
  return ahead
}
