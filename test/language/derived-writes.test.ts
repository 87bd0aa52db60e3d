// Issue 27 item 8, write columns derived from what a booking names and from the clock, on a
// schema generated here (test/helpers/derived-writes.ts) and on every test database: a booking
// writes the patient's name copy (`SMITH,MARY ANN`, the compound forenames as stored), the
// visit kind's and doctor's names and its stamps; a state change and a reschedule stamp
// `last_update_date` (clinic clock) and `sync_utc` (UTC) and leave the copies; POST and PATCH
// /clients stamp the patient. Every value is read back from the database, each stamp within
// the request's time window on its own clock. Mapping mistakes are refused at their line.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DERIVED_MAPPING, derivedSchema } from '../helpers/derived-writes.js'
import { DAY, mapping as openSlotsMapping, schema as openSlotsSchema } from '../helpers/open-slots-installation.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { nowIn } from '../../src/normalise/datetime.js'

const ZONE = 'America/Toronto'

/** A stored date-time as 'YYYY-MM-DD HH:MM:SS' (pg hands a timestamp over as a Date on the process's clock). */
function stamp (x: unknown): string | null {
  if (x === null || x === undefined) return null
  if (x instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0')
    return `${x.getFullYear()}-${p(x.getMonth() + 1)}-${p(x.getDate())} ${p(x.getHours())}:${p(x.getMinutes())}:${p(x.getSeconds())}`
  }
  return String(x).replace('T', ' ').slice(0, 19)
}

/** The request's time window on the clinic's clock and on UTC's, to the second. */
async function during<T> (run: () => Promise<T>): Promise<{ out: T, local: [string, string], utc: [string, string] }> {
  const start = new Date(Math.floor(Date.now() / 1000) * 1000)
  const out = await run()
  const end = new Date()
  return { out, local: [nowIn(ZONE, start).datetime, nowIn(ZONE, end).datetime], utc: [nowIn('UTC', start).datetime, nowIn('UTC', end).datetime] }
}

function within (t: Test, value: unknown, [from, to]: [string, string], what: string): void {
  const s = stamp(value)
  t.ok(s !== null && s >= from && s <= to, `${what}: ${String(s)} within ${from} … ${to}`)
}

const booking = async (s: ServerScratch, id: string): Promise<Record<string, any>> =>
  (await s.rows(`SELECT pat_no, kind_id, day, at_time, status, name, title, doc_label, createdate, last_update_date AS last_update, sync_utc FROM booking WHERE booking_no = ${Number(id)}`))[0]
