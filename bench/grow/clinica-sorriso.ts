// Clínica Sorriso grown into a clinic chain: the sample's own rows are the templates, so every
// stored spelling keeps the sample's distribution (phones in all their masks, with and without
// the ninth digit or DDD, extensions, empty masks; CPFs masked, bare, blank, padded to char(14),
// shared by a family; names in Title/UPPER/UPPER-without-accents; soft-deleted patients and
// appointments; staff rows in PACIENTE; '9:30 ' hours; hygiene visits under a supervising
// dentist). Clients: the sample's 3,000 first, then copies of them with new names, numbers and
// CPFs. Professionals: the sample's 14, then copies (relations and weekly hours copied).
// Appointments: booked into the copied weekly hours over two years, each a copy of a sample
// appointment of the same professional on the same side of "today" (state, confirmation,
// procedure, convênio, room kept; its dates moved with it).
import { daysBetween, hhmm, toDate, validCpf } from '../../fixtures/generator-kit.js'
import type { Fixture, FixtureTable } from '../../src/fixtures/format.js'
import { densityFactor, hash32, nameStyle, randomness, regrowCpf, regrowPhone, shiftDay, shiftStamp, type Grow, type GrowOptions, type Grown } from './kit.js'

export const TODAY = '2026-11-22'
const NOW = '2026-11-21'
const PARTICLES = new Set(['de', 'da', 'dos', 'das', 'do', 'DE', 'DA', 'DOS', 'DAS', 'DO'])

type Row = unknown[]
const tableOf = (f: Fixture, name: string): FixtureTable => {
  const t = f.tables.find((x) => x.name === name)
  if (!t) throw new Error(`the sample has no ${name}`)
  return t
}
const toMin = (h: string): number => { const [a, b] = h.trim().split(':'); return Number(a) * 60 + Number(b) }

