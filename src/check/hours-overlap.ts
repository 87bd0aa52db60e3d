// `ponte check` on the working hours appointments copy a column of (`SALA: { hours: SALA }`):
// two rows of one professional whose windows overlap, on the same weekday (or date), while the
// copied column differs. A booking in the overlap takes one of them by Ponte's rule (a weekly
// row first, then the earliest start: services/covering-hours.ts), which the clinic may not
// mean; said at the copy's line, with counts and professional ids only. The rows read here are
// also fitted to the appointment's column (hours-copy-fit.ts).
import type { Database } from '../db/database.js'
import { hoursColumns, type CompiledMapping, type DatedRow, type WeeklyRow } from '../mapping/compile/index.js'
import { addDaysWithin, endMinutesOf, minutesOf } from '../normalise/datetime.js'
import { readAll } from '../services/slots.js'
import type { Findings } from './findings.js'
import type { LiveCatalog } from '../db/columns.js'
import { checkHoursCopyFit } from './hours-copy-fit.js'

/** How far ahead dated rows are compared: past days take no bookings. */
const DATED_DAYS = 366
const WEEKDAYS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays']

export async function checkHoursOverlap (compiled: CompiledMapping, db: Database, catalog: LiveCatalog, today: string, out: Findings): Promise<void> {
  const columns = hoursColumns(compiled.model)
  const av = compiled.availability
  if (columns.length === 0 || !av || columns.some((c) => out.covers(c.path))) return
  let weekly: WeeklyRow[] = []
  let dated: DatedRow[] = []
  try {
    if (av.weekly) weekly = readAll(await db.query(av.weekly.statement, {}), av.weekly.read)
    if (av.dated) {
      const { statement, args } = av.dated.bind({ from: today, to: addDaysWithin(today, DATED_DAYS) })
      dated = readAll(await db.query(statement, args), av.dated.read)
    }
  } catch {
    // A source the database refuses is reported where it is read (the statement probes).
    return
  }
  for (const c of columns) {
    checkHoursCopyFit(compiled.model, catalog, c, [...weekly, ...dated].map((r) => r.copies?.[c.name]), out)
    const found = [
      ...overlaps(weekly, (r) => `${r.professional}|${r.weekday}`, c.name, (r) => `professional ${r.professional} on ${WEEKDAYS[r.weekday]}`),
      ...overlaps(dated, (r) => `${r.professional}|${r.date}`, c.name, (r) => `professional ${r.professional} on ${r.date}`)
    ]
    if (found.length === 0) continue
    const where = [...new Set(found)]
    out.warning(c.path, `${found.length} pair${found.length === 1 ? '' : 's'} of working-hours rows of one professional overlap while their \`${c.name}\` differs (${where.slice(0, 3).join('; ')}${where.length > 3 ? '; …' : ''}): a booking in the overlap copies the weekly row before a dated one, then the row starting first (then ending first, then the lowest value); correct the rows, or give the overlap to one of them`)
  }
}

type Row = WeeklyRow | DatedRow

/** Each pair of rows in one group (a professional's weekday or date) whose hours overlap with different values of `name`: described by `said`. */
function overlaps<R extends Row> (rows: R[], group: (r: R) => string, name: string, said: (r: R) => string): string[] {
  const groups = new Map<string, R[]>()
  for (const r of rows) {
    const key = group(r)
    groups.set(key, [...groups.get(key) ?? [], r])
  }
  const out: string[] = []
  for (const list of groups.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]
        const b = list[j]
        if (same(a.copies?.[name], b.copies?.[name]) || !validTogether(a, b)) continue
        if (spans(a).some((x) => spans(b).some((y) => x.start < y.end && y.start < x.end))) out.push(said(a))
      }
    }
  }
  return out
}

const same = (x: unknown, y: unknown): boolean => (x ?? null) === (y ?? null) || (x !== null && y !== null && x !== undefined && y !== undefined && String(x).trim() === String(y).trim())

const spans = (r: Row): { start: number, end: number }[] => r.bookable ?? [{ start: minutesOf(r.start), end: endMinutesOf(r.start, r.end) }]

/** Whether two weekly rows' validity ranges share a day (dated rows have none: always). */
function validTogether (a: Row, b: Row): boolean {
  const bound = (r: Row, k: 'validFrom' | 'validTo'): string | undefined => 'weekday' in r ? r[k] : undefined
  const from = [bound(a, 'validFrom'), bound(b, 'validFrom')].filter((d): d is string => d !== undefined).sort().at(-1)
  const to = [bound(a, 'validTo'), bound(b, 'validTo')].filter((d): d is string => d !== undefined).sort()[0]
  return from === undefined || to === undefined || from <= to
}
