// `repeat` on an OpenEMR-like calendar generated in the test (test/helpers/openemr-calendar.ts),
// on every test database: working hours ("In Office", pc_catid 2) and absences ("Out Of
// Office", 3) are rows of openemr_postcalendar_events that recur by pc_recurrtype and a
// PHP-serialized pc_recurrspec, read as stored with `extract` (no `sql:`). The days expected are
// worked out below with plain Date arithmetic from the facts the rows are written from, not
// with the code under test.
// A second installation keeps its shifts as UTC datetimes (`storedIn`) beside a yearly holiday
// that blocks everybody.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import type { TestDialect } from '../helpers/app.js'
import { DOCTOR, LUNCH, ONE_OFF, OPENEMR_MAPPING, PERIOD, SECOND_TUESDAY, WEEKLY, openemrSchema } from '../helpers/openemr-calendar.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { MappingError } from '../../src/mapping/errors.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation } from '../../src/check/index.js'
import { checkOf } from '../helpers/check-of.js'
import { Writable } from 'node:stream'

// ---- the days expected, from the facts the rows are written from ----

const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay()
const minutes = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))
const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
function datesOf (from: string, to: string): string[] {
  const out: string[] = []
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) out.push(d.toISOString().slice(0, 10))
  return out
}

/** The 30-minute starts the doctor is offered on `date`, from the facts above. */
function expectedHours (date: string): string[] {
  const wd = weekdayOf(date)
  const windows: [string, string][] = []
  if (date >= WEEKLY.first && date <= WEEKLY.until && WEEKLY.days.includes(wd) && !WEEKLY.except.includes(date)) windows.push([WEEKLY.start, WEEKLY.end])
  const dayOfMonth = Number(date.slice(8))
  if (date >= SECOND_TUESDAY.first && wd === 2 && dayOfMonth >= 8 && dayOfMonth <= 14) windows.push([SECOND_TUESDAY.start, SECOND_TUESDAY.end])
  if (date === ONE_OFF.date) windows.push([ONE_OFF.start, ONE_OFF.end])
  const lunch = date >= LUNCH.first && wd >= 1 && wd <= 5
  const out: string[] = []
  for (const [s, e] of windows) {
    for (let m = minutes(s); m + 30 <= minutes(e); m += 30) {
      if (lunch && m < minutes(LUNCH.end) && m + 30 > minutes(LUNCH.start)) continue
      out.push(hhmm(m))
    }
  }
  return out.sort()
}

// ---- a UTC installation: weekly shifts as datetimes, a yearly holiday for everybody ----

const SHIFT = { first: '2031-03-03', until: '2031-03-24', storedStart: '12:00', storedEnd: '15:00', start: '09:00', end: '12:00' }
const HOLIDAY = '2031-03-17'

function utcSchema (dialect: TestDialect): string {
  const datetime = dialect === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
  return `
CREATE TABLE doctor (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL);
CREATE TABLE patient (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL);
CREATE TABLE visit (id INTEGER PRIMARY KEY, patient_id INTEGER NOT NULL, doctor_id INTEGER NOT NULL, starts_at ${datetime} NOT NULL, ends_at ${datetime} NOT NULL, status VARCHAR(10) NOT NULL);
CREATE TABLE shift (id INTEGER PRIMARY KEY, doctor_id INTEGER NOT NULL, starts_at ${datetime} NOT NULL, ends_at ${datetime} NOT NULL, last_day DATE);
CREATE TABLE holiday (id INTEGER PRIMARY KEY, first_day DATE NOT NULL, name VARCHAR(40) NOT NULL);
INSERT INTO doctor (id, name) VALUES (1, 'Iris Duarte');
INSERT INTO patient (id, name) VALUES (1, 'Joao Lima');
INSERT INTO shift (id, doctor_id, starts_at, ends_at, last_day) VALUES (1, 1, '${SHIFT.first} ${SHIFT.storedStart}:00', '${SHIFT.first} ${SHIFT.storedEnd}:00', '${SHIFT.until}');
INSERT INTO holiday (id, first_day, name) VALUES (1, '${HOLIDAY.replace('2031', '2029')}', 'Founding day');
`
}

