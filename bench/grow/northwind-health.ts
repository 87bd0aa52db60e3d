// Northwind Health grown into a clinic chain, the sample's rows as templates (as
// clinica-sorriso.ts does): patients copied with new names, numbers (E.164, masked, foreign —
// each phone in its template's spelling), national ids (digits, '' or NULL as the template),
// birthdays ('0001-01-01' sentinels kept), soft deletes kept; doctors copied with their
// specialties, treatments and insurers; dated shifts (`doctor_shifts`) written for every day of
// the two years from the template doctor's sample shifts on the same weekday (published, draft
// and cancelled in the sample's shares); appointments booked into the published shifts' slots,
// each a copy of a sample appointment of the same doctor on the same side of "today" (status,
// visit type, NULL ends, text doctor_ref kept; its timestamps moved with it).
import { daysBetween, hhmm, toDate, validCpf } from '../../fixtures/generator-kit.js'
import type { Fixture, FixtureTable } from '../../src/fixtures/format.js'
import { densityFactor, hash32, nameStyle, randomness, regrowCpf, regrowPhone, shiftDay, shiftStamp, type Grow, type GrowOptions, type Grown } from './kit.js'

const TODAY = '2026-11-22'
const NOW = '2026-11-21'
type Row = unknown[]
const tableOf = (f: Fixture, name: string): FixtureTable => {
  const t = f.tables.find((x) => x.name === name)
  if (!t) throw new Error(`the sample has no ${name}`)
  return t
}
const toMin = (h: string): number => { const [a, b] = h.split(':'); return Number(a) * 60 + Number(b) }
const plain = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]/g, '')

