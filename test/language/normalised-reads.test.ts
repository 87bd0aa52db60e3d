// Reads of the normalised installation (test/helpers/normalised-installation.ts): one row
// chosen from many (a person's name), values collected from child rows (phones as attribute
// rows), an appointment's time two joins away — each list one statement, no row repeated.
import t from 'tap'
import { normalisedInstallation, NORMALISED_MAPPING } from '../helpers/normalised-installation.js'

t.test('the mapping has no sql escape hatch', async (t) => {
  t.notMatch(NORMALISED_MAPPING, /\bsql:/)
})

t.test('a client reads their preferred, not voided name, once', async (t) => {
  const { get } = await normalisedInstallation(t)
  const { status, body } = await get('/clients?limit=500')
  t.equal(status, 200)
  t.equal(body.length, 116, 'one row per client, whatever the number of names')
  t.equal(new Set(body.map((c: any) => c.id)).size, 116)
  t.same(body.slice(0, 6).map((c: any) => [c.id, c.name]), [
    ['3', 'Wara Mamani'],
    ['4', 'Juan Carlos Perez Choque'],
    ['5', 'Ana María Vargas'],
    ['6', 'Luis Quispe'],
    ['7', 'Rosa Condori'],
    ['8', 'Pedro Flores']
  ], 'the preferred, not voided name; else the first not voided')
})

t.test('phones come from attribute rows, de-duplicated, voided and other types left out', async (t) => {
  const { get } = await normalisedInstallation(t)
  const ana = (await get('/clients/3')).body
  t.same(ana.allPhones, ['+59174114552', '+59122441122'], 'two spellings of one number read once; the landline too')
  t.equal(ana.phone, '+59174114552', 'the first row is the phone')
  t.same((await get('/clients/4')).body.allPhones, ['+59172345678'], 'the voided row is not a phone')
  t.equal((await get('/clients/5')).body.phone, undefined, 'an attribute of another type is not a phone')
  const found = (await get('/clients/search?term=%2B59122441122')).body
  t.same(found.map((c: any) => c.id), ['3'], 'search by phone finds the attribute row')
})

t.test('appointments read their time from the slot, their professional and location from the block', async (t) => {
  const { get, raw } = await normalisedInstallation(t)
  const { status, body } = await get('/appointments?start=2027-01-04&end=2027-03-31')
  t.equal(status, 200)
  const count = (raw.prepare('SELECT COUNT(*) AS n FROM appointmentscheduling_appointment').get() as { n: number }).n
  t.equal(body.length, count, 'every appointment once')
  t.equal(new Set(body.map((a: any) => a.id)).size, body.length, 'no appointment repeated')
  const row = raw.prepare(`SELECT a.appointment_id AS id, s.start_date, s.end_date, b.provider_id, b.location_id, a.patient_id
    FROM appointmentscheduling_appointment a JOIN appointmentscheduling_time_slot s ON s.time_slot_id = a.time_slot_id
    JOIN appointmentscheduling_appointment_block b ON b.appointment_block_id = s.appointment_block_id ORDER BY a.appointment_id LIMIT 1`).get() as any
  const a = body.find((x: any) => x.id === String(row.id))
  t.equal(`${a.date} ${a.hour}:00`, row.start_date)
  t.equal(a.endHour, row.end_date.slice(11, 16))
  t.equal(a.professional.id, String(row.provider_id))
  t.equal(a.location.id, String(row.location_id))
  t.equal(a.client.id, String(row.patient_id))
  t.ok(a.client.name, 'the client comes with their chosen name')
})

t.test('professionals are named from their person', async (t) => {
  const { get } = await normalisedInstallation(t)
  const { body } = await get('/professionals')
  t.same(body.map((p: any) => [p.id, p.name]).slice(0, 2), [['1', 'Dra. Teresa Aliaga'], ['2', 'Dr. Marco Limachi']])
})

t.test('a professional without a person keeps the legacy name; a location inherits its address', async (t) => {
  const { get } = await normalisedInstallation(t)
  t.equal((await get('/professionals/3')).body.name, 'Lic. Retirada', 'a coalesce of a template (blank without a person) and a column')
  const room = (await get('/locations/3')).body
  t.same([room.name, room.address, room.city, room.state], ['Consultorio 1', 'Calle Rosendo Gutiérrez 500', 'La Paz', 'La Paz'], 'the parent\'s whole address')
  t.equal((await get('/locations/2')).body.address, 'Calle Rosendo Gutiérrez 500', 'its own address')
})

t.test('availability offers exactly the free slot starts', async (t) => {
  const { get, raw } = await normalisedInstallation(t)
  const day = '2027-03-08' // a Monday: provider 1 at room 3 in the morning, provider 2 at room 4 in the afternoon
  const { status, body } = await get(`/availability?start=${day}&end=${day}`)
  t.equal(status, 200)
  const free = raw.prepare(`SELECT s.start_date, s.end_date, b.provider_id, b.location_id FROM appointmentscheduling_time_slot s
    JOIN appointmentscheduling_appointment_block b ON b.appointment_block_id = s.appointment_block_id
    WHERE s.start_date LIKE ? AND NOT EXISTS (SELECT 1 FROM appointmentscheduling_appointment a WHERE a.time_slot_id = s.time_slot_id
      AND a.voided = 0 AND a.status <> 'CANCELLED') ORDER BY s.start_date, b.provider_id`).all(`${day}%`) as any[]
  t.ok(free.length > 10, `${free.length} free slots`)
  t.same(body.map((s: any) => [`${s.date} ${s.hour}:00`, `${s.date} ${s.endHour}:00`, s.professional.id, s.location?.id]),
    free.map((f) => [f.start_date, f.end_date, String(f.provider_id), String(f.location_id)]))
})