const UTC_MAPPING = `version: 1
installation: utc-shifts
timezone: America/Sao_Paulo
storedIn: UTC
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: visit
    key: id
    start: { datetime: { column: starts_at, format: datetime } }
    end: { datetime: { column: ends_at, format: datetime } }
    state: { column: status, map: { booked: WAITING, cancelled: CANCELED } }
    refs: { client: patient_id, professional: doctor_id }
    write: { key: { generate: max } }
  client: { table: patient, key: id, fields: { name: name } }
  professional: { table: doctor, key: id, fields: { name: name } }
availability:
  slotMinutes: 30
  dated:
    table: shift
    professional: doctor_id
    start: { column: starts_at, format: datetime }
    end: { column: ends_at, format: datetime }
    repeat:
      kind: { value: every }
      unit: { value: week }
      until: { column: last_day, format: date }
  blocks:
    table: holiday
    from: { column: first_day, format: date }
    repeat: { kind: { value: every }, unit: { value: year } }
`

// ---- helpers ----

async function offered (s: ServerScratch, from: string, to: string, professional = DOCTOR): Promise<Map<string, string[]>> {
  const r = await s.call('GET', `/availability?start=${from}&end=${to}&professional=${professional}`)
  if (r.status !== 200) throw new Error(`/availability → ${r.status} ${JSON.stringify(r.body)}`)
  const byDate = new Map<string, string[]>()
  for (const slot of r.body as { date: string, hour: string }[]) byDate.set(slot.date, [...byDate.get(slot.date) ?? [], slot.hour])
  return byDate
}

