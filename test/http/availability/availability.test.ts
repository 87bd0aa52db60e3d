// Free slots (GET /availability) and working hours (Availability.offers), on both sample
// installations over HTTP, with expectations computed from the rows of the SQLite copy and
// from GET /appointments, never from hard-coded lists. Dates are in the fixtures' future
// (the real clock and the fixtures agree that today is 2026-11-22).
import t from 'tap'
import { sampleApp, SAMPLES, type TestApp } from '../../helpers/app.js'
import { compileMapping } from '../../../src/mapping/compile/index.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { loadConfig } from '../../../src/config.js'
import { Availability } from '../../../src/services/availability.js'
import { blockedOn, fitsIn, hourOfMinutes, slotsIn, weekdayOf, windowsOn, type Span } from '../../../src/services/slots.js'
import type { BlockRow, DatedRow, WeeklyRow } from '../../../src/mapping/compile/availability.js'
import { addDays, nowHourIn, todayIn } from '../../../src/normalise/datetime.js'

type Test = Parameters<Parameters<typeof t.test>[0]>[0]

// ---- the arithmetic, on hand-made rows ----

const hm = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))
const span = (a: string, b: string): Span => ({ start: hm(a), end: hm(b) })
const show = (xs: Span[]): string[] => xs.map((s) => `${hourOfMinutes(s.start)}-${hourOfMinutes(s.end)}`)

