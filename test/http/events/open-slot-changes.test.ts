// Issue 28, open slots (`openSlots`): where appointments are claimed free rows of the
// appointment table, a cancellation that releases the row (through Ponte, or the desk program
// clearing the patient) is `appointment.state_changed` and `appointment.canceled` carrying the
// appointment as it was, in the canceled state; never `appointment.deleted`, and the free row
// is no appointment (no event, GET 404). A desk DELETE is still a deletion. On a schema
// generated here (Portuguese column names, a text state, no end column), on every test database.
import t, { type Test } from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { eventsAfter, eventsNow, head, morePolls } from '../../helpers/event-feed.js'
import { addDays, todayIn } from '../../../src/normalise/datetime.js'

const ZONE = 'America/Sao_Paulo'
const day = (n: number): string => addDays(todayIn(ZONE), n)

const slot = (ano: number, d: number, hora: string, pno: number | null, sit: string): string =>
  `INSERT INTO agenda (ano, dia, hora, pno, dno, sit) VALUES (${ano}, '${day(d)}', '${hora}', ${pno ?? 'NULL'}, 7, '${sit}');`

const SCHEMA = `
CREATE TABLE paciente (pno INTEGER PRIMARY KEY, pnome VARCHAR(60) NOT NULL, celular VARCHAR(20));
CREATE TABLE doutor (dno INTEGER PRIMARY KEY, dnome VARCHAR(60) NOT NULL);
CREATE TABLE agenda (ano INTEGER PRIMARY KEY, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, pno INTEGER, dno INTEGER NOT NULL, sit VARCHAR(10) NOT NULL);
INSERT INTO paciente (pno, pnome, celular) VALUES (1, 'Iara Campos', '11987650011');
INSERT INTO paciente (pno, pnome, celular) VALUES (2, 'Otavio Lins', '11987650012');
INSERT INTO doutor (dno, dnome) VALUES (7, 'Dr. Caio Prates');
${slot(1, 2, '09:00', null, 'livre')}
${slot(2, 2, '09:30', null, 'livre')}
${slot(3, 2, '10:00', 1, 'marc')}
${slot(4, 3, '10:00', null, 'livre')}
${slot(5, 3, '11:00', null, 'livre')}
`

const mapping = (onCancel: string): string => `version: 1
installation: open-slot-events
timezone: ${ZONE}
states:
  values: [WAITING, CONFIRMED, CANCELED]
  free: [CANCELED]
resources:
  appointment:
    table: agenda
    key: ano
    start:
      date: { column: dia, format: date }
      hour: { column: hora, format: text }
    state: { column: sit, map: { marc: WAITING, conf: CONFIRMED, canc: CANCELED } }
    refs: { client: pno, professional: dno }
    openSlots:
      free: [{ column: pno, isNull: true }, { column: sit, eq: livre }]
      onCancel: ${onCancel}
    write:
      key: { generate: max }
    changes:
      window: { daysBefore: 1, daysAfter: 30 }
      pollSeconds: 0.2
  client:
    table: paciente
    key: pno
    fields: { name: pnome }
    phones: [celular]
  professional:
    table: doutor
    key: dno
    fields: { name: dnome }
`

const row = async (s: ServerScratch, ano: number): Promise<{ pno: number | null, sit: string }> => {
  const [r] = await s.rows(`SELECT pno, sit FROM agenda WHERE ano = ${ano}`)
  return { pno: r.pno === null ? null : Number(r.pno), sit: r.sit }
}

const kinds = (events: Array<{ type: string, appointmentId: string }>): string[][] => events.map((e) => [e.type, e.appointmentId])