/** A stored date-time as its text, whichever way the side connection hands it back (PostgreSQL's driver: a local Date). */
function stored (x: unknown): string {
  if (!(x instanceof Date)) return String(x).slice(0, 19).replace('T', ' ')
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${x.getFullYear()}-${p(x.getMonth() + 1)}-${p(x.getDate())} ${p(x.getHours())}:${p(x.getMinutes())}`
}

const count = async (s: ServerScratch): Promise<number> => Number((await s.rows('SELECT COUNT(*) AS n FROM openemr_postcalendar_events'))[0].n)

const dir = mkdtempSync(join(tmpdir(), 'ponte-repeat-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const loadError = (yaml: string): MappingError | undefined => {
  try {
    compileMapping(buildModel(parseMapping(yaml, 'openemr.yaml')), sqlite)
  } catch (err) {
    if (err instanceof MappingError) return err
    throw err
  }
  return undefined
}

t.test('patterns are checked when the mapping loads, at their line', async (t) => {
  t.equal(loadError(OPENEMR_MAPPING), undefined, 'the mapping of this test loads')
  const lineOf = (yaml: string, text: string): number => yaml.split('\n').findIndex((l) => l.includes(text)) + 1
  const two = OPENEMR_MAPPING.replace('"event_repeat_on_freq";s:\\d+:"(\\d+)"', '"event_repeat_on_freq";s:(\\d+):"(\\d+)"')
  const e2 = loadError(two)
  t.match(e2?.message, /repeat\/months\/extract: has 2 capture groups: give exactly one/)
  t.match(e2?.message, new RegExp(`openemr\\.yaml:${lineOf(two, 'event_repeat_on_freq')}:`), 'at the line of the pattern')
  const nested = OPENEMR_MAPPING.replace('"exdate";s:\\d+:"([^"]*)"', '"exdate";s:\\d+:"((?:\\d+,?)*)"')
  t.match(loadError(nested)?.message, /repeat\/except\/extract: repeats a group that itself repeats/)
  t.match(loadError(OPENEMR_MAPPING.replace('"exdate";s:\\d+:"([^"]*)"', '"exdate";s:\\d+:"([^"]*"'))?.message, /repeat\/except\/extract: is not a regular expression/)
  t.match(loadError(OPENEMR_MAPPING.replace('3: weekdays }', '3: fortnightly }'))?.message, /repeat\/kind\/map\/3: `fortnightly` is not one of once, every, nth, weekdays/)
  t.match(loadError(OPENEMR_MAPPING.replace(/ {6}unit: .*\n/, ''))?.message, /repeat\/unit: rows can be `every` \(see `kind`\): give `unit`/)
  t.match(loadError(OPENEMR_MAPPING.replace('    from: { column: pc_eventDate, format: date }\n', '    from: { column: pc_eventDate, format: date }\n    to: { column: pc_endDate, format: date }\n'))?.message, /blocks\/to: with `repeat` each date the block falls on is one day/)
  t.match(loadError(OPENEMR_MAPPING.replace('      client: pc_pid\n', "      client: { column: pc_title, extract: '^(\\d+)' }\n"))?.message, /refs\/client\/extract: `extract` takes the value out after the row is read: it cannot be compared in SQL/, 'a ref is filtered on: refused')
})

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, openemrSchema(dialect), OPENEMR_MAPPING)

    t.test('/availability offers exactly the dates each rule falls on, every day of the period', async (t) => {
      const got = new Map<string, string[]>()
      // At most 31 days a call: windows that begin mid-rule as well as at its start.
      for (let from = PERIOD.from; from <= PERIOD.to;) {
        const days = datesOf(from, PERIOD.to).slice(0, 31)
        for (const [date, hours] of await offered(s, days[0], days[days.length - 1])) got.set(date, hours)
        from = datesOf(days[days.length - 1], PERIOD.to)[1] ?? '9999-12-31'
      }
      const wrong = datesOf(PERIOD.from, PERIOD.to).filter((d) => JSON.stringify(got.get(d) ?? []) !== JSON.stringify(expectedHours(d)))
      t.same(wrong, [], 'no day differs from the dates worked out by hand')
      t.equal(got.get('2031-03-03')?.length, 14, 'a Monday: 09:00–17:00 less the 12:00–13:00 lunch')
      t.same(got.get('2031-03-12'), undefined, 'an excluded Wednesday offers nothing')
      t.same(got.get('2031-03-11'), ['08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '11:30'], 'the second Tuesday')
      t.same(got.get('2031-03-18'), undefined, 'the third Tuesday does not')
      t.same(got.get('2031-03-15'), ['10:00', '10:30', '11:00', '11:30'], 'the one-off Saturday, no lunch on Saturdays')
      t.same(got.get('2031-05-02'), undefined, 'a Friday after `until`')
      t.ok(got.has('2031-05-13'), 'the second Tuesday of May: no end')
      t.same([...got.keys()].filter((d) => d < WEEKLY.first), [], 'nothing before the first date')
    })

    t.test('one day asked alone agrees with the day in a longer window', async (t) => {
      for (const day of ['2031-03-10', '2031-04-04', '2031-04-08', '2031-04-30']) {
        t.same((await offered(s, day, day)).get(day) ?? [], expectedHours(day), day)
      }
    })

    t.test('booking agrees: an offered slot is written; excluded, lunch and past `until` are 409 with nothing written', async (t) => {
      const before = await count(s)
      const booked = await s.call('POST', '/appointments', { date: '2031-03-17', hour: '09:30', client: '1', professional: DOCTOR })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const q = (name: string): string => dialect === 'mysql' ? `\`${name}\`` : `"${name}"`
      const [row] = await s.rows(`SELECT ${['pc_eventDate', 'pc_startTime', 'pc_endTime', 'pc_aid', 'pc_pid', 'pc_catid'].map(q).join(', ')} FROM openemr_postcalendar_events WHERE ${q('pc_eid')} = ${Number(booked.body.id)}`)
      t.same([String(row.pc_eventDate).slice(0, 10), String(row.pc_startTime).slice(0, 5), String(row.pc_endTime).slice(0, 5), String(row.pc_aid), Number(row.pc_pid), Number(row.pc_catid)],
        ['2031-03-17', '09:30', '10:00', DOCTOR, 1, 5], 'the row as sent, an Office Visit')
      t.notOk((await offered(s, '2031-03-17', '2031-03-17')).get('2031-03-17')?.includes('09:30'), 'no longer offered')
      const tuesday = await s.call('POST', '/appointments', { date: '2031-04-08', hour: '08:00', client: '2', professional: DOCTOR })
      t.equal(tuesday.status, 200, 'the second Tuesday of April')
      t.equal(await count(s), before + 2)

      for (const [why, date, hour] of [['an excluded date', '2031-03-12', '09:30'], ['the workday lunch', '2031-03-17', '12:00'], ['a Friday after `until`', '2031-05-02', '09:30'], ['the third Tuesday', '2031-04-15', '08:00'], ['a Saturday', '2031-03-22', '10:00']]) {
        const r = await s.call('POST', '/appointments', { date, hour, client: '1', professional: DOCTOR })
        t.equal(r.status, 409, `${why}: ${JSON.stringify(r.body)}`)
      }
      t.equal(await count(s), before + 2, 'nothing written by the refusals')
    })

    t.test('check counts the row whose recurrence cannot be read', async (t) => {
      const file = join(dir, `${dialect}.yaml`)
      writeFileSync(file, OPENEMR_MAPPING)
      const inst = await openInstallation(file, s.url, undefined, { structural: 'skip' })
      t.teardown(async () => { await inst.close() })
      const { lines } = await checkInstallation(inst, '2026-11-22')
      const dated = lines.filter((l) => l.includes('availability dated'))
      t.equal(dated.length, 1, lines.join('\n'))
      t.match(dated[0], /1 of 5 rows of `openemr_postcalendar_events` recur by a `repeat` rule that cannot be read, e\.g\. id \d+: they offer nothing/, 'provider 8\'s row with no frequency in its spec')
      t.notOk(lines.some((l) => /availability blocks:.*cannot be read/.test(l)), 'the lunch reads')
    })

    t.test('storedIn: UTC shifts recur on the clinic\'s clock; a yearly holiday blocks everybody', async (t) => {
      const u = await scratchOn(t, dialect, utcSchema(dialect), UTC_MAPPING)
      const got = await offered(u, '2031-03-01', '2031-03-31', '1')
      const mondays = datesOf('2031-03-01', '2031-03-31').filter((d) => weekdayOf(d) === 1 && d <= SHIFT.until && d !== HOLIDAY)
      t.same([...got.keys()], mondays, 'every Monday to `until`, but the holiday')
      t.same(got.get(SHIFT.first), ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'], '12:00–15:00 UTC is 09:00–12:00 in São Paulo')
      const booked = await u.call('POST', '/appointments', { date: '2031-03-10', hour: '09:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const [row] = await u.rows(`SELECT starts_at FROM visit WHERE id = ${Number(booked.body.id)}`)
      t.match(stored(row.starts_at), /^2031-03-10 12:00/, 'stored in UTC')
      t.equal((await u.call('POST', '/appointments', { date: HOLIDAY, hour: '09:00', client: '1', professional: '1' })).status, 409, 'the holiday')
      t.equal((await u.call('POST', '/appointments', { date: '2031-03-31', hour: '09:00', client: '1', professional: '1' })).status, 409, 'after `until`')
      t.equal(Number((await u.rows('SELECT COUNT(*) AS n FROM visit'))[0].n), 1, 'one visit written')
    })
  })
}

