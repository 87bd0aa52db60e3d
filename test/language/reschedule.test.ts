// A reschedule code of the clinic's own (`write.reschedule`) that reads as the state a
// reschedule moves to: the stored code is the one the mapping gives for reschedules, not the
// state's booking code (found going live on a schema with 'booked' and 'resched' codes).
import t from 'tap'
import { scratchInstallation } from '../helpers/scratch.js'

const SCHEMA = `
CREATE TABLE appt (id INTEGER PRIMARY KEY, day TEXT NOT NULL, at TEXT NOT NULL, status TEXT NOT NULL, who INTEGER NOT NULL, doc INTEGER NOT NULL);
CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, mobile TEXT);
CREATE TABLE doc (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO doc VALUES (1, 'Dr. One');
INSERT INTO person VALUES (7, 'Ana Lima', '+351912345678');
INSERT INTO appt VALUES (100, '2099-03-02', '09:00', 'confirmed', 7, 1);
`

const MAPPING = `
version: 1
installation: reschedule-code
phone: { defaultCountry: PT }
states:
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [CANCELED, WAITING] }
  onReschedule: WAITING
resources:
  appointment:
    table: appt
    key: id
    start: { date: { column: day, format: date }, hour: { column: at, format: time } }
    state: { column: status, map: { booked: WAITING, resched: WAITING, confirmed: CONFIRMED, cancelled: CANCELED } }
    refs: { client: who, professional: doc }
    write:
      key: { generate: max }
      reschedule: { status: { value: resched } }
  client:
    table: person
    key: id
    fields: { name: name }
    phones: [mobile]
  professional:
    table: doc
    key: id
    fields: { name: name }
`

t.test('a reschedule stores the code write.reschedule gives, read as the onReschedule state', async (t) => {
  const { raw, call } = await scratchInstallation(t, SCHEMA, MAPPING)
  const moved = await call('PATCH', '/appointments/100/time', { date: '2099-03-03', hour: '10:00' })
  t.equal(moved.status, 200)
  t.same(raw.prepare('SELECT day, at, status FROM appt WHERE id = 100').get(), { day: '2099-03-03', at: '10:00:00', status: 'resched' })
  t.match((await call('GET', '/appointments/100')).body, { state: 'WAITING', date: '2099-03-03', hour: '10:00' })

  const booked = await call('POST', '/appointments', { date: '2099-03-04', hour: '11:00', client: '7', professional: '1' })
  t.equal(booked.status, 200)
  t.equal((raw.prepare('SELECT status FROM appt WHERE id = 101').get() as { status: string }).status, 'booked', 'a new booking still stores the first code of its state')
})