t.test('slot arithmetic', async (t) => {
  t.test('slots step from the window start and fit inside it', async (t) => {
    t.same(show(slotsIn(span('08:00', '10:00'), 30, [])), ['08:00-08:30', '08:30-09:00', '09:00-09:30', '09:30-10:00'])
    // 45 does not divide 4 hours: the last 15 minutes stay unused, nothing crosses the end.
    t.same(show(slotsIn(span('08:00', '12:00'), 45, [])), ['08:00-08:45', '08:45-09:30', '09:30-10:15', '10:15-11:00', '11:00-11:45'])
    t.same(slotsIn(span('08:00', '08:20'), 30, []), [], 'a window shorter than a slot offers nothing')
    t.same(slotsIn(span('08:00', '09:00'), 0, []), [], 'no slot length, no slots')
  })

  t.test('a window ending at 23:59', async (t) => {
    // 23:30-24:00 does not fit (and 24:00 is no hour): the day's last slot ends by 23:59.
    t.same(show(slotsIn(span('22:00', '23:59'), 30, [])), ['22:00-22:30', '22:30-23:00', '23:00-23:30'])
    t.same(show(slotsIn(span('23:00', '23:59'), 59, [])), ['23:00-23:59'], 'a slot may end exactly at 23:59')
    const late = slotsIn(span('20:00', '23:59'), 20, [])
    t.equal(hourOfMinutes(late[late.length - 1].end), '23:40')
    t.ok(late.every((s) => s.end <= hm('23:59')))
  })

  t.test('a block covering part of a window', async (t) => {
    const window = span('08:00', '12:00')
    const blocks: BlockRow[] = [{ from: '2027-01-05', to: '2027-01-05', start: '09:15', end: '10:00' }]
    const busy = blockedOn('2027-01-05', '7', blocks)
    t.same(show(busy), ['09:15-10:00'])
    // 09:00-09:30 and 09:30-10:00 touch the block; the grid stays anchored at 08:00.
    t.same(show(slotsIn(window, 30, busy)), ['08:00-08:30', '08:30-09:00', '10:00-10:30', '10:30-11:00', '11:00-11:30', '11:30-12:00'])
    t.same(show(slotsIn(window, 45, busy)), ['08:00-08:45', '10:15-11:00', '11:00-11:45'])
    // Touching ends are not overlaps: [10:00, 10:30) after a block ending at 10:00 is free.
    t.same(show(slotsIn(span('09:00', '11:00'), 60, [span('08:00', '09:00'), span('11:00', '12:00')])), ['09:00-10:00', '10:00-11:00'])
  })

  t.test('blocks: whole days, everybody, open ends, several days', async (t) => {
    const blocks: BlockRow[] = [
      { from: '2027-02-08', to: '2027-02-09' }, // everybody, whole days
      { professional: '4', from: '2027-02-10', to: '2027-02-12', start: '14:00' }, // from 14:00, each day
      { professional: '5', from: '2027-02-10', to: '2027-02-10', end: '10:00' } // until 10:00
    ]
    t.same(show(blockedOn('2027-02-09', '1', blocks)), ['00:00-24:00'], 'the whole day')
    t.same(blockedOn('2027-02-10', '1', blocks), [], 'other professionals are not blocked')
    t.same(show(blockedOn('2027-02-11', '4', blocks)), ['14:00-24:00'], 'to the end of each day')
    t.same(show(blockedOn('2027-02-10', '5', blocks)), ['00:00-10:00'])
    t.same(blockedOn('2027-02-13', '4', blocks), [], 'after the last day')
    t.same(slotsIn(span('08:00', '12:00'), 30, blockedOn('2027-02-08', '9', blocks)), [], 'a whole-day block leaves nothing')
  })

  t.test('windows from weekly and dated rows', async (t) => {
    // 2027-01-04 is a Monday.
    t.equal(weekdayOf('2027-01-03'), 0)
    t.equal(weekdayOf('2027-01-04'), 1)
    const weekly: WeeklyRow[] = [
      { professional: '3', location: '1', weekday: 1, start: '08:00', end: '12:00', interval: 30, validTo: '2027-01-03' },
      { professional: '3', location: '1', weekday: 1, start: '13:00', end: '18:00', interval: 30, validFrom: '2027-01-04' },
      { professional: '4', weekday: 2, start: '08:00', end: '12:00' },
      { professional: '5', weekday: 1, start: '12:00', end: '12:00' } // empty: ignored
    ]
    const dated: DatedRow[] = [{ professional: '9', location: 'X', date: '2027-01-04', start: '09:00', end: '10:30', interval: 45 }]
    const ws = windowsOn('2027-01-04', weekly, dated)
    t.same(ws.map((w) => `${w.professional}@${w.location ?? '-'} ${hourOfMinutes(w.start)}-${hourOfMinutes(w.end)}/${w.interval ?? '-'}`),
      ['3@1 13:00-18:00/30', '9@X 09:00-10:30/45'], 'validity is respected, other weekdays and dates are left out')
    t.equal(windowsOn('2026-12-28', weekly, []).length, 1, 'the old row holds before its validTo')
    t.equal(windowsOn('2027-01-05', weekly, dated)[0].professional, '4')
  })

  t.test('fitsIn: inside a window, outside blocks, on or off the grid', async (t) => {
    const windows = [span('08:00', '12:00'), span('14:00', '18:00')]
    t.ok(fitsIn(span('08:00', '08:30'), windows, []))
    t.notOk(fitsIn(span('08:10', '08:40'), windows, []), 'off the grid: /availability never offers it')
    t.ok(fitsIn(span('08:45', '09:30'), windows, []), 'a 45-minute slot on its own grid (08:00, 08:45, …)')
    t.notOk(fitsIn(span('08:30', '09:15'), windows, []), 'a 45-minute slot off its grid')
    t.ok(fitsIn(span('14:30', '15:00'), windows, []), 'the grid starts again with each window')
    t.ok(fitsIn(span('11:30', '12:00'), windows, []))
    t.notOk(fitsIn(span('11:45', '12:15'), windows, []), 'crosses the window end')
    t.notOk(fitsIn(span('12:00', '14:00'), windows, []), 'between windows')
    t.notOk(fitsIn(span('09:00', '09:30'), windows, [span('09:15', '10:00')]), 'touches a block')
  })

  t.test('slots before "now" are not offered', async (t) => {
    t.same(show(slotsIn(span('08:00', '10:00'), 30, [], hm('08:40'))), ['09:00-09:30', '09:30-10:00'])
    t.same(show(slotsIn(span('08:00', '10:00'), 30, [], hm('09:00'))), ['09:00-09:30', '09:30-10:00'], 'a slot starting now is still offered')
  })
})