export const growNorthwindHealth: Grow = (sample: Fixture, o: GrowOptions): Grown => {
  const progress = o.progress ?? (() => {})
  const DOC = tableOf(sample, 'doctors')
  const T = DOC.rows.length
  const P = Math.max(o.professionals, 1)
  const templateOf = (i: number): number => ((i - 1) % T) + 1

  const PAT = tableOf(sample, 'patients')
  const pools: Record<string, string[]> = { title: [], upper: [], plain: [] }
  for (const r of PAT.rows) for (const c of [2, 3]) for (const w of String(r[c] ?? '').split(' ')) if (w !== '' && !/^(de|da|dos|das|do)$/i.test(w)) pools[nameStyle(w)]!.push(w)
  const renamed = (name: string, r: ReturnType<typeof randomness>): string => name.split(' ').map((w) =>
    w === '' || /^(de|da|dos|das|do|Dr\.|Dra\.)$/i.test(w) ? w : r.pick(pools[nameStyle(w)]!.length ? pools[nameStyle(w)]! : pools.title!)).join(' ')

  // ---- doctors and their relations ----
  const docRows: Row[] = []
  for (let i = 1; i <= P; i++) {
    const t = DOC.rows[templateOf(i) - 1]!
    if (i <= T) { docRows.push(t); continue }
    const r = randomness(hash32(`doctor/${i}/${o.seed}`))
    const row = [...t]
    row[0] = i
    row[1] = renamed(String(t[1]), r)
    if (typeof t[3] === 'string') row[3] = t[3].replace(/\d/g, () => String(r.int(0, 9)))
    if (typeof t[6] === 'string') row[6] = `${String(row[1]).split(' ').filter((w) => !/^Dra?\.$/.test(w)).map(plain).join('.')}.${i}@${t[6].split('@')[1]}`
    docRows.push(row)
  }
  const byDoctor = (name: string): FixtureTable => {
    const t = tableOf(sample, name)
    const rows: Row[] = []
    for (let i = 1; i <= P; i++) for (const r of t.rows) if (r[0] === templateOf(i)) { const c = [...r]; c[0] = i; rows.push(c) }
    return { ...t, rows }
  }

  // ---- shifts: each template doctor's sample shifts by weekday, one sample day's set per day ----
  const SH = tableOf(sample, 'doctor_shifts')
  const sampleDays = new Map<number, string[]>() // weekday → sample dates
  const firstSample = String(SH.rows.map((r) => r[3]).sort()[0])
  const lastSample = String(SH.rows.map((r) => r[3]).sort().at(-1))
  for (let d = firstSample; d <= lastSample; d = shiftDay(d, 1)) { const w = toDate(d).getUTCDay(); sampleDays.set(w, [...(sampleDays.get(w) ?? []), d]) }
  const shiftsOn = new Map<string, Row[]>() // `${doctor}/${date}` → shifts
  for (const r of SH.rows) shiftsOn.set(`${String(r[1])}/${String(r[3])}`, [...(shiftsOn.get(`${String(r[1])}/${String(r[3])}`) ?? []), r])
  const TOFF = tableOf(sample, 'time_off')
  const offs = TOFF.rows.map((b) => ({ doctor: b[1] as number | null, from: String(b[2]), to: String(b[3]), ini: b[4] === null ? null : toMin(String(b[4])), fim: b[5] === null ? null : toMin(String(b[5])) }))
  const off = (templateDoctor: number, day: string, a: number, b: number): boolean => offs.some((x) =>
    (x.doctor === null || x.doctor === templateDoctor) && day >= x.from && day <= x.to && (x.ini === null || (a < x.fim! && b > x.ini)))
  const days: string[] = []
  for (let d = o.from; d <= o.to; d = shiftDay(d, 1)) days.push(d)
  const shiftRows: Row[] = []
  const slotsByDay = new Map<string, { doctor: number, clinic: string, minute: number }[]>()
  {
    const r = randomness(o.seed ^ 0x3c3c)
    for (const day of days) {
      const ds = sampleDays.get(toDate(day).getUTCDay()) ?? []
      const slots: { doctor: number, clinic: string, minute: number }[] = []
      for (let i = 1; i <= P; i++) {
        const tdoc = templateOf(i)
        const sampleDay = ds[r.int(0, Math.max(0, ds.length - 1))]
        for (const s of (sampleDay ? shiftsOn.get(`${tdoc}/${sampleDay}`) : undefined) ?? []) {
          shiftRows.push([shiftRows.length + 1, i, s[2], day, s[4], s[5], s[6], s[7]])
          if (s[7] !== 'published') continue
          const [ini, fim, step] = [toMin(String(s[4])), toMin(String(s[5])), Number(s[6])]
          for (let t = ini; t + step <= fim; t += step) if (!off(tdoc, day, t, t + step)) slots.push({ doctor: i, clinic: String(s[2]), minute: t })
        }
      }
      slotsByDay.set(day, slots)
    }
  }
  const capacity = days.map((d) => slotsByDay.get(d)!.length)
  const weightOf = (day: string): number => {
    const ahead = daysBetween(TODAY, day)
    return ahead < 0 ? 0.5 : ahead <= 14 ? 0.55 : ahead <= 45 ? 0.35 : ahead <= 90 ? 0.18 : 0.07
  }
  const busyIndex = days.indexOf(o.busyDay)
  const busyCapacity = busyIndex >= 0 ? capacity[busyIndex]! : 0
  const busyP = busyCapacity > 0 ? Math.min(1, o.busyDayAppointments / busyCapacity) : 0
  const k = densityFactor(days.map((d, i) => ({ weight: i === busyIndex ? 0 : weightOf(d), capacity: capacity[i]! })), Math.max(0, o.appointments - busyP * busyCapacity))
  progress(`northwind-health: ${P} doctors, ${shiftRows.length.toLocaleString('en')} shifts, ${capacity.reduce((a, b) => a + b, 0).toLocaleString('en')} slots; booking ${Math.round(busyP * busyCapacity)} of ${busyCapacity} on ${o.busyDay}`)

  // ---- appointment templates: per template doctor, past or future ----
  const AP = tableOf(sample, 'appointments')
  const apPools = new Map<string, Row[]>()
  for (const r of AP.rows) {
    const key = `${String(r[2])}/${String(r[7]).slice(0, 10) < TODAY ? 'past' : 'future'}`
    apPools.set(key, [...(apPools.get(key) ?? []), r])
  }
  const templatesFor = (tdoc: number, past: boolean): Row[] =>
    apPools.get(`${tdoc}/${past ? 'past' : 'future'}`) ?? apPools.get(`${tdoc}/${past ? 'future' : 'past'}`) ?? AP.rows

  // ---- patients ----
  const N0 = PAT.rows.length
  const eligible = new Int32Array(o.clients)
  let eligibleCount = 0
  const facts: Record<string, unknown> = { professionals: P, shifts: shiftRows.length }
  function * patients (): Iterable<Row> {
    const r = randomness(o.seed ^ 0x5a5a)
    eligibleCount = 0
    let id = Number(PAT.rows[N0 - 1]![0])
    for (let n = 0; n < o.clients; n++) {
      const t = PAT.rows[n % N0]!
      const g = Math.floor(n / N0)
      let row: Row = t
      if (g > 0) {
        id++
        row = [...t]
        row[0] = id
        row[1] = `NW-${String(4000 + id).padStart(6, '0')}`
        row[2] = renamed(String(t[2]), r)
        if (typeof t[3] === 'string' && t[3] !== '') row[3] = renamed(t[3], r)
        if (typeof t[4] === 'string' && t[4].includes('@')) {
          const [local, domain] = t[4].split('@') as [string, string]
          const [first, last] = [plain(String(row[2]).split(' ')[0]!), plain(String(row[3] ?? '').split(' ').join(''))]
          let fresh = /\d$/.test(local) ? `${first}${last}${r.int(1, 99)}` : local.includes('.') ? `${first}.${last}` : `${first}${last}`
          if (/^[A-Z]/.test(local)) fresh = fresh.replace(/(^|\.)([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase())
          row[4] = `${fresh}@${domain}`
        }
        for (const c of [5, 6]) row[c] = regrowPhone(t[c] as string | null, g, o.seed)
        if (typeof t[7] === 'string' && t[7] !== '0001-01-01') row[7] = shiftDay(t[7], r.int(-180, 180))
        row[8] = regrowCpf(t[8] as string | null, g, o.seed, validCpf)
      }
      if (row[15] === null) eligible[eligibleCount++] = row[0] as number
      if (n === o.clients - 1) facts.clientLast = { id: row[0], phones: [row[5], row[6]] }
      yield row
    }
    facts.clients = o.clients
    facts.activeClients = eligibleCount
  }

  // ---- appointments ----
  function * appointments (): Iterable<Row> {
    const r = randomness(o.seed ^ 0xa5a5)
    let id = 0
    let busy = 0
    for (const [i, day] of days.entries()) {
      const p = i === busyIndex ? busyP : Math.min(1, k * weightOf(day))
      for (const s of slotsByDay.get(day)!) {
        if (!r.chance(p)) continue
        const t = r.pick(templatesFor(templateOf(s.doctor), day < TODAY))
        const row = [...t]
        const shift = daysBetween(String(t[7]).slice(0, 10), day)
        const starts = `${day} ${hhmm(s.minute)}:00`
        row[0] = ++id
        row[1] = eligible[Math.floor(eligibleCount * Math.pow(r.rand(), 1.6))]!
        row[2] = String(s.doctor)
        row[3] = s.clinic
        row[7] = starts
        if (t[8] !== null) {
          const minutes = Math.round((Date.parse(`${String(t[8]).replace(' ', 'T')}Z`) - Date.parse(`${String(t[7]).replace(' ', 'T')}Z`)) / 60_000)
          const end = s.minute + minutes
          row[8] = end < 24 * 60 ? `${day} ${hhmm(end)}:00` : null
        }
        for (const c of [13, 15, 16]) {
          const moved = shiftStamp(t[c] as string | null, shift)
          row[c] = moved !== null && moved.slice(0, 10) > NOW ? `${NOW}${moved.slice(10)}` : moved
        }
        if (day === o.busyDay) busy++
        yield row
      }
      if (i % 60 === 0) progress(`northwind-health: appointments up to ${day}: ${id.toLocaleString('en')}`)
    }
    facts.appointments = id
    facts.busyDay = { day: o.busyDay, appointments: busy }
  }

  const large = new Set(['doctors', 'doctor_specialties', 'doctor_treatments', 'doctor_insurers', 'doctor_shifts', 'patients', 'appointments'])
  return {
    name: 'northwind-health',
    small: [
      ...sample.tables.filter((t) => !large.has(t.name)),
      { ...DOC, rows: docRows }, byDoctor('doctor_specialties'), byDoctor('doctor_treatments'), byDoctor('doctor_insurers'),
      { ...SH, rows: shiftRows }
    ],
    large: [{ table: PAT, rows: patients }, { table: AP, rows: appointments }],
    after: () => [],
    facts
  }
}