// ---- a Delphi agenda: fixed holidays kept once, with the year 2000, as dd/mm/yyyy text ----
// (found going live: FERIADOS.FIXO = 'S' rows were offered every year but 2000)

// Upper-case names, as the Delphi program created them (PostgreSQL keeps them only quoted).
const KEYWORDS = new Set(['CREATE', 'TABLE', 'INTEGER', 'PRIMARY', 'KEY', 'VARCHAR', 'CHAR', 'NOT', 'NULL', 'INSERT', 'INTO', 'VALUES', 'S', 'N'])
function delphiSchema (dialect: TestDialect): string {
  const q = dialect === 'mysql' ? '`' : '"'
  return `
CREATE TABLE MEDICOS (CODMEDICO INTEGER PRIMARY KEY, NOME VARCHAR(40) NOT NULL);
CREATE TABLE PACIENTES (CODPAC INTEGER PRIMARY KEY, NOME VARCHAR(40) NOT NULL);
CREATE TABLE AGENDA (CODAGENDA INTEGER PRIMARY KEY, CODPAC INTEGER NOT NULL, CODMEDICO INTEGER NOT NULL, DATA VARCHAR(10) NOT NULL, HORA VARCHAR(5) NOT NULL, STATUS CHAR(1) NOT NULL);
CREATE TABLE HORARIOS (ID INTEGER PRIMARY KEY, CODMEDICO INTEGER NOT NULL, DIA INTEGER NOT NULL, HR_INI VARCHAR(5) NOT NULL, HR_FIM VARCHAR(5) NOT NULL);
CREATE TABLE FERIADOS (ID INTEGER PRIMARY KEY, DATA VARCHAR(10) NOT NULL, FIXO CHAR(1) NOT NULL, DESCRICAO VARCHAR(40));
INSERT INTO MEDICOS VALUES (1, 'DRA. ANA');
INSERT INTO PACIENTES VALUES (1, 'JOSE DA SILVA');
INSERT INTO HORARIOS VALUES (1, 1, 5, '08:00', '10:00');
INSERT INTO FERIADOS VALUES (1, '25/12/2000', 'S', 'NATAL');
INSERT INTO FERIADOS VALUES (2, '24/12/2026', 'N', 'PONTO FACULTATIVO');
`.replace(/'[^']*'|\b[A-Z][A-Z_]*\b/g, (w) => w.startsWith("'") || KEYWORDS.has(w) ? w : `${q}${w}${q}`)
}