async function released (t: Test, dialect: string): Promise<void> {
  const s = await scratchOn(t, dialect as any, SCHEMA, mapping('release'), { pollChanges: 'ready' })
  await morePolls(s, 1)

  // Booked and canceled through Ponte: the row is free again, the appointment canceled.
  let cursor = await head(s)
  const booked = await s.call('POST', '/appointments', { date: day(2), hour: '09:00', client: '1', professional: '7' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  t.equal(booked.body.id, '1', 'the booking claims the free row')
  const canceled = await s.call('PATCH', '/appointments/1/state', { state: 'CANCELED' })
  t.equal(canceled.status, 200, JSON.stringify(canceled.body))
  t.same(await row(s, 1), { pno: null, sit: 'livre' }, 'the row is free in the database (patient cleared)')
  t.equal((await s.call('GET', '/appointments/1')).status, 404, 'the free row is no appointment')
  let got = await eventsNow(s, cursor)
  t.same(kinds(got), [['appointment.created', '1'], ['appointment.state_changed', '1'], ['appointment.canceled', '1']], 'a cancellation through Ponte: state_changed and canceled, right after the 200, not deleted')
  t.same(got[1].data, { appointment: { ...booked.body, state: 'CANCELED' }, previous: { state: 'WAITING' } }, 'carrying the appointment as it was, now CANCELED')
  t.same(got[2].data, got[1].data, 'canceled carries the same')
  await morePolls(s, 2)
  t.equal((await eventsNow(s, cursor)).length, 3, 'the polls after it add nothing (no deletion, no creation of the free row)')

  // The desk program claims a free row, then releases it (patient cleared).
  cursor = await head(s)
  await s.rows("UPDATE agenda SET pno = 2, sit = 'conf' WHERE ano = 2")
  got = await eventsAfter(s, cursor)
  t.same(kinds(got), [['appointment.created', '2']], 'a desk claim of a free row is created')
  const asItWas = (await s.call('GET', '/appointments/2')).body
  t.match(asItWas, { id: '2', state: 'CONFIRMED', client: { id: '2', name: 'Otavio Lins' } })
  cursor = await head(s)
  await s.rows("UPDATE agenda SET pno = NULL, sit = 'livre' WHERE ano = 2")
  got = await eventsAfter(s, cursor)
  t.same(kinds(got), [['appointment.state_changed', '2'], ['appointment.canceled', '2']], 'a desk release seen by the poller: state_changed and canceled, not deleted')
  t.same(got[0].data, { appointment: { ...asItWas, state: 'CANCELED' }, previous: { state: 'CONFIRMED' } }, 'with the appointment as it was last seen, now CANCELED')

  // A desk DELETE of a claimed row is still a deletion.
  cursor = await head(s)
  await s.rows('DELETE FROM agenda WHERE ano = 3')
  got = await eventsAfter(s, cursor)
  t.same(got.map((e) => [e.type, e.data]), [['appointment.deleted', { appointment: { id: '3' } }]], 'a desk DELETE is deleted')

  // Rescheduled through Ponte: the appointment swaps times with the free row, keeping its id.
  const moving = await s.call('POST', '/appointments', { date: day(3), hour: '10:00', client: '1', professional: '7' })
  t.equal(moving.body.id, '4')
  cursor = await head(s)
  const moved = await s.call('PATCH', '/appointments/4/time', { date: day(3), hour: '11:00' })
  t.equal(moved.status, 200, JSON.stringify(moved.body))
  t.same(await row(s, 4), { pno: 1, sit: 'marc' }, 'the appointment\'s row keeps the patient')
  t.same(await row(s, 5), { pno: null, sit: 'livre' }, 'the row it swapped with is free')
  got = await eventsAfter(s, cursor)
  t.same(kinds(got), [['appointment.rescheduled', '4']], 'one reschedule of the id the caller keeps; the free row is no event')
  t.same(got[0].data.appointment, (await s.call('GET', '/appointments/4')).body)
}

async function reopened (t: Test, dialect: string): Promise<void> {
  const s = await scratchOn(t, dialect as any, SCHEMA, mapping('reopen'), { pollChanges: 'ready' })
  await morePolls(s, 1)
  const booked = await s.call('POST', '/appointments', { date: day(2), hour: '09:00', client: '2', professional: '7' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  const cursor = await head(s)
  const canceled = await s.call('PATCH', `/appointments/${booked.body.id as string}/state`, { state: 'CANCELED' })
  t.equal(canceled.status, 200, JSON.stringify(canceled.body))
  t.same(await row(s, 1), { pno: 2, sit: 'canc' }, 'the row keeps the patient, canceled')
  const free = await s.rows(`SELECT ano FROM agenda WHERE dia = '${day(2)}' AND hora = '09:00' AND pno IS NULL AND sit = 'livre'`)
  t.equal(free.length, 1, 'and a free row is inserted beside it')
  const got = await eventsAfter(s, cursor)
  t.same(kinds(got), [['appointment.state_changed', '1'], ['appointment.canceled', '1']], 'state_changed and canceled; the new free row is no appointment (no created)')
  t.same(got[0].data.appointment, (await s.call('GET', '/appointments/1')).body, 'the canceled appointment as GET answers it')
}

for (const dialect of testDialects()) {
  t.test(`${dialect}: onCancel release`, async (t) => { await released(t, dialect) })
  t.test(`${dialect}: onCancel reopen`, async (t) => { await reopened(t, dialect) })
}