// ---- the samples, over HTTP ----

const START = '2027-01-18' // 31 days with holidays, vacations, Carnival and a partial day in both samples
const END = '2027-02-17'
const CANCELED = 'CANCELED'

interface RawWindow { professional: string, location?: string, start: number, end: number, interval?: number }
interface RawBlock { professional?: string, from: string, to: string, start: number, end: number }
interface Raw {
  windows: (date: string) => RawWindow[]
  blocks: RawBlock[]
  /** Inserts an appointment row straight into the legacy table. */
  insert: (x: { date: string, hour: string, endHour: string, professional: string, location?: string, canceled?: boolean }) => void
}

const text = (x: unknown): string | undefined => x === null || x === undefined || String(x).trim() === '' ? undefined : String(x).trim()
/** '8:00', '08:00 ', '08:00:00' → minutes, read here independently of the compiler. */
function minutes (x: unknown): number | undefined {
  const m = /^(\d{1,2}):(\d{2})/.exec(String(x ?? '').trim())
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined
}

function rawOf (a: TestApp): Raw {
  const db = (a.inst.db as any).raw
  let nextId = 990001
  if (a.inst.model.installation === 'clinica-sorriso') {
    const rows: any[] = db.prepare('SELECT * FROM HORARIO').all()
    return {
      windows: (date) => rows
        .filter((r) => r.DIA_SEMANA - 1 === weekdayOf(date) && (r.VIGENCIA_INI ?? '') <= date && (r.VIGENCIA_FIM === null || r.VIGENCIA_FIM >= date))
        .map((r) => ({ professional: String(r.ID_PROFISSIONAL), location: text(r.ID_UNIDADE), start: minutes(r.HORA_INICIO) as number, end: minutes(r.HORA_FIM) as number, interval: r.INTERVALO ?? undefined })),
      blocks: (db.prepare('SELECT * FROM BLOQUEIO').all() as any[]).map((r) => ({
        professional: text(r.ID_PROFISSIONAL), from: r.DT_INICIO, to: r.DT_FIM ?? r.DT_INICIO, start: minutes(r.HORA_INICIO) ?? 0, end: minutes(r.HORA_FIM) ?? 1440
      })),
      insert (x) {
        db.prepare(`INSERT INTO AGENDA (ID_AGENDA, DATA, HORA, DURACAO, ID_PACIENTE, ID_PROFISSIONAL, FL_HIGIENE, SITUACAO, CONFIRMADO, EXCLUIDO, DT_CADASTRO, USUARIO)
          VALUES (?, ?, ?, ?, NULL, ?, 'N', ?, 'N', 'N', '2026-11-21 10:00:00', 'TESTE')`)
          .run(nextId++, x.date, x.hour, hm(x.endHour) - hm(x.hour), Number(x.professional), x.canceled ? 'X' : 'A')
      }
    }
  }
  const shifts = db.prepare("SELECT * FROM doctor_shifts WHERE status = 'published' AND shift_date = ?")
  return {
    windows: (date) => (shifts.all(date) as any[]).map((r) => ({
      professional: String(r.doctor_id), location: text(r.clinic_id), start: minutes(r.start_time) as number, end: minutes(r.end_time) as number, interval: r.slot_minutes ?? undefined
    })),
    blocks: (db.prepare('SELECT * FROM time_off').all() as any[]).map((r) => ({
      professional: text(r.doctor_id), from: r.starts_on, to: r.ends_on ?? r.starts_on, start: minutes(r.start_time) ?? 0, end: minutes(r.end_time) ?? 1440
    })),
    insert (x) {
      db.prepare(`INSERT INTO appointments (patient_id, doctor_ref, clinic_id, starts_at, ends_at, status, created_at, created_by)
        VALUES (1, ?, ?, ?, ?, ?, '2026-11-21 10:00:00', 'test')`)
        .run(x.professional, x.location ?? 'CLN-01', `${x.date} ${x.hour}:00`, `${x.date} ${x.endHour}:00`, x.canceled ? 2 : 0)
    }
  }
}