const patient = async (s: ServerScratch, id: string): Promise<Record<string, any>> =>
  (await s.rows(`SELECT forenames, surname, changed_at, changed_utc FROM patient_rec WHERE pat_no = ${Number(id)}`))[0]

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a booking writes the copies and stamps; a state change and a reschedule stamp it again', async (t) => {
      const s = await scratchOn(t, dialect, derivedSchema(dialect), DERIVED_MAPPING)
      const booked = await during(async () => await s.call('POST', '/appointments', { date: '2031-03-04', hour: '09:00', client: '1', professional: 'D1', service: '7' }))
      t.equal(booked.out.status, 200, JSON.stringify(booked.out.body))
      const id = booked.out.body.id as string
      let row = await booking(s, id)
      t.equal(String(row.pat_no), '1', 'the row of the client booked')
      t.equal(row.name, 'SMITH,MARY ANN', 'the name copy: surname, comma, the forenames as stored, upper case')
      t.equal(row.title, 'Annual physical', 'the visit kind\'s name')
      t.equal(row.doc_label, 'Dr Ada Lovelace', 'the doctor\'s name')
      within(t, row.createdate, booked.local, 'createdate on the clinic clock')
      within(t, row.last_update, booked.local, 'last_update_date on the clinic clock')
      t.equal(row.sync_utc, null, 'sync_utc is written by changes only (write.update)')
      const created = stamp(row.createdate)

      await new Promise((resolve) => setTimeout(resolve, 1100))
      const confirmed = await during(async () => await s.call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' }))
      t.equal(confirmed.out.status, 200, JSON.stringify(confirmed.out.body))
      row = await booking(s, id)
      t.equal(row.status, 'c', 'the state written')
      within(t, row.last_update, confirmed.local, 'last_update_date stamped by the state change')
      within(t, row.sync_utc, confirmed.utc, 'sync_utc stamped in UTC by the state change')
      t.equal(stamp(row.createdate), created, 'createdate kept')
      t.equal(row.name, 'SMITH,MARY ANN', 'the name copy kept')

      await new Promise((resolve) => setTimeout(resolve, 1100))
      const moved = await during(async () => await s.call('PATCH', `/appointments/${id}/time`, { date: '2031-03-05', hour: '10:30' }))
      t.equal(moved.out.status, 200, JSON.stringify(moved.out.body))
      row = await booking(s, id)
      t.same([String(row.day).slice(0, 10), row.at_time], ['2031-03-05', '10:30'], 'moved')
      within(t, row.last_update, moved.local, 'last_update_date stamped by the reschedule')
      within(t, row.sync_utc, moved.utc, 'sync_utc stamped in UTC by the reschedule')
      t.same([row.name, row.title, row.doc_label, stamp(row.createdate)], ['SMITH,MARY ANN', 'Annual physical', 'Dr Ada Lovelace', created], 'copies and createdate kept')

      // Without a service the title takes `otherwise`; another client, their own name.
      const plain = await s.call('POST', '/appointments', { date: '2031-03-04', hour: '11:00', client: '2', professional: 'D1' })
      t.equal(plain.status, 200, JSON.stringify(plain.body))
      row = await booking(s, plain.body.id)
      t.same([String(row.pat_no), row.name, row.title, row.kind_id], ['2', 'PATEL,RAJ', '', null], 'no service: the title is `otherwise`')
    })

    t.test('POST /clients stamps the new patient; PATCH stamps both clocks and leaves the appointment\'s copy', async (t) => {
      const s = await scratchOn(t, dialect, derivedSchema(dialect), DERIVED_MAPPING)
      const made = await during(async () => await s.call('POST', '/clients', { name: 'Li Wei Chen', phone: '+14165550133' }))
      t.equal(made.out.status, 200, JSON.stringify(made.out.body))
      let row = await patient(s, made.out.body.id)
      t.same([row.forenames, row.surname], ['Li Wei', 'Chen'], 'the patient row written')
      within(t, row.changed_at, made.local, 'changed_at stamped on creation (write.set)')
      t.equal(row.changed_utc, null, 'changed_utc only on changes')

      const before = await s.call('POST', '/appointments', { date: '2031-03-06', hour: '09:00', client: made.out.body.id, professional: 'D1', service: '7' })
      t.equal(before.status, 200, JSON.stringify(before.body))
      t.equal((await booking(s, before.body.id)).name, 'CHEN,LI WEI', 'the copy of a client Ponte registered')

      await new Promise((resolve) => setTimeout(resolve, 1100))
      const patched = await during(async () => await s.call('PATCH', `/clients/${made.out.body.id as string}`, { email: 'ignored@example.com', name: 'Li Wei Tan' }))
      t.equal(patched.out.status, 200, JSON.stringify(patched.out.body))
      row = await patient(s, made.out.body.id)
      t.same([row.forenames, row.surname], ['Li Wei', 'Tan'], 'renamed')
      within(t, row.changed_at, patched.local, 'changed_at stamped by PATCH on the clinic clock')
      within(t, row.changed_utc, patched.utc, 'changed_utc stamped by PATCH in UTC')
      t.equal((await booking(s, before.body.id)).name, 'CHEN,LI WEI', 'a rename does not rewrite the appointment\'s copy (documented)')
      const other = await patient(s, '2')
      t.same([other.changed_at, other.changed_utc], [null, null], 'only that patient stamped')
    })

    t.test('an open slot claimed, moved, then released: the claimed row takes the client\'s name copy and keeps it through the move, the released one loses it', async (t) => {
      // The GNU-Health-like rows of the open-slot tests; the copy goes in the unused `appointment_type`.
      const yaml = openSlotsMapping('release').replace('claim: { write_date: { now: datetime } }', 'claim: { write_date: { now: datetime }, appointment_type: { client: familyFirst } }')
      const s = await scratchOn(t, dialect, openSlotsSchema(dialect), yaml)
      const copy = async (id: string): Promise<unknown> => (await s.rows(`SELECT appointment_type FROM gh_appointment WHERE id = ${Number(id)}`))[0].appointment_type
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:30', client: '3', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(booked.body.id, '2', 'the free row claimed')
      t.equal(await copy('2'), 'Dias, Carla', 'the claim writes the copy (a one-column name cut by its split rule)')
      const moved = await s.call('PATCH', '/appointments/2/time', { date: DAY, hour: '10:00' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.equal(await copy('2'), 'Dias, Carla', 'the appointment keeps its id and its copy: the move swaps times with the free row')
      t.equal(await copy('3'), null, 'the free row it swapped with takes no copy')
      const cancelled = await s.call('PATCH', '/appointments/2/state', { state: 'CANCELED' })
      t.equal(cancelled.status, 200, cancelled.body)
      t.equal(await copy('2'), null, 'the released row keeps no copy of the client who left')
    })

    t.test('check reports a stamp or a name copy into a column of numbers', async (t) => {
      const s = await scratchOn(t, dialect, derivedSchema(dialect), DERIVED_MAPPING)
      const report = await checkOf(t, s.url, DERIVED_MAPPING.replace('doc_label: { professional: name }', 'room_no: { professional: name }').replace('        sync_utc: { now: datetime, storedIn: UTC }\n', '        sync_utc: { now: datetime, storedIn: UTC }\n        visits: { now: datetime }\n'))
      const problems = report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)
      t.ok(problems.some((p) => /write\/set\/room_no: `professional: name` writes a name, but column `room_no` holds numbers/.test(p)), problems.join('\n'))
      t.ok(problems.some((p) => /write\/update\/visits: `now` writes a date or time, but column `visits` holds numbers/.test(p)), problems.join('\n'))
      const clean = await checkOf(t, s.url, DERIVED_MAPPING)
      t.same(clean.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`), [], 'the mapping as written passes check')
    })
  })
}

t.test('mapping mistakes are refused at load, at their line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  t.equal(refused(DERIVED_MAPPING), 'accepted')
  const line = (text: string): number => DERIVED_MAPPING.split('\n').findIndex((l) => l.includes(text)) + 1
  const noService = DERIVED_MAPPING.slice(0, DERIVED_MAPPING.indexOf('  service:\n    table: visit_kind'))
  t.match(refused(noService), new RegExp(`m.yaml:${line('title: { service: name')}.*write/set/title/service.*no service is mapped under resources`))
  t.match(refused(DERIVED_MAPPING.replace('      service: kind_id\n', '')), /write\/set\/title\/service.*has no `refs.service`/)
  t.match(refused(DERIVED_MAPPING.replace('last_update_date: { now: datetime }\n        sync_utc', 'last_update_date: { client: name }\n        sync_utc')),
    new RegExp(`m.yaml:${line('        sync_utc') - 1}.*write/update/last_update_date/client.*goes under the appointment's write.set`))
  t.match(refused(DERIVED_MAPPING.replace('sync_utc: { now: datetime, storedIn: UTC }', 'status: { now: datetime }')), /write\/update\/status.*column `status` holds the appointment's state: a `now` stamp/)
  t.match(refused(DERIVED_MAPPING.replace('changed_at: { now: datetime }\n      update', 'tel: { now: datetime }\n      update')), /client\/write\/set\/tel.*holds a phone/)
  t.match(refused(DERIVED_MAPPING.replace("{ client: familyFirst, separator: ','", "{ client: name, separator: ','")), /write\/set\/name\/separator.*goes with `client: familyFirst`/)
  t.match(refused(DERIVED_MAPPING.replace('storedIn: UTC }\n  client', 'storedIn: Mars/Olympus }\n  client')), /sync_utc\/storedIn.*not an IANA time zone/)
  t.match(refused(DERIVED_MAPPING.replace('{ client: familyFirst', '{ client: nickname')), /write\/set\/name/)
})
