// Issue 27 item 12, on every test database: slots shared by minutes (`write.slot.capacity:
// minutes`), as OpenMRS shares them. A small OpenMRS-like schema generated here: blocks of
// 30-minute time slots, appointments pointing at a slot, appointment types of 15 and 30
// minutes. Two 15-minute visits fit one slot, a third does not, nor a 30-minute one into a
// half-used slot; /availability stops offering accordingly; a cancellation frees the minutes.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import type { TestDialect } from '../helpers/app.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { MappingError } from '../../src/mapping/errors.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

const DAY = '2031-03-04'
const SHORT = '1' // 15 minutes
const LONG = '2' // 30 minutes

function schema (dialect: TestDialect): string {
  const timestamp = dialect === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
  const serial = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }[dialect]
  return `
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, phone VARCHAR(20));
CREATE TABLE appointment_type (appointment_type_id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, duration INTEGER NOT NULL);
CREATE TABLE appointment_block (appointment_block_id INTEGER PRIMARY KEY, provider_id INTEGER NOT NULL);
CREATE TABLE time_slot (time_slot_id INTEGER PRIMARY KEY, appointment_block_id INTEGER NOT NULL, start_date ${timestamp} NOT NULL, end_date ${timestamp} NOT NULL);
CREATE TABLE appointment (appointment_id ${serial}, time_slot_id INTEGER NOT NULL, patient_id INTEGER NOT NULL, appointment_type_id INTEGER NOT NULL, status VARCHAR(20) NOT NULL);
INSERT INTO provider (provider_id, name) VALUES (1, 'Dr. Okello');
INSERT INTO patient (patient_id, name, phone) VALUES (1, 'Amina', '0711111111'), (2, 'Baraka', '0722222222'), (3, 'Chebet', '0733333333'), (4, 'Daudi', '0744444444');
INSERT INTO appointment_type (appointment_type_id, name, duration) VALUES (1, 'Follow-up', 15), (2, 'New patient', 30);
INSERT INTO appointment_block (appointment_block_id, provider_id) VALUES (1, 1);
INSERT INTO time_slot (time_slot_id, appointment_block_id, start_date, end_date) VALUES (1, 1, '${DAY} 09:00:00', '${DAY} 09:30:00'), (2, 1, '${DAY} 09:30:00', '${DAY} 10:00:00');
`
}

const MAPPING = `
version: 1
installation: slot-minutes
timezone: Africa/Nairobi
resources:
  appointment:
    table: appointment
    key: appointment_id
    joins:
      slot: { table: time_slot, on: { time_slot_id: time_slot_id } }
      block: { table: appointment_block, from: slot, on: { appointment_block_id: appointment_block_id } }
    start: { datetime: { column: slot.start_date, format: datetime } }
    end: { datetime: { column: slot.end_date, format: datetime } }
    state: { column: status, map: { SCHEDULED: WAITING, CANCELLED: CANCELED } }
    refs: { client: patient_id, professional: block.provider_id, service: appointment_type_id }
    write:
      slot: { join: slot, capacity: minutes }
  client: { table: patient, key: patient_id, fields: { name: name }, phones: [phone] }
  professional: { table: provider, key: provider_id, fields: { name: name } }
  service: { table: appointment_type, key: appointment_type_id, fields: { name: name, duration: duration } }
states:
  values: [WAITING, CANCELED]
  free: [CANCELED]
availability:
  dated:
    table: time_slot
    joins: { block: { table: appointment_block, on: { appointment_block_id: appointment_block_id } } }
    professional: block.provider_id
    start: { column: start_date, format: datetime }
    end: { column: end_date, format: datetime }
    interval: { minutes: { from: start_date, to: end_date } }
`

type Reply = { status: number, body: any }

