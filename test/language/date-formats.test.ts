// Appointment dates as legacy systems store them: 'DD/MM/YYYY' text, and date and time in
// one 'YYYY-MM-DD HH:MM' text column. Ranges stay closed; bookings are written back alike.
import t, { type Test } from 'tap'
import { scratchInstallation } from '../helpers/scratch.js'

async function installation (t: Test, schema: string, start: string) {
  const tables = `CREATE TABLE P (ID INTEGER PRIMARY KEY, NAME TEXT, BORN TEXT);
    INSERT INTO P VALUES (1, 'Ana', '15/07/1990');
    ${schema}`
  const mapping = `
version: 1
installation: dates
resources:
  appointment:
    table: A
    key: ID
    ${start}
    state: { value: WAITING }
    refs: { client: P }
    write: { key: { generate: max }, states: { WAITING: {} } }
  client:
    table: P
    key: ID
    fields: { name: NAME, birthday: { column: BORN, format: dmy } }
    write: { key: { generate: max } }
`
  return await scratchInstallation(t, tables, mapping)
}

t.test("'DD/MM/YYYY' text dates", async (t) => {
  const { raw, call } = await installation(t, `CREATE TABLE A (ID INTEGER PRIMARY KEY, DIA TEXT, HORA TEXT, P INTEGER);
    INSERT INTO A VALUES (1, '31/12/2026', '08:00', 1), (2, '01/01/2027', '09:00', 1), (3, '02/01/2027', '10:00', 1), (4, '01/02/2027', '11:00', 1);`,
  'start: { date: { column: DIA, format: dmy }, hour: HORA }')
  const { body } = await call('GET', '/appointments?start=2027-01-01&end=2027-01-02')
  t.same(body.map((a: { id: string, date: string }) => [a.id, a.date]), [['2', '2027-01-01'], ['3', '2027-01-02']], 'closed range, compared as dates, not as text')
  t.equal((await call('GET', '/clients/1')).body.birthday, '1990-07-15')
  const booked = await call('POST', '/appointments', { date: '2099-03-04', hour: '10:30', client: '1' })
  t.equal(booked.status, 200)
  t.same(raw.prepare('SELECT DIA, HORA FROM A WHERE ID = ?').get(Number(booked.body.id)), { DIA: '04/03/2099', HORA: '10:30' })
  const client = await call('POST', '/clients', { name: 'Bia', phone: '+5511987654321', birthday: '2001-02-03' })
  t.same(raw.prepare('SELECT BORN FROM P WHERE ID = ?').get(Number(client.body.id)), { BORN: '03/02/2001' })
})

t.test("date and time in one 'YYYY-MM-DD HH:MM' text column", async (t) => {
  const { raw, call } = await installation(t, `CREATE TABLE A (ID INTEGER PRIMARY KEY, WHEN_AT TEXT, P INTEGER);
    INSERT INTO A VALUES (1, '2026-12-31 23:30', 1), (2, '2027-01-01 00:00', 1), (3, '2027-01-02 23:59', 1), (4, '2027-01-03 00:00', 1);`,
  'start: { datetime: { column: WHEN_AT, format: text } }')
  const { body } = await call('GET', '/appointments?start=2027-01-01&end=2027-01-02')
  t.same(body.map((a: { id: string, date: string, hour: string }) => [a.id, a.date, a.hour]), [['2', '2027-01-01', '00:00'], ['3', '2027-01-02', '23:59']], 'the last day counts until its end')
  const booked = await call('POST', '/appointments', { date: '2099-03-04', hour: '10:30', client: '1' })
  t.equal(booked.status, 200)
  t.same(raw.prepare('SELECT WHEN_AT FROM A WHERE ID = ?').get(Number(booked.body.id)), { WHEN_AT: '2099-03-04 10:30:00' })
})