const days = (from: string, to: string): string[] => {
  const out: string[] = []
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d)
  return out
}
const overlap = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end
const slotSpan = (s: any): Span => ({ start: hm(s.hour), end: hm(s.endHour) })
const key = (s: any): string => `${s.date} ${s.hour}-${s.endHour} ${s.professional.id}@${s.location?.id ?? '-'}`
const blocksOf = (raw: Raw, date: string, professional: string): RawBlock[] =>
  raw.blocks.filter((b) => b.from <= date && date <= b.to && (b.professional === undefined || b.professional === professional))

async function get (t: Test, a: TestApp, url: string): Promise<any> {
  const r = await a.get(url)
  t.equal(r.status, 200, `GET ${url}`)
  return r.body
}

/** Appointments that hold their slot, by professional and date (from GET /appointments). */
async function occupiedBy (t: Test, a: TestApp, professional: string, from: string, to: string): Promise<Map<string, { hour: string, endHour?: string, id: string }[]>> {
  const list = await get(t, a, `/appointments?start=${from}&end=${to}&professional=${professional}`) as any[]
  const out = new Map<string, { hour: string, endHour?: string, id: string }[]>()
  for (const x of list) {
    if (x.state === CANCELED) continue
    out.set(x.date, [...(out.get(x.date) ?? []), x])
  }
  return out
}

/** The free slots of one professional, computed from the raw rows and GET /appointments. */
function expectedSlots (raw: Raw, professional: string, dates: string[], occupied: Map<string, { hour: string, endHour?: string }[]>, slotMinutes: number): string[] {
  const out = new Set<string>()
  for (const date of dates) {
    for (const w of raw.windows(date).filter((x) => x.professional === professional)) {
      const step = w.interval ?? slotMinutes
      const busy: Span[] = [
        ...blocksOf(raw, date, professional),
        ...(occupied.get(date) ?? []).map((x) => ({ start: hm(x.hour), end: x.endHour !== undefined && x.endHour > x.hour ? hm(x.endHour) : hm(x.hour) + step }))
      ]
      for (let s = w.start; s + step <= w.end; s += step) {
        const slot = { start: s, end: s + step }
        if (busy.some((b) => overlap(slot, b))) continue
        out.add(`${date} ${hourOfMinutes(s)}-${hourOfMinutes(s + step)} ${professional}@${w.location ?? '-'}`)
      }
    }
  }
  return [...out].sort()
}