const DELPHI_MAPPING = `version: 1
installation: delphi-fixed-holidays
timezone: America/Sao_Paulo
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: AGENDA
    key: CODAGENDA
    start:
      date: { column: DATA, format: dmy }
      hour: { column: HORA, format: text }
    state: { column: STATUS, map: { A: WAITING, C: CANCELED } }
    refs: { client: CODPAC, professional: CODMEDICO }
    write: { key: { generate: max } }
  client: { table: PACIENTES, key: CODPAC, fields: { name: NOME } }
  professional: { table: MEDICOS, key: CODMEDICO, fields: { name: NOME } }
availability:
  slotMinutes: 60
  weekly: { table: HORARIOS, professional: CODMEDICO, weekday: DIA, weekdayBase: 1, start: { column: HR_INI, format: text }, end: { column: HR_FIM, format: text } }
  blocks:
    - table: FERIADOS
      from: { column: DATA, format: dmy }
      repeat:
        kind: { column: FIXO, map: { S: every, N: once } }
        unit: { value: year }
`

for (const dialect of testDialects()) {
  t.test(`${dialect}: fixed holidays stored with the year 2000 block every year; the others their one day`, async (t) => {
    const s = await scratchOn(t, dialect, delphiSchema(dialect), DELPHI_MAPPING)
    // Thursdays (DIA 5, Sunday 1) of December 2026 and 2027: 25/12/2026 is a Friday, so the
    // Thursday 24/12/2026 is the one-off; 25/12/2031 is a Thursday.
    const got = await offered(s, '2026-12-01', '2026-12-31', '1')
    const thursdays = datesOf('2026-12-01', '2026-12-31').filter((d) => weekdayOf(d) === 4 && d !== '2026-12-24')
    t.same([...got.keys()], thursdays, 'every Thursday but the one-off holiday')
    const later = await offered(s, '2031-12-01', '2031-12-31', '1')
    const thursdays31 = datesOf('2031-12-01', '2031-12-31').filter((d) => weekdayOf(d) === 4 && d !== '2031-12-25')
    t.same([...later.keys()], thursdays31, 'Christmas 2031 (a Thursday) blocked by the row of 2000; 24/12/2031 open')
    t.equal((await s.call('POST', '/appointments', { date: '2031-12-25', hour: '08:00', client: '1', professional: '1' })).status, 409, 'booking on the fixed holiday refused')
    t.equal(Number((await s.rows(`SELECT COUNT(*) AS n FROM ${dialect === 'mysql' ? 'AGENDA' : '"AGENDA"'}`))[0].n), 0, 'nothing written')
  })
}

