// The write side of the mapping language on a schema unlike both samples: keys by max+1,
// dates as YYYYMMDD integers, hours as HHMM integers, durations in seconds, numeric state
// codes written back through a reversed map, names split over two columns, ids held as text.
import t from 'tap'
import { scratchInstallation } from '../helpers/scratch.js'

const SCHEMA = `
CREATE TABLE VISITS (VNO INT PRIMARY KEY NOT NULL, VDATE INT NOT NULL, VTIME INT NOT NULL, SECS INT NOT NULL,
  CODE INT NOT NULL, PERSON TEXT NOT NULL, DOC TEXT NOT NULL, ORIGIN TEXT NOT NULL, CREATED TEXT NOT NULL);
CREATE TABLE PEOPLE (PNO INT PRIMARY KEY NOT NULL, FIRST TEXT NOT NULL, LAST TEXT NOT NULL, MOBILE TEXT,
  TAXID TEXT, BORN INT NOT NULL, KIND TEXT NOT NULL);
CREATE TABLE DOCS (DNO INT PRIMARY KEY, NAME TEXT);
INSERT INTO DOCS VALUES (1, 'Dr. Um'), (2, 'Dra. Dois');
INSERT INTO PEOPLE VALUES (10, 'Ana', 'Lima', '(21) 99876-5432', NULL, 0, 'C');
INSERT INTO VISITS VALUES (500, 20990105, 900, 1800, 1, '10', '1', 'desk', '2026-01-01 08:00:00');
`

const MAPPING = `
version: 1
installation: write-quirks
phone: { defaultCountry: BR, defaultAreaCode: '21' }
states:
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [CANCELED, WAITING] }
  onReschedule: keep
resources:
  appointment:
    table: VISITS
    key: VNO
    start:
      date: { column: VDATE, format: int }
      hour: { column: VTIME, format: hhmm }
    end: { duration: { column: SECS, unit: seconds } }
    state: { column: CODE, type: int, map: { '0': WAITING, '1': CONFIRMED, '9': CANCELED } }
    refs:
      client: { column: PERSON, type: text }
      professional: { column: DOC, type: text }
    write:
      key: { generate: max }
      set:
        ORIGIN: { value: ponte }
        CREATED: { now: datetime }
  client:
    table: PEOPLE
    key: PNO
    where: { column: KIND, eq: 'C' }
    fields:
      name: { template: '{FIRST} {LAST}' }
      cpf: TAXID
      birthday: { column: BORN, format: int, nullIf: [0] }
    phones: [MOBILE]
    write:
      key: { generate: max }
      set: { KIND: { value: 'C' } }
      phoneFormat: masked
      cpfFormat: masked
  professional:
    table: DOCS
    key: DNO
    fields: { name: NAME }
`

t.test('writes in the installation formats', async (t) => {
  const { raw, call } = await scratchInstallation(t, SCHEMA, MAPPING)

  const created = await call('POST', '/clients', { name: 'Bruno de Souza Costa', phone: '+5521987650000', cpf: '52998224725', birthday: '1990-07-15' })
  t.equal(created.status, 200)
  t.same(created.body, { id: '11', name: 'Bruno de Souza Costa', phone: '+5521987650000', allPhones: ['+5521987650000'], cpf: '52998224725', birthday: '1990-07-15' })
  t.same(raw.prepare('SELECT * FROM PEOPLE WHERE PNO = 11').get(),
    { PNO: 11, FIRST: 'Bruno', LAST: 'de Souza Costa', MOBILE: '(21) 98765-0000', TAXID: '529.982.247-25', BORN: 19900715, KIND: 'C' },
    'max+1 key, name split at the first space, masked phone and CPF, YYYYMMDD birthday')

  const noBirthday = await call('POST', '/clients', { name: 'Carla', phone: '21 98888-7777' })
  t.equal(noBirthday.status, 200)
  t.same(raw.prepare('SELECT FIRST, LAST, BORN FROM PEOPLE WHERE PNO = 12').get(), { FIRST: 'Carla', LAST: '', BORN: 0 },
    'a missing birthday writes the sentinel, not NULL, into a NOT NULL column')
  t.notOk('birthday' in noBirthday.body)

  const booked = await call('POST', '/appointments', { date: '2099-01-05', hour: '9:30', client: '11', professional: '2' })
  t.equal(booked.status, 200)
  t.match(booked.body, { id: '501', date: '2099-01-05', hour: '09:30', endHour: '10:00', state: 'WAITING', client: { id: '11' }, professional: { id: '2', name: 'Dra. Dois' } })
  const row = raw.prepare('SELECT * FROM VISITS WHERE VNO = 501').get() as Record<string, unknown>
  t.match(row, { VDATE: 20990105, VTIME: 930, SECS: 1800, CODE: 0, PERSON: '11', DOC: '2', ORIGIN: 'ponte' }, 'stored formats, and WAITING through the reversed map')
  t.match(String(row.CREATED), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  t.equal((await call('POST', '/appointments', { date: '2099-01-05', hour: '09:45', client: '10', professional: '2' })).status, 409, 'overlaps 09:30-10:00')
  t.equal((await call('POST', '/appointments', { date: '2099-01-05', hour: '09:00', client: '11', professional: '1' })).status, 409, 'the client is busy then (visit 500 with Dr. Um)')

  t.same(await call('PATCH', '/appointments/501/state', { state: 'CONFIRMED' }), { status: 200, body: 'Appointment 501 is now CONFIRMED.' })
  t.equal((raw.prepare('SELECT CODE FROM VISITS WHERE VNO = 501').get() as { CODE: number }).CODE, 1)
  t.equal((await call('PATCH', '/appointments/501/time', { date: '2099-01-06', hour: '14:00' })).status, 200)
  t.match(raw.prepare('SELECT VDATE, VTIME, SECS, CODE FROM VISITS WHERE VNO = 501').get(), { VDATE: 20990106, VTIME: 1400, SECS: 1800, CODE: 1 }, 'onReschedule: keep leaves CONFIRMED')
  t.match((await call('GET', '/appointments/501')).body, { date: '2099-01-06', hour: '14:00', client: { id: '11' }, professional: { id: '2' } },
    'the detail after a reschedule still nests client and professional')
  t.equal((await call('PATCH', '/appointments/501/state', { state: 'canceled' })).status, 400, 'a state spelt otherwise than the vocabulary is refused')
  t.equal((raw.prepare('SELECT CODE FROM VISITS WHERE VNO = 501').get() as { CODE: number }).CODE, 1, 'and changes nothing')
  t.equal((await call('PATCH', '/appointments/501/state', { state: 'CANCELED' })).status, 200)
  t.equal((raw.prepare('SELECT CODE FROM VISITS WHERE VNO = 501').get() as { CODE: number }).CODE, 9)
  t.equal((await call('PATCH', '/appointments/501/time', { date: '2099-01-07', hour: '14:00' })).status, 409, 'a cancelled appointment is not rescheduled')

  const before = raw.prepare('SELECT COUNT(*) AS n FROM PEOPLE').get()
  t.equal((await call('PATCH', '/clients/11', { name: 'Bruno Costa', cpf: '111.111.111-11' })).status, 400, 'an invalid CPF refuses the whole patch')
  t.same(raw.prepare('SELECT FIRST, LAST FROM PEOPLE WHERE PNO = 11').get(), { FIRST: 'Bruno', LAST: 'de Souza Costa' }, 'nothing written')
  t.same(raw.prepare('SELECT COUNT(*) AS n FROM PEOPLE').get(), before)
})
