// Appointment requests: ranges at the edges of the data and of the date window, every filter
// with every value, `minimal` on and off, pairs and full combinations of filters, and the
// details of listed ids.
import type { Differ } from './differ.js'
import { addDays, type Rng } from './seeded.js'
import type { Catalog } from './reads-lookups.js'
import { idSpellings } from './spellings.js'

const q = encodeURIComponent

interface Listed { id: string, date: string }

export interface AppointmentSurvey {
  /** Every appointment id and date from the monthly survey. */
  listed: Listed[]
  first: string
  last: string
  /** A 7-day range whose first and last days hold appointments. */
  busy: [string, string]
}

/** Month by month around the fixture's today (minimal lists): where the appointments are. */
export async function surveyAppointments (d: Differ, anchor: string): Promise<AppointmentSurvey> {
  d.begin('appointment survey')
  const listed: Listed[] = []
  for (let m = -10; m <= 10; m++) {
    const start = addDays(anchor, m * 30)
    const r = await d.get(`/appointments?start=${start}&end=${addDays(start, 29)}&minimal=true`)
    if (Array.isArray(r.body)) listed.push(...r.body.map((x: Listed) => ({ id: x.id, date: x.date })))
  }
  if (listed.length === 0) throw new Error(`no appointments within 300 days of ${anchor}: the reference side holds no data`)
  const days = [...new Set(listed.map((x) => x.date))].sort()
  const perDay = new Map<string, number>()
  for (const x of listed) perDay.set(x.date, (perDay.get(x.date) ?? 0) + 1)
  // The busiest week near the anchor whose two ends both hold appointments.
  let busy: [string, string] = [days[0], addDays(days[0], 6)]
  let best = -1
  for (let i = -30; i <= 30; i++) {
    const s = addDays(anchor, i)
    const e = addDays(s, 6)
    if (!perDay.get(s) || !perDay.get(e)) continue
    let n = 0
    for (let k = 0; k < 7; k++) n += perDay.get(addDays(s, k)) ?? 0
    if (n > best) { best = n; busy = [s, e] }
  }
  return { listed, first: days[0], last: days[days.length - 1], busy }
}

/** Ranges at every edge, each with `minimal` absent, true and false. */
export async function appointmentRanges (d: Differ, rng: Rng, s: AppointmentSurvey, anchor: string): Promise<void> {
  d.begin('appointment ranges')
  const days = [...new Set(s.listed.map((x) => x.date))]
  const ranges: Array<[string, string]> = [
    [s.first, s.first], [s.last, s.last], [addDays(s.first, -1), addDays(s.first, -1)], [addDays(s.last, 1), addDays(s.last, 1)],
    [addDays(s.first, -1), s.first], [s.last, addDays(s.last, 1)], s.busy, [s.busy[0], addDays(s.busy[0], 2)],
    ['1900-01-01', '1900-01-01'], ['2199-12-31', '2199-12-31'], ['1900-01-01', '1900-01-31'], ['2199-12-01', '2199-12-31'],
    ...rng.sample(days, 8).map((day): [string, string] => [day, day])
  ]
  for (const [start, end] of ranges) {
    for (const minimal of ['', '&minimal=true', '&minimal=false']) await d.get(`/appointments?start=${start}&end=${end}${minimal}`)
  }
  // The longest range allowed, minimal only (the full list is the same rows, thousands of times slower to compare).
  await d.get(`/appointments?start=${anchor}&end=${addDays(anchor, 91)}&minimal=true`)
  // Refused alike: too long, reversed, outside the window, not dates; and date-times read at the clinic.
  for (const [start, end] of [[anchor, addDays(anchor, 92)], [addDays(anchor, 1), anchor], ['1899-12-31', '1900-01-01'], ['2199-12-31', '2200-01-01'],
    ['2026-02-30', '2026-03-01'], [`${anchor}T02:00:00Z`, `${anchor}T02:00:00Z`], [`${anchor}T12:00:00Z`, `${addDays(anchor, 1)}T01:00:00-03:00`],
    [`${s.first}T00:00:00-03:00`, `${s.first}T23:59:59-03:00`], ['2199-12-31T12:00:00Z', '2199-12-31T12:00:00Z']]) {
    await d.get(`/appointments?start=${q(start)}&end=${q(end)}&minimal=true`, 'edge')
  }
}

/** Every filter with every value on a short busy range, minimal and not; pairs; full combinations. */
export async function appointmentFilters (d: Differ, rng: Rng, s: AppointmentSurvey, catalog: Catalog, states: string[]): Promise<void> {
  d.begin('appointment filters')
  const [start] = s.busy
  const short = `start=${start}&end=${addDays(start, 2)}`
  const week = `start=${s.busy[0]}&end=${s.busy[1]}`
  const full = await d.get(`/appointments?${week}`)
  const items = Array.isArray(full.body) ? full.body as any[] : []
  const clients = [...new Set(items.map((x) => x.client?.id).filter((x): x is string => typeof x === 'string'))]
  const stateSpellings = [...states, ...states.slice(0, 2).map((x) => x.toLowerCase()), `${states[0]} `, 'NOT-A-STATE']
  const filters: Array<[string, string[]]> = [
    ['professional', catalog.professional], ['location', catalog.location], ['service', catalog.service],
    ['client', rng.sample(clients, 25)], ['state', stateSpellings]
  ]
  for (const range of [short, `start=${start}&end=${start}`]) {
    for (const [f, values] of filters) {
      for (const v of values) for (const minimal of ['', '&minimal=true']) await d.get(`/appointments?${range}&${f}=${q(v)}${minimal}`)
    }
  }
  for (const [f, values] of filters.slice(0, 4)) for (const v of idSpellings(values[0] ?? '1')) await d.get(`/appointments?${short}&${f}=${q(v)}`, 'id spelling')

  d.begin('appointments professional × service')
  for (const p of catalog.professional) {
    const seen = [...new Set(items.filter((x) => x.professional?.id === p).map((x) => x.service?.id).filter((x): x is string => typeof x === 'string'))]
    for (const svc of [...seen, ...rng.sample(catalog.service, 1)]) await d.get(`/appointments?${week}&professional=${q(p)}&service=${q(svc)}&minimal=true`)
  }

  d.begin('appointments all filters')
  // Each appointment found again by all of its own relations and state, on its own day.
  for (const x of rng.sample(items, 25)) {
    const own = ['professional', 'location', 'service', 'client'].filter((f) => x[f]?.id !== undefined).map((f) => `&${f}=${q(x[f].id)}`).join('')
    for (const minimal of ['', '&minimal=true']) await d.get(`/appointments?start=${x.date}&end=${x.date}${own}&state=${q(x.state)}${minimal}`)
  }
}

export async function appointmentDetails (d: Differ, rng: Rng, s: AppointmentSurvey, count: number): Promise<void> {
  d.begin('appointment details')
  for (const x of rng.sample(s.listed, count)) await d.get(`/appointments/${q(x.id)}`)
  for (const x of s.listed.slice(0, 2)) for (const v of idSpellings(x.id)) await d.get(`/appointments/${q(v)}`, 'id spelling')
}