for (const mapping of SAMPLES) {
  const name = mapping.replace(/^.*\//, '').replace(/\.ya?ml$/, '')
  t.test(name, async (t) => {
    const a = await sampleApp(mapping)
    t.teardown(async () => { await a.close() })
    const raw = rawOf(a)
    const tz = a.inst.model.timezone
    const slotMinutes = a.inst.model.availability?.slotMinutes ?? 30
    t.ok(todayIn(tz) < START, `the test range (${START}…${END}) is in the future (today ${todayIn(tz)})`)
    const range = `start=${START}&end=${END}`
    const all = await get(t, a, `/availability?${range}`) as any[]
    const dates = days(START, END)
    const enabled = (await get(t, a, '/professionals?enabled=true') as any[]).map((p) => p.id as string)
    const disabled = (await get(t, a, '/professionals?enabled=false') as any[]).map((p) => p.id as string)
    const working = [...new Set(all.map((s) => s.professional.id as string))].sort()
    t.ok(all.length > 100, `the range has free slots (${all.length}, ${working.length} professionals)`)

    t.test('the shape, the order, no duplicates', async (t) => {
      const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/
      t.ok(all.every((s) => dates.includes(s.date) && HOUR.test(s.hour) && HOUR.test(s.endHour) && s.endHour > s.hour), 'dates in range, HH:MM hours, end after start')
      t.ok(all.every((s) => typeof s.professional.name === 'string' && s.professional.name !== '' && (s.location === undefined || typeof s.location.address === 'string')))
      t.equal(new Set(all.map(key)).size, all.length, 'no slot twice')
      const sorted = all.slice().sort((x, y) => x.date.localeCompare(y.date) || x.hour.localeCompare(y.hour) ||
        Number(x.professional.id) - Number(y.professional.id) || String(x.location?.id).localeCompare(String(y.location?.id)))
      t.same(all.map(key), sorted.map(key), 'sorted by date, hour, professional id')
    })

    t.test('slots lie within the mapped hours, on the grid of the row, at its location', async (t) => {
      const outside = all.filter((s) => !raw.windows(s.date).some((w) =>
        w.professional === s.professional.id && w.location === s.location?.id && w.start <= hm(s.hour) && hm(s.endHour) <= w.end &&
        (hm(s.hour) - w.start) % (w.interval ?? slotMinutes) === 0 && hm(s.endHour) - hm(s.hour) === (w.interval ?? slotMinutes)))
      t.same(outside.map(key), [], 'every slot inside a row of that professional, date/weekday and location')
      t.same(working.filter((p) => !enabled.includes(p)), [], 'only enabled professionals')
      t.ok(disabled.length > 0, `the sample has disabled professionals (${disabled.join(', ')})`)
    })

    t.test('no slot in a block', async (t) => {
      const blocked = all.filter((s) => blocksOf(raw, s.date, s.professional.id).some((b) => overlap(slotSpan(s), b)))
      t.same(blocked.map(key), [], 'no slot overlaps a block of its professional or of everybody')
      const holidays = dates.filter((d) => raw.blocks.some((b) => b.professional === undefined && b.from <= d && d <= b.to && b.start === 0 && b.end === 1440))
      t.ok(holidays.length > 0, `whole-day holidays in the range: ${holidays.join(', ')}`)
      t.same(all.filter((s) => holidays.includes(s.date)).map(key), [], 'nobody has slots on a holiday')
      const vacations = raw.blocks.filter((b) => b.professional !== undefined && b.to >= START && b.from <= END && b.start === 0 && b.end === 1440)
      t.ok(vacations.length > 0, 'a professional\'s whole-day block in the range')
      for (const v of vacations) {
        t.same(all.filter((s) => s.professional.id === v.professional && s.date >= v.from && s.date <= v.to).map(key), [], `professional ${v.professional} has no slots ${v.from}…${v.to}`)
      }
    })

    t.test('never overlapping an appointment of that professional; exactly the free grid', async (t) => {
      let appointments = 0
      for (const p of working) {
        const occupied = await occupiedBy(t, a, p, START, END)
        appointments += [...occupied.values()].reduce((n, l) => n + l.length, 0)
        const mine = all.filter((s) => s.professional.id === p)
        const clash = mine.filter((s) => (occupied.get(s.date) ?? []).some((x) =>
          (x.endHour !== undefined && x.endHour > x.hour ? overlap(slotSpan(s), { start: hm(x.hour), end: hm(x.endHour) }) : false) ||
          (s.hour <= x.hour && x.hour < s.endHour)))
        t.same(clash.map(key), [], `professional ${p}: no slot overlaps one of their appointments`)
        t.same(mine.map(key).sort(), expectedSlots(raw, p, dates, occupied, slotMinutes), `professional ${p}: the slots are the mapped grid minus blocks and appointments`)
      }
      t.ok(appointments > 50, `the range holds appointments to avoid (${appointments})`)
    })

    t.test('filters', async (t) => {
      for (const p of working.slice(0, 4)) {
        t.same((await get(t, a, `/availability?${range}&professional=${p}`) as any[]).map(key), all.filter((s) => s.professional.id === p).map(key), `professional=${p}`)
      }
      const locations = [...new Set(all.map((s) => s.location?.id).filter((x) => x !== undefined))] as string[]
      t.ok(locations.length > 1, 'slots at several locations')
      for (const l of locations) {
        t.same((await get(t, a, `/availability?${range}&location=${encodeURIComponent(l)}`) as any[]).map(key), all.filter((s) => s.location?.id === l).map(key), `location=${l}`)
      }
      for (const [param, path] of [['specialty', '/specialties'], ['healthInsurance', '/health-insurances']]) {
        for (const x of (await get(t, a, path) as any[]).slice(0, 4)) {
          const allowed = new Set((await get(t, a, `/professionals?${param}=${encodeURIComponent(x.id)}`) as any[]).map((p) => p.id))
          const got = await get(t, a, `/availability?${range}&${param}=${encodeURIComponent(x.id)}`) as any[]
          t.same(got.map(key), all.filter((s) => allowed.has(s.professional.id)).map(key), `${param}=${x.id}: the slots of professionals related to it`)
        }
      }
      const disabledWithHours = disabled.filter((p) => dates.some((d) => raw.windows(d).some((w) => w.professional === p)))
      for (const p of disabled) t.same(await get(t, a, `/availability?${range}&professional=${p}`), [], `disabled professional ${p}${disabledWithHours.includes(p) ? ' (who has rows in the range)' : ''} offers nothing`)
      for (const q of ['professional=999999', 'service=999999', 'location=NOWHERE', 'specialty=999999', 'healthInsurance=999999', 'professional=abc']) {
        t.same(await get(t, a, `/availability?${range}&${q}`), [], `unknown id: ${q} → []`)
      }
    })

    t.test('service: its professionals, its duration', async (t) => {
      const services = (await get(t, a, '/services?enabled=true') as any[]).filter((s) => typeof s.duration === 'number')
      let tried = 0
      for (const svc of services) {
        const offering = new Set((await get(t, a, `/professionals?service=${svc.id}`) as any[]).map((p) => p.id))
        if (![...offering].some((p) => working.includes(p))) continue
        const slots = await get(t, a, `/availability?${range}&service=${svc.id}`) as any[]
        t.ok(slots.length > 0, `service ${svc.id} (${svc.duration} min) has slots`)
        t.same(slots.filter((s) => hm(s.endHour) - hm(s.hour) !== svc.duration).map(key), [], `service ${svc.id}: endHour − hour = ${svc.duration}`)
        t.same(slots.filter((s) => !offering.has(s.professional.id)).map(key), [], `service ${svc.id}: only professionals offering it`)
        t.ok(slots.every((s) => s.service?.id === svc.id && s.service.duration === svc.duration), 'the slot names the service')
        const outside = slots.filter((s) => !raw.windows(s.date).some((w) => w.professional === s.professional.id && w.start <= hm(s.hour) && hm(s.endHour) <= w.end))
        t.same(outside.map(key), [], 'inside the mapped hours')
        const blocked = slots.filter((s) => blocksOf(raw, s.date, s.professional.id).some((b) => overlap(slotSpan(s), b)))
        t.same(blocked.map(key), [], 'outside blocks')
        const p = slots[0].professional.id
        const occupied = await occupiedBy(t, a, p, START, END)
        const clash = slots.filter((s) => s.professional.id === p && (occupied.get(s.date) ?? []).some((x) => x.endHour !== undefined && overlap(slotSpan(s), { start: hm(x.hour), end: hm(x.endHour) })))
        t.same(clash.map(key), [], `service ${svc.id}, professional ${p}: no overlap with appointments`)
        if (++tried === 3) break
      }
      t.equal(tried, 3, 'three services checked')
    })

    t.test('a booked slot disappears (the catalogue cache does not hide it)', async (t) => {
      const p = working[0]
      const before = await get(t, a, `/availability?${range}&professional=${p}`) as any[]
      const target = before[Math.floor(before.length / 2)]
      const other = before.find((s) => s.date !== target.date) as any
      raw.insert({ date: target.date, hour: target.hour, endHour: target.endHour, professional: p, location: target.location?.id })
      raw.insert({ date: other.date, hour: other.hour, endHour: other.endHour, professional: p, location: other.location?.id, canceled: true })
      const after = await get(t, a, `/availability?${range}&professional=${p}`) as any[]
      t.notOk(after.some((s) => key(s) === key(target)), `${key(target)} is gone`)
      t.ok(after.some((s) => key(s) === key(other)), `${key(other)} stays: a cancelled appointment frees its slot`)
      const expected = before.filter((s) => !(s.date === target.date && overlap(slotSpan(s), slotSpan(target))))
      t.same(after.map(key), expected.map(key), 'nothing else changed')
      const unfiltered = await get(t, a, `/availability?${range}`) as any[]
      t.notOk(unfiltered.some((s) => key(s) === key(target)), 'gone from the unfiltered list too')
    })

    t.test('offers: inside the hours and outside blocks, occupancy ignored', async (t) => {
      const av = a.ponte.availability as Availability
      for (const s of all.filter((_, i) => i % 97 === 0)) {
        t.equal(await av.offers(s.date, s.hour, s.endHour, s.professional.id, s.location?.id, undefined), true, `${key(s)} is offered`)
        t.equal(await av.offers(s.date, s.hour, s.endHour, s.professional.id, undefined, undefined), true, `${key(s)} is offered (any location)`)
        t.equal(await av.offers(s.date, s.hour, s.endHour, s.professional.id, 'NOWHERE', undefined), false, 'not at another location')
      }
      const holiday = dates.find((d) => raw.blocks.some((b) => b.professional === undefined && b.from <= d && d <= b.to && b.start === 0 && b.end === 1440)) as string
      const w = raw.windows(holiday)[0] ?? raw.windows(addDays(holiday, -7))[0]
      t.equal(await av.offers(holiday, hourOfMinutes(w.start), hourOfMinutes(w.start + 30), w.professional, undefined, undefined), false, `${holiday} is blocked for everybody`)
      // A slot taken by an appointment is still inside the hours: booking checks occupancy.
      const occupied = await occupiedBy(t, a, working[0], START, END)
      const [date, list] = [...occupied.entries()].find(([d, l]) => l.some((x) => raw.windows(d).some((w) => w.professional === working[0] && w.start <= hm(x.hour) && hm(x.hour) + 10 <= w.end)) && blocksOf(raw, d, working[0]).length === 0) as [string, any[]]
      const x = list.find((x) => raw.windows(date).some((w) => w.professional === working[0] && w.start <= hm(x.hour) && hm(x.hour) + 10 <= w.end))
      t.equal(await av.offers(date, x.hour, hourOfMinutes(hm(x.hour) + 10), working[0], undefined, undefined), true, 'an occupied slot is still within the hours')
      t.equal(await av.offers('2027-13-01', '08:00', '08:30', working[0], undefined, undefined), false, 'not a date')
      t.equal(await av.offers(date, '09:00', '08:30', working[0], undefined, undefined), false, 'end before start')
    })

    t.test('the past and "now"', async (t) => {
      t.same(await get(t, a, '/availability?start=2026-06-01&end=2026-06-30'), [], 'a range in the past has no slots')
      const today = todayIn(tz)
      const around = await get(t, a, `/availability?start=${addDays(today, -3)}&end=${addDays(today, 3)}`) as any[]
      const now = nowHourIn(tz)
      t.same(around.filter((s) => s.date < today || (s.date === today && s.hour < now)).map(key), [], `nothing before now (${today} ${now})`)
      // A fixed clock in the middle of a working day: earlier slots of that day go, later ones stay.
      const day = all.find((s) => s.hour >= '10:00' && all.some((x) => x.date === s.date && x.hour < '10:00'))?.date as string
      const clock = new Availability(a.ponte.compiled, a.inst.db, a.ponte.catalog, { now: () => new Date(`${day}T13:00:00Z`) }) // 10:00 in São Paulo
      t.equal(nowHourIn(tz, new Date(`${day}T13:00:00Z`)), '10:00')
      const got = await clock.freeSlots({ start: addDays(day, -1), end: addDays(day, 1) }, undefined)
      t.same(got.filter((s) => s.date < day || (s.date === day && s.hour < '10:00')).map(key), [], 'none before 10:00 that day, none the day before')
      const current = await get(t, a, `/availability?start=${day}&end=${addDays(day, 1)}`) as any[]
      t.same(got.map(key), current.filter((s) => s.date > day || s.hour >= '10:00').map(key), 'the rest is as usual')
    })

    t.test('bad input is a 400 problem', async (t) => {
      for (const [q, path] of [
        ['start=someday&end=2027-01-20', '/querystring/start'],
        ['start=2027-01-20&end=2027-02-30', '/querystring/end'],
        ['start=2027-01-20&end=2027-01-19', '/querystring/end'],
        [`start=2027-01-01&end=${addDays('2027-01-01', 31)}`, '/querystring/end'],
        ['start=2027-01-20', '/querystring/end']
      ]) {
        const r = await a.get(`/availability?${q}`)
        t.equal(r.status, 400, q)
        t.match(String(r.headers['content-type']), /^application\/problem\+json/)
        t.ok(r.body.errors?.some((e: any) => e.path === path), `${q}: an error at ${path}`, { errors: r.body.errors })
      }
      t.equal((await a.get(`/availability?start=2027-01-01&end=${addDays('2027-01-01', 30)}`)).status, 200, '31 days are allowed')
      t.equal((await a.get('/availability?start=2027-01-20T10:00:00-03:00&end=2027-01-21')).status, 200, 'an ISO date-time is a date')
    })

    t.test('a bounded number of statements, whatever the range', async (t) => {
      await get(t, a, `/availability?${range}`) // catalogue warm
      for (const q of [`start=${START}&end=${START}`, range, `${range}&professional=${working[0]}`, `${range}&service=1&location=${all[0].location?.id ?? ''}`]) {
        const before = a.inst.db.stats.statements
        await get(t, a, `/availability?${q}`)
        const n = a.inst.db.stats.statements - before
        t.ok(n <= 4, `${q}: ${n} statements`)
      }
    })

    t.test('an installation without availability answers 404', async (t) => {
      const model = { ...a.inst.model, availability: undefined }
      const compiled = compileMapping(model, a.inst.db.dialect)
      t.equal(compiled.availability, undefined)
      // Booking's own reads of a day stay: they guard every installation against double booking.
      const names = compiled.statements().map((s) => s.name)
      t.notOk(names.some((n) => n.startsWith('availability.')), 'no availability statements')
      t.same(names.filter((n) => n.startsWith('appointment.occupancy')).sort(),
        ['appointment.occupancy[client]', 'appointment.occupancy[professional]', 'appointment.occupancy[professional|client]', 'appointment.occupancybyId[].locked'], 'only booking\'s occupancy reads')
      const ponte = createPonte(loadConfig({ API_KEYS: 'k-0123456789abcdef0123', MAPPING: mapping }), a.inst.db, compiled)
      const app = await buildApp(ponte, { logLevel: false })
      t.teardown(async () => { await app.close() })
      const res = await app.inject({ method: 'GET', url: `/availability?${range}`, headers: { authorization: 'Bearer k-0123456789abcdef0123' } })
      t.equal(res.statusCode, 404)
      t.match(String(res.headers['content-type']), /^application\/problem\+json/)
      t.match(JSON.parse(res.body).detail, /not mapped/)
      t.equal(await ponte.availability?.offers(START, '08:00', '08:30', working[0], undefined, undefined), undefined, 'offers: undefined')
      t.equal((await a.get(`/availability?${range}`)).status, 200, 'the mapped installation still answers')
    })
  })
}