for (const dialect of testDialects()) {
  t.test(`on ${dialect}`, async (t) => {
    const c = await scratchOn(t, dialect, schema(dialect), MAPPING)
    const offered = async (t: Test, service: string): Promise<string[]> => {
      const r = await c.call('GET', `/availability?start=${DAY}&end=${DAY}&service=${service}`)
      t.equal(r.status, 200, JSON.stringify(r.body))
      return r.body.map((s: any) => `${s.hour}-${s.endHour}`)
    }
    const book = async (client: number, service: string, hour = '09:00'): Promise<Reply> =>
      await c.call('POST', '/appointments', { date: DAY, hour, client: String(client), professional: '1', service })
    /** The rows of slot 1 as the legacy program sees them: patient, type, status. */
    const inSlot = async (slot = 1): Promise<string[]> =>
      (await c.rows(`SELECT patient_id, appointment_type_id, status FROM appointment WHERE time_slot_id = ${slot} ORDER BY appointment_id`))
        .map((r) => `${Number(r.patient_id)}/${Number(r.appointment_type_id)}/${String(r.status)}`)
    const count = async (): Promise<number> => Number((await c.rows('SELECT COUNT(*) AS n FROM appointment'))[0].n)

    t.same(await offered(t, SHORT), ['09:00-09:15', '09:30-09:45'], '15 minutes: each slot\'s start, for 15 minutes')
    t.same(await offered(t, LONG), ['09:00-09:30', '09:30-10:00'], '30 minutes: each whole slot')

    const first = await book(1, SHORT)
    t.equal(first.status, 200, JSON.stringify(first.body))
    t.same(await inSlot(), ['1/1/SCHEDULED'], 'the first 15-minute visit points at slot 1')
    t.same(await offered(t, SHORT), ['09:00-09:15', '09:30-09:45'], '15 of 30 minutes left: still offered for 15')
    t.same(await offered(t, LONG), ['09:30-10:00'], 'but no longer for 30')
    const plain = await c.call('GET', `/availability?start=${DAY}&end=${DAY}`)
    t.same(plain.body.map((s: any) => s.hour), ['09:30'], 'without a service a booking takes the whole slot: the half-used one is not offered')

    let before = await count()
    const long = await book(2, LONG)
    t.equal(long.status, 409, 'a 30-minute visit into a half-used slot is refused')
    t.match(long.body.detail, /09:00 on 2031-03-04 is full: 15 of its 30 minutes are left, and the appointment needs 30/)
    t.equal(await count(), before, 'nothing written')

    const second = await book(2, SHORT)
    t.equal(second.status, 200, JSON.stringify(second.body))
    t.same(await inSlot(), ['1/1/SCHEDULED', '2/1/SCHEDULED'], 'two 15-minute visits share the 30-minute slot')
    t.same(await offered(t, SHORT), ['09:30-09:45'], 'its minutes used: slot 1 is no longer offered')

    before = await count()
    const third = await book(3, SHORT)
    t.equal(third.status, 409, 'a third 15-minute visit is refused')
    t.match(third.body.detail, /09:00 on 2031-03-04 is full: 0 of its 30 minutes are left/)
    t.equal(await count(), before, 'nothing written')

    const cancel = await c.call('PATCH', `/appointments/${first.body.id}/state`, { state: 'CANCELED' })
    t.equal(cancel.status, 200, JSON.stringify(cancel.body))
    t.same(await inSlot(), ['1/1/CANCELLED', '2/1/SCHEDULED'], 'the cancellation is stored')
    t.same(await offered(t, SHORT), ['09:00-09:15', '09:30-09:45'], 'a cancellation frees its 15 minutes')
    t.same(await offered(t, LONG), ['09:30-10:00'], 'not 30 of them')
    const freed = await book(3, SHORT)
    t.equal(freed.status, 200, JSON.stringify(freed.body))
    t.same(await inSlot(), ['1/1/CANCELLED', '2/1/SCHEDULED', '3/1/SCHEDULED'], 'the freed minutes book')
    t.equal((await c.call('PATCH', `/appointments/${first.body.id}/state`, { state: 'WAITING' })).status, 409, 'the cancelled visit cannot come back into the full slot')

    // A 30-minute visit fills slot 2 whole; rescheduling a 15-minute one into it is refused.
    t.equal((await book(4, LONG, '09:30')).status, 200)
    t.same(await inSlot(2), ['4/2/SCHEDULED'])
    t.same(await offered(t, SHORT), [], 'both slots full')
    const moved = await c.call('PATCH', `/appointments/${second.body.id}/time`, { date: DAY, hour: '09:30' })
    t.equal(moved.status, 409, 'no rescheduling into a slot without the minutes')
    t.same(await inSlot(2), ['4/2/SCHEDULED'], 'nothing moved')

    t.test('ponte check reads the mapping and its slots without a problem', async (t) => {
      const report = await checkOf(t, c.url, MAPPING, '2031-03-01')
      t.ok(report.findings.some((f) => f.path.startsWith('/resources/appointment')), 'the appointment mapping was checked')
      t.same(report.findings.filter((f) => f.path.includes('/write/slot') && f.severity !== 'ok').map((f) => `${f.path}: ${f.message}`), [], 'nothing wrong with the slot booking')
    })

    t.test('two concurrent 15-minute bookings into the last 15 minutes: one is taken', async (t) => {
      const cancelled = await c.call('PATCH', `/appointments/${freed.body.id}/state`, { state: 'CANCELED' })
      t.equal(cancelled.status, 200)
      const both = await Promise.all([book(3, SHORT), book(4, SHORT)])
      t.same(both.map((r) => r.status).sort(), [200, 409], JSON.stringify(both.map((r) => r.body)))
      const held = (await inSlot()).filter((r) => r.endsWith('/SCHEDULED'))
      t.equal(held.length, 2, 'the slot holds two 15-minute visits, no more')
    })
  })
}