// Found by an outside review: a recurring block whose rule cannot be read was ignored, so its
// days were offered. It now blocks every day it could fall on, says so in the log (the source
// and a count, no row's values), and `ponte check` reports it at `repeat` with the first key.
for (const dialect of testDialects()) {
  t.test(`${dialect}: a recurring block whose rule cannot be read blocks every day from its first date`, async (t) => {
    const q = dialect === 'mysql' ? '`' : '"'
    const schema = `${delphiSchema(dialect)}INSERT INTO ${q}FERIADOS${q} VALUES (3, '10/12/2026', 'X', 'RECESSO DA DRA. ANA');\n`
    let log = ''
    const logStream = new Writable({ write (chunk, _encoding, done) { log += String(chunk); done() } })
    const s = await scratchOn(t, dialect, schema, DELPHI_MAPPING, { logLevel: 'warn', logStream })
    const got = await offered(s, '2026-12-01', '2026-12-31', '1')
    t.same([...got.keys()], ['2026-12-03'], 'FIXO \'X\' (neither every nor once): no Thursday from 10/12 on is offered')
    t.same([...(await offered(s, '2031-12-01', '2031-12-31', '1')).keys()], [], 'nor years later: the rule might fall on any of them')
    t.equal((await s.call('POST', '/appointments', { date: '2026-12-17', hour: '08:00', client: '1', professional: '1' })).status, 409, 'a booking there is refused')
    t.equal(Number((await s.rows(`SELECT COUNT(*) AS n FROM ${q}AGENDA${q}`))[0].n), 0, 'nothing written')
    const warned = log.split('\n').filter((l) => l.includes('repeat rule cannot be read')).map((l) => JSON.parse(l) as Record<string, unknown>)
    t.equal(warned.length, 1, `said once: ${log}`)
    t.match(warned[0], { level: 40, source: 'availability.blocks[0]', rows: 1 })
    t.notMatch(log, /RECESSO|10\/12\/2026/, 'no row\'s values in the log')

    const report = await checkOf(t, s.url, DELPHI_MAPPING)
    const at = report.findings.filter((f) => f.severity === 'problem' && f.path === '/availability/blocks/0/repeat')
    t.equal(at.length, 1, JSON.stringify(report.findings.filter((f) => f.severity !== 'ok')))
    t.equal(at[0]?.line, DELPHI_MAPPING.split('\n').findIndex((l) => l.includes('kind: { column: FIXO')) + 1, 'at `repeat` (its first line)')
    t.match(at[0]?.message, /^1 of 3 rows of `FERIADOS` recur by a `repeat` rule that cannot be read, e\.g\. id 3: each blocks its hours on every day from its first date/)
    t.notOk(report.ok, 'check fails')
  })
}

// Found by an outside review: `kind` read by `extract` cannot narrow the SQL, so each read takes
// every row up to the last day asked; check warns at `kind` with the count past 5,000 rows.
for (const dialect of testDialects()) {
  t.test(`${dialect}: check warns of a recurring source whose \`kind\` is extracted, past 5,000 rows`, async (t) => {
    const q = dialect === 'mysql' ? '`' : '"'
    const oneOffs = Array.from({ length: 5001 }, (_, i) => `(${10 + i}, '${String(1 + (i % 28)).padStart(2, '0')}/0${1 + (i % 9)}/${2001 + (i % 20)}', 'N', 'FOLGA')`)
    const chunks = Array.from({ length: Math.ceil(oneOffs.length / 500) }, (_, i) => `INSERT INTO ${q}FERIADOS${q} VALUES ${oneOffs.slice(i * 500, i * 500 + 500).join(', ')};`)
    const s = await scratchOn(t, dialect, `${delphiSchema(dialect)}${chunks.join('\n')}\n`, DELPHI_MAPPING)
    const extracted = DELPHI_MAPPING.replace('kind: { column: FIXO, map:', "kind: { column: FIXO, extract: '^([SN])', map:")
    t.not(extracted, DELPHI_MAPPING, 'kind read by extract')
    const report = await checkOf(t, s.url, extracted)
    const at = report.findings.filter((f) => f.path === '/availability/blocks/0/repeat/kind')
    t.same(at.map((f) => f.severity), ['warning'], JSON.stringify(report.findings.filter((f) => f.severity !== 'ok')))
    t.equal(at[0]?.line, extracted.split('\n').findIndex((l) => l.includes("extract: '^([SN])'")) + 1, 'at the line of `kind`')
    t.match(at[0]?.message, /^`kind` is read by `extract`, which SQL cannot compare: every \/availability and booking reads every row of `FERIADOS` starting by the last day asked \(5,003 rows now/)
    const plain = await checkOf(t, s.url, DELPHI_MAPPING)
    t.notOk(plain.findings.some((f) => f.path.endsWith('/repeat/kind')), 'a plain column with a `map` narrows the SQL: nothing said')
  })
}
