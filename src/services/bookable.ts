// Who may be booked, one rule for /availability and booking alike: a disabled record is never
// offered, and only a disabled location or health insurance refuses a booking that names it
// (the interface's `enabled` hides a professional or service from end clients, not from the
// clinic's operators: docs/mapping.md, `enabled`).
import type { LookupName } from '../mapping/model.js'

/** Lookups whose disabled records take no new appointment at all. */
const CLOSED_WHEN_DISABLED: ReadonlySet<LookupName> = new Set(['location', 'healthInsurance'])

/** Whether /availability offers this record's times (or anything filtered by it): known and enabled. */
export function offered (rec: { enabled: boolean } | undefined): boolean {
  return rec?.enabled === true
}

/** Whether a booking naming this known record is refused for it being disabled. */
export function refusesBooking (name: LookupName, rec: { enabled: boolean }): boolean {
  return CLOSED_WHEN_DISABLED.has(name) && !rec.enabled
}