t.test('the mapping says what capacity in minutes needs, at its place', async (t) => {
  const compiled = (yaml: string): ReturnType<typeof compileMapping> => compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
  const noDuration = compiled(MAPPING.replace('fields: { name: name, duration: duration }', 'fields: { name: name }')).writes.appointment
  t.ok(isUnsupported(noDuration), 'no service durations: booking is refused (501) saying why')
  if (isUnsupported(noDuration)) {
    t.equal(noDuration.unsupported.path, '/resources/appointment/write/slot/capacity')
    t.match(noDuration.unsupported.reason, /needs the service's `duration` field/)
  }
  const noService = compiled(MAPPING.replace(', service: appointment_type_id }', ' }')).writes.appointment
  t.match(isUnsupported(noService) ? noService.unsupported.reason : '', /needs the appointment's `refs.service`/)
  t.throws(() => parseMapping(MAPPING.replace('capacity: minutes', 'capacity: hours'), 'm.yaml'), /m\.yaml:\d+:\d+: \/resources\/appointment\/write\/slot\/capacity/, 'a misspelling is refused at its line')
})

// A default for a ref the slot decides was once accepted and never stored (the booking took the slot's).
t.test('a default for a ref the slot decides is refused at load, at its line, saying why', async (t) => {
  const load = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  const withDefault = (ref: string): string => MAPPING.replace('slot: { join: slot, capacity: minutes }', `slot: { join: slot, capacity: minutes }\n      refs: { ${ref}: { otherwise: 1 } }`)
  const text = withDefault('professional')
  const line = text.split('\n').findIndex((l) => l.includes('otherwise: 1')) + 1
  t.match(load(text), new RegExp(`m\\.yaml:${line}:\\d+: /resources/appointment/write/refs/professional/otherwise: professional is read through the slot \`slot\` \\(block\\.provider_id\\).*the slot decides it`))
  t.equal(load(withDefault('service')), 'accepted', 'a default for a ref the appointment row holds is taken')
})
