// Creating a client of the normalised installation writes every table as the record system
// itself would: a person, a patient sharing its id, a preferred name, an identifier with a
// valid Luhn mod 30 check character and a phone attribute, each with a uuid, creator and
// creation time, in one transaction.
import t from 'tap'
import { normalisedInstallation, ID_TYPE, PHONE_TYPE, USER_ID } from '../helpers/normalised-installation.js'
import { luhnValid } from '../../src/mapping/compile/identifier.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const MOD30 = '0123456789ACDEFGHJKLMNPRTUVWXY'

t.test('POST /clients writes person, patient, name, identifier and phone rows', async (t) => {
  const { call, get, raw } = await normalisedInstallation(t)
  const res = await call('POST', '/clients', { name: 'Celia Mamani Quispe', phone: '00591 71234599', birthday: '1990-04-02' })
  t.equal(res.status, 200, JSON.stringify(res.body))
  const id = Number(res.body.id)
  t.same([res.body.name, res.body.phone, res.body.birthday], ['Celia Mamani Quispe', '+59171234599', '1990-04-02'], 'reads back as sent')
  const person = raw.prepare('SELECT * FROM person WHERE person_id = ?').get(id) as any
  t.ok(person, 'a person with the patient\'s id')
  t.same([person.birthdate, person.voided, person.creator, person.gender], ['1990-04-02', 0, USER_ID, 'U'])
  t.match(person.uuid, UUID)
  t.match(person.date_created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  const patient = raw.prepare('SELECT * FROM patient WHERE patient_id = ?').get(id) as any
  t.same([patient.creator, patient.voided], [USER_ID, 0], 'the patient row shares the key')
  const names = raw.prepare('SELECT * FROM person_name WHERE person_id = ?').all(id) as any[]
  t.same(names.map((n) => [n.given_name, n.family_name, n.preferred, n.voided, n.creator]), [['Celia', 'Mamani Quispe', 1, 0, USER_ID]])
  t.match(names[0].uuid, UUID)
  const ids = raw.prepare('SELECT * FROM patient_identifier WHERE patient_id = ?').all(id) as any[]
  t.equal(ids.length, 1)
  t.equal(ids[0].identifier_type, ID_TYPE)
  t.ok(luhnValid(ids[0].identifier, MOD30), `${ids[0].identifier} has a valid check character`)
  t.equal(ids[0].identifier.slice(0, -1), String(id).padStart(6, '0'))
  t.equal(res.body.externalId, ids[0].identifier, 'read back as externalId')
  const phones = raw.prepare('SELECT * FROM person_attribute WHERE person_id = ?').all(id) as any[]
  t.same(phones.map((p) => [p.value, p.person_attribute_type_id, p.voided]), [['+59171234599', PHONE_TYPE, 0]])
  const uuids = [person, names[0], ids[0], phones[0]].map((r) => r.uuid)
  t.equal(new Set(uuids).size, 4, 'a uuid per row')
  t.same((await get(`/clients/search?term=${encodeURIComponent('+59171234599')}`)).body.map((c: any) => c.id), [String(id)], 'found by phone')
})

t.test('a failed insert leaves no table touched', async (t) => {
  const { call, raw } = await normalisedInstallation(t)
  const count = () => ['person', 'patient', 'person_name', 'patient_identifier', 'person_attribute']
    .map((table) => (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n)
  const before = count()
  // A trigger makes the phone row (the last one) fail.
  raw.exec('CREATE TRIGGER no_phone BEFORE INSERT ON person_attribute BEGIN SELECT RAISE(ABORT, \'refused\'); END')
  const res = await call('POST', '/clients', { name: 'Nadie Nunca', phone: '+59171234500' })
  t.equal(res.status >= 500, true, `refused: ${res.status}`)
  t.same(count(), before, 'all or nothing')
})

t.test('PATCH /clients corrects the very rows the reads show', async (t) => {
  const { call, raw } = await normalisedInstallation(t)
  // Client 4 has two names; the preferred one is shown and corrected, the other left alone.
  const res = await call('PATCH', '/clients/4', { name: 'Juan Carlos Pérez', birthday: '1971-05-06' })
  t.equal(res.status, 200, JSON.stringify(res.body))
  t.same([res.body.name, res.body.birthday], ['Juan Carlos Pérez', '1971-05-06'])
  const names = raw.prepare('SELECT given_name, family_name, preferred FROM person_name WHERE person_id = 4 ORDER BY person_name_id').all() as any[]
  t.same(names, [{ given_name: 'Juan', family_name: 'Perez', preferred: 0 }, { given_name: 'Juan', family_name: 'Carlos Pérez', preferred: 1 }])
  t.equal((raw.prepare('SELECT birthdate FROM person WHERE person_id = 4').get() as any).birthdate, '1971-05-06')
  const other = raw.prepare('SELECT given_name FROM person_name WHERE person_id = 3').all() as any[]
  t.same(other.map((n) => n.given_name), ['Wara'], 'nobody else changed')
})
