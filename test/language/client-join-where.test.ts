// A client whose `where` needs one of the client's own joins, read inside the appointment
// list: the condition must be applied after the join it needs exists.
import t from 'tap'
import { scratchInstallation } from '../helpers/scratch.js'

const SCHEMA = `
CREATE TABLE person (person_id INTEGER PRIMARY KEY, voided INT NOT NULL, given TEXT);
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY);
CREATE TABLE appt (id INTEGER PRIMARY KEY, patient_id INT, start TEXT NOT NULL, status TEXT NOT NULL);
INSERT INTO person VALUES (1, 0, 'Ana'), (2, 1, 'Bruno');
INSERT INTO patient VALUES (1), (2);
INSERT INTO appt VALUES (10, 1, '2099-01-05 09:00:00', 'S'), (11, 2, '2099-01-05 10:00:00', 'S');
`

const MAPPING = `
version: 1
installation: join-where
resources:
  appointment:
    table: appt
    key: id
    start: { datetime: start }
    state: { column: status, map: { S: WAITING } }
    refs: { client: patient_id }
  client:
    table: patient
    key: patient_id
    joins:
      person: { table: person, on: { patient_id: person_id } }
    where: { column: person.voided, eq: 0 }
    fields:
      name: person.given
`

t.test('a client where on a joined column keeps the appointment list working', async (t) => {
  const s = await scratchInstallation(t, SCHEMA, MAPPING)
  const res = await s.get('/appointments?start=2099-01-05&end=2099-01-05')
  t.equal(res.status, 200)
  const list = res.body.data ?? res.body
  t.same(list.map((a: any) => [a.id, a.client?.name]), [['10', 'Ana'], ['11', undefined]],
    'the voided person is no client, and their appointment is still listed')
  const clients = await s.get('/clients')
  t.same((clients.body.data ?? clients.body).map((c: any) => c.name), ['Ana'])
})

t.test('POST /clients is a 501 naming the missing column when the name lives in a join', async (t) => {
  const s = await scratchInstallation(t, SCHEMA, MAPPING)
  const res = await s.call('POST', '/clients', { name: 'Carla Souza', phone: '+5511987654321' })
  t.equal(res.status, 501)
  t.match(res.body.detail, /name/)
  t.match(res.body.detail, /fields\/name/)
  t.equal((s.raw.prepare('SELECT COUNT(*) AS n FROM patient').get() as { n: number }).n, 2, 'nothing was inserted')
})