export const growClinicaSorriso: Grow = (sample: Fixture, o: GrowOptions): Grown => {
  const progress = o.progress ?? (() => {})
  const PROF = tableOf(sample, 'dbo.PROFISSIONAL')
  const T = PROF.rows.length
  const P = Math.max(o.professionals, 1)
  // Professional i (1-based) copies template ((i-1) % T) + 1, in generation floor((i-1) / T).
  const templateOf = (i: number): number => ((i - 1) % T) + 1
  const generationOf = (i: number): number => Math.floor((i - 1) / T)
  const cloneOf = (templateId: number | null, g: number): number | null => {
    if (templateId === null) return null
    const id = templateId + g * T
    return id <= P ? id : templateId
  }

  const sampleNames = tableOf(sample, 'dbo.PACIENTE').rows.map((r) => String(r[1]))
  const pools: Record<string, string[]> = { title: [], upper: [], plain: [] }
  for (const n of sampleNames) for (const w of n.split(' ')) if (!PARTICLES.has(w)) pools[nameStyle(w)]!.push(w)
  const renamed = (name: string, r: ReturnType<typeof randomness>): string => name.split(' ').map((w) => PARTICLES.has(w) ? w : (r.pick(pools[nameStyle(w)]!.length ? pools[nameStyle(w)]! : pools.title!))).join(' ')

  // ---- professionals and what hangs off them ----
  const profRows: Row[] = []
  for (let i = 1; i <= P; i++) {
    const t = PROF.rows[templateOf(i) - 1]!
    if (i <= T) { profRows.push(t); continue }
    const r = randomness(hash32(`prof/${i}/${o.seed}`))
    const row = [...t]
    row[0] = i
    row[1] = renamed(String(t[1]), r)
    row[4] = String(t[4]).replace(/\d+/, (d) => r.digits(d.length))
    if (typeof row[8] === 'string') row[8] = row[8].replace(/-\d+\.jpg$/, `-${i}.jpg`)
    profRows.push(row)
  }
  const byProf = (name: string, profColumn = 0): FixtureTable => {
    const t = tableOf(sample, name)
    const rows: Row[] = []
    for (let i = 1; i <= P; i++) for (const r of t.rows) if (r[profColumn] === templateOf(i)) { const c = [...r]; c[profColumn] = i; rows.push(c) }
    return { ...t, rows }
  }
  const HOR = tableOf(sample, 'dbo.HORARIO')
  const horRows: Row[] = []
  for (let i = 1; i <= P; i++) for (const r of HOR.rows) if (r[1] === templateOf(i)) { const c = [...r]; c[0] = horRows.length + 1; c[1] = i; horRows.push(c) }

  // ---- slots: every (day, professional, minute) the weekly hours open ----
  const blocks = tableOf(sample, 'dbo.BLOQUEIO').rows.map((b) => ({ prof: b[1] as number | null, from: String(b[2]), to: String(b[3]), ini: b[4] === null ? null : toMin(String(b[4])), fim: b[5] === null ? null : toMin(String(b[5])) }))
  const blocked = (templateProf: number, day: string, a: number, b: number): boolean => blocks.some((x) =>
    (x.prof === null || x.prof === templateProf) && day >= x.from && day <= x.to && (x.ini === null || (a < x.fim! && b > x.ini)))
  interface Period { prof: number, dia: number, ini: number, fim: number, interval: number, from: string, to: string | null }
  const periods: Period[] = horRows.map((h) => ({ prof: h[1] as number, dia: h[3] as number, ini: toMin(String(h[4])), fim: toMin(String(h[5])), interval: h[6] as number, from: String(h[7]), to: h[8] as string | null }))
  const days: string[] = []
  for (let d = o.from; d <= o.to; d = shiftDay(d, 1)) days.push(d)
  const slotsOf = (day: string, each: (p: Period, minute: number) => void): void => {
    const dia = toDate(day).getUTCDay() + 1
    for (const p of periods) {
      if (p.dia !== dia || day < p.from || (p.to !== null && day > p.to)) continue
      for (let t = p.ini; t + p.interval <= p.fim; t += p.interval) if (!blocked(templateOf(p.prof), day, t, t + p.interval)) each(p, t)
    }
  }
  const capacity = days.map((day) => { let n = 0; slotsOf(day, () => { n++ }); return n })
  // As the sample: the next two weeks fuller than the past, the far future sparse.
  const weightOf = (day: string): number => {
    const ahead = daysBetween(TODAY, day)
    return ahead < 0 ? 0.43 : ahead <= 14 ? 0.52 : ahead <= 45 ? 0.34 : ahead <= 90 ? 0.17 : 0.07
  }
  const busyIndex = days.indexOf(o.busyDay)
  const busyCapacity = busyIndex >= 0 ? capacity[busyIndex]! : 0
  const busyP = busyCapacity > 0 ? Math.min(1, o.busyDayAppointments / busyCapacity) : 0
  // Rebooked slots (a cancelled or deleted row and its replacement) add about 4 % on top.
  const restTarget = Math.max(0, o.appointments / 1.04 - busyP * busyCapacity)
  const k = densityFactor(days.map((d, i) => ({ weight: i === busyIndex ? 0 : weightOf(d), capacity: capacity[i]! })), restTarget)
  progress(`clinica-sorriso: ${P} professionals, ${capacity.reduce((a, b) => a + b, 0).toLocaleString('en')} slots in ${days.length} days; booking ${Math.round(busyP * busyCapacity)} of ${busyCapacity} slots on ${o.busyDay}`)

  // ---- appointment templates: per template professional (who attends), past or future ----
  const AG = tableOf(sample, 'dbo.AGENDA')
  const pools2 = new Map<string, Row[]>()
  for (const r of AG.rows) {
    const who = r[7] === 'S' ? r[6] as number : r[5] as number
    const key = `${who}/${String(r[1]) < TODAY ? 'past' : 'future'}`
    pools2.set(key, [...(pools2.get(key) ?? []), r])
  }
  const templatesFor = (templateProf: number, past: boolean): Row[] =>
    pools2.get(`${templateProf}/${past ? 'past' : 'future'}`) ?? pools2.get(`${templateProf}/${past ? 'future' : 'past'}`) ?? AG.rows

  // ---- clients ----
  const PAC = tableOf(sample, 'dbo.PACIENTE')
  const N0 = PAC.rows.length
  const eligible = new Int32Array(o.clients)
  let eligibleCount = 0
  let lastPaciente = 0
  const facts: Record<string, unknown> = {}
  function * clients (): Iterable<Row> {
    const r = randomness(o.seed ^ 0x5a5a)
    eligibleCount = 0
    let id = Number(PAC.rows[N0 - 1]![0])
    for (let n = 0; n < o.clients; n++) {
      const t = PAC.rows[n % N0]!
      const g = Math.floor(n / N0)
      let row: Row
      if (g === 0) row = t
      else {
        id += r.chance(0.04) ? r.int(2, 4) : 1
        row = [...t]
        row[0] = id
        row[1] = renamed(String(t[1]), r)
        if (typeof t[2] === 'string' && t[2] !== '') row[2] = renamed(t[2], r)
        row[3] = regrowCpf(t[3] as string | null, g, o.seed, validCpf)
        if (typeof t[4] === 'string' && t[4] !== '1900-01-01') row[4] = shiftDay(t[4], r.int(-180, 180))
        if (typeof t[6] === 'string' && t[6].includes('@')) {
          const [local, domain] = t[6].split('@') as [string, string]
          const words = String(row[1]).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(' ').filter((w) => !PARTICLES.has(w))
          let fresh = r.chance(0.5) ? `${words[0]}.${words.at(-1)}` : `${words[0]}${words.at(-1)}${r.int(1, 999)}`
          if (local === local.toUpperCase() && /[A-Z]/.test(local)) fresh = fresh.toUpperCase()
          else if (/^[A-Z]/.test(local)) fresh = fresh[0]!.toUpperCase() + fresh.slice(1)
          row[6] = `${fresh}@${domain}`
        }
        for (const c of [7, 8, 9]) row[c] = regrowPhone(t[c] as string | null, g, o.seed)
        if (typeof t[12] === 'string') row[12] = r.digits(t[12].length)
        if (t[13] !== null) row[13] = String(id).padStart(6, '0')
        if (typeof t[14] === 'string') row[14] = t[14].replace(/\d{6}/, String(id).padStart(6, '0'))
      }
      if (row[16] === 'P' && row[19] === null) eligible[eligibleCount++] = row[0] as number
      lastPaciente = row[0] as number
      if (n === 0 || n === Math.floor(o.clients / 2) || n === o.clients - 1) {
        facts[`client${n === 0 ? 'First' : n === o.clients - 1 ? 'Last' : 'Middle'}`] = { id: row[0], phones: [row[7], row[8], row[9]] }
      }
      yield row
    }
    facts.clients = o.clients
    facts.activeClients = eligibleCount
  }

  // ---- appointments ----
  let lastAgenda = 0
  function * appointments (): Iterable<Row> {
    const r = randomness(o.seed ^ 0xa5a5)
    let id = 184_200
    let count = 0
    let busy = 0
    const pickClient = (): number => eligible[Math.floor(eligibleCount * Math.pow(r.rand(), 1.6))]!
    const make = (day: string, p: Period, minute: number): Row => {
      const tp = templateOf(p.prof)
      const g = generationOf(p.prof)
      const t = r.pick(templatesFor(tp, day < TODAY))
      const row = [...t]
      id += r.chance(0.01) ? r.int(2, 5) : 1
      const shift = daysBetween(String(t[1]), day)
      row[0] = id
      row[1] = day
      row[2] = minute < 600 && r.chance(0.2) ? `${hhmm(minute).slice(1)} ` : hhmm(minute)
      row[4] = t[4] === null ? null : pickClient()
      if (t[7] === 'S') { row[6] = p.prof; row[5] = cloneOf(t[5] as number, g) } else { row[5] = p.prof; row[6] = cloneOf(t[6] as number | null, g) }
      for (const c of [14, 18, 20]) {
        const moved = shiftStamp(t[c] as string | null, shift)
        row[c] = moved !== null && moved.slice(0, 10) > NOW ? `${NOW}${moved.slice(10)}` : moved
      }
      count++
      if (day === o.busyDay) busy++
      return row
    }
    for (const [i, day] of days.entries()) {
      const p = i === busyIndex ? busyP : Math.min(1, k * weightOf(day))
      const rows: Row[] = []
      slotsOf(day, (period, minute) => {
        if (!r.chance(p)) return
        const a = make(day, period, minute)
        rows.push(a)
        // A deleted or cancelled booking leaves its slot free; often it was booked again.
        if (day !== o.busyDay && (a[17] === 'S' || a[12] === 'X') && r.chance(0.5)) rows.push(make(day, period, minute))
      })
      yield * rows
      if (i % 60 === 0) progress(`clinica-sorriso: appointments up to ${day}: ${count.toLocaleString('en')}`)
    }
    lastAgenda = id
    facts.appointments = count
    facts.busyDay = { day: o.busyDay, appointments: busy }
  }

  const SEQ = tableOf(sample, 'dbo.SEQUENCIAL')
  const large = new Set(['dbo.PROFISSIONAL', 'dbo.PROF_ESPECIALIDADE', 'dbo.PROF_PROCEDIMENTO', 'dbo.PROF_CONVENIO', 'dbo.PROF_UNIDADE', 'dbo.HORARIO', 'dbo.PACIENTE', 'dbo.AGENDA', 'dbo.SEQUENCIAL'])
  facts.professionals = P
  return {
    name: 'clinica-sorriso',
    small: [
      ...sample.tables.filter((t) => !large.has(t.name)),
      { ...PROF, rows: profRows },
      byProf('dbo.PROF_ESPECIALIDADE'), byProf('dbo.PROF_PROCEDIMENTO'), byProf('dbo.PROF_CONVENIO'), byProf('dbo.PROF_UNIDADE'),
      { ...HOR, rows: horRows }
    ],
    large: [{ table: PAC, rows: clients }, { table: AG, rows: appointments }],
    after: () => [{ ...SEQ, rows: SEQ.rows.map((s) => s[0] === 'AGENDA' ? ['AGENDA', lastAgenda + 3] : s[0] === 'PACIENTE' ? ['PACIENTE', lastPaciente + 2] : s) }],
    facts
  }
}
