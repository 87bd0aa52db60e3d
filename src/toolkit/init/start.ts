// Which column holds an appointment's start: the one whose values spread over days ahead and
// behind with hours through the day, never a creation stamp (`create_date`, `created_utc`, a
// default of now: days behind only). A date and an hour kept apart are found alike.
import { dateTimeFamily, type LiveColumn, type LiveTable } from '../../db/columns.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import { dateSpelling, hourLike, spread, type DateSpelling } from './values.js'
import { columns } from './tables.js'

export interface Start {
  /** One date-time column, or the day with the hour kept apart. */
  datetime?: LiveColumn
  date?: LiveColumn
  hour?: LiveColumn
  /** The `format` of the date (or date-time) and of the hour. */
  format: string
  hourFormat?: string
  /** What the draft says at the key: what was seen, what else was considered. */
  note: string
  score: number
  /** The reference from the appointment to the row holding the start (a time slot), when it is not in the appointment's own row. */
  via?: Ref
  /** Where an end would be: a column like the start, named as an end. */
  end?: LiveColumn
  endFormat?: string
  /** The end's sampled minutes end in 4 or 9 (09:14): stored as its last minute. */
  endInclusive?: boolean
}

const START_NAME = /(start|begin|inicio|appoint|event|sched|data_?hora|dt_?hr|slot|when|^date$|^data$|^dia$|^dt$|_date$|^data_|date$)/i
const STAMP_NAME = /(creat|modif|updat|write|insert|stamp|cadastr|regist|changed|last|alter|birth|nasc|born|dob|delet|void|retire|cancel|confirm|arriv|check|paid|sent|^ts$)/i
const END_NAME = /(^|_)(end|fim|termino|until|ate)|end(time|date)?$|_end_|date_end|fim$/i
const HOUR_NAME = /(hora|hour|time|^hr|_hr$|start|inicio)/i

interface Seen { column: LiveColumn, spelling: DateSpelling | undefined, family: 'date' | 'time' | 'datetime' | undefined }

function seen (t: LiveTable, samples: Samples): Seen[] {
  return columns(t).map((c) => {
    const values = samples.values(t, c.name)
    const spelling = c.kind === 'date' || c.kind === 'text' || c.kind === 'unknown' || c.kind === 'number' ? dateSpelling(values ?? [], c.kind) : undefined
    return { column: c, spelling, family: c.kind === 'date' ? dateTimeFamily(c.declared) : undefined }
  })
}

/** Date-time columns and date columns, and hour columns, as their types and sampled values show. */
function kinds (t: LiveTable, samples: Samples): { datetimes: Seen[], dates: Seen[], hours: LiveColumn[] } {
  const all = seen(t, samples)
  return {
    datetimes: all.filter((s) => s.family === 'datetime' || (s.family === undefined && s.spelling?.withTime === true && s.column.kind !== 'number')),
    dates: all.filter((s) => s.family === 'date' || (s.family === undefined && s.spelling !== undefined && !s.spelling.withTime)),
    hours: all.filter((s) => s.family === 'time' || (s.column.kind === 'text' && hourLike(samples.values(t, s.column.name) ?? []) === true) ||
      (s.column.kind === 'number' && HOUR_NAME.test(s.column.name) && !/min/i.test(s.column.name))).map((s) => s.column)
  }
}

function formatOf (s: Seen): string {
  if (s.family === 'datetime') return 'datetime'
  if (s.family === 'date') return 'date'
  if (s.column.kind === 'number') return 'int'
  return s.spelling?.format ?? 'text'
}

const hourFormat = (c: LiveColumn): string => c.kind === 'number' ? 'hhmm' : c.kind === 'date' ? 'time' : 'text'

/** Points for a start: named like one, not like a stamp or an end; values ahead of today, at several hours. */
function score (c: LiveColumn, values: unknown[] | undefined, today: string, hours?: unknown[], rows?: number): { score: number, said: string } {
  let score = 1
  // Rows read, none holding a value here: a date kept for some other event (voided, retired), never every visit's start.
  if ((values === undefined || values.length === 0) && rows !== undefined && rows > 0) return { score: -10, said: `empty in all ${rows} sampled rows` }
  if (START_NAME.test(c.name)) score += 2
  if (STAMP_NAME.test(c.name)) score -= 5
  if (END_NAME.test(c.name)) score -= 4
  if (c.hasDefault) score -= 2
  if (values === undefined || values.length === 0) return { score, said: 'no rows to sample' }
  const s = spread(values, today)
  const h = hours === undefined ? s.hours : new Set(hours.map(String)).size
  if (s.ahead > 0) score += 2
  else score -= 1
  if (h >= 2) score += 1
  return { score, said: `${s.n} sampled: ${s.ahead} on or after ${today}, ${s.days} days, ${h} hours` }
}

export function findStart (t: LiveTable, samples: Samples, today: string): Start | undefined {
  const { datetimes, dates, hours } = kinds(t, samples)
  const options: Start[] = []
  for (const d of datetimes) {
    const { score: s, said } = score(d.column, samples.values(t, d.column.name), today, undefined, samples.rows(t))
    options.push({ datetime: d.column, format: formatOf(d), note: said, score: s })
  }
  const hour = hours.filter((h) => !END_NAME.test(h.name)).sort((a, b) => Number(HOUR_NAME.test(b.name)) - Number(HOUR_NAME.test(a.name)))[0]
  for (const d of dates) {
    const { score: s, said } = score(d.column, samples.values(t, d.column.name), today, hour ? samples.values(t, hour.name) : undefined, samples.rows(t))
    options.push({ date: d.column, hour, format: formatOf(d), hourFormat: hour ? hourFormat(hour) : undefined, note: said, score: s + (hour ? 1 : -2) })
  }
  options.sort((a, b) => b.score - a.score)
  const best = options[0]
  if (best === undefined) return undefined
  const others = options.slice(1).map((o) => (o.datetime ?? o.date)?.name).filter((n) => n !== undefined)
  best.note += others.length > 0 ? `; not ${others.join(', ')}` : ''
  const chosen = best.datetime ?? best.date
  const spelt = seen(t, samples).find((s) => s.column === chosen)?.spelling
  if (spelt?.note) best.note += `; stored as ${spelt.note} (e.g. ${spelt.example})`
  // The end: a column of the start's kind named as an end.
  const end = best.datetime ? datetimes.find((d) => END_NAME.test(d.column.name))?.column : hours.find((h) => END_NAME.test(h.name))
  if (end) {
    best.end = end
    best.endFormat = best.datetime ? best.format : hourFormat(end)
    const minutes = (samples.values(t, end.name) ?? []).map((v) => /:(\d{2})(:\d{2})?$/.exec(String(v))?.[1]).filter((m) => m !== undefined)
    best.endInclusive = minutes.length > 0 && minutes.filter((m) => /[49]$/.test(m)).length / minutes.length >= 0.8
  }
  return best
}
