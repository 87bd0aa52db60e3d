// A birthday is a calendar date, not a moment (stranger report D2): a date-time sent for it,
// as `Date.toISOString()` spells one (midnight UTC), is stored by its date part as written,
// never moved to the evening before on the clinic's clock west of Greenwich. Appointment dates
// keep the clinic-zone reading. On a Los Angeles practice's schema, on every test database.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import type { TestDialect } from '../../helpers/app.js'

const schema = `
CREATE TABLE owner_rec (oid INTEGER PRIMARY KEY, full_nm VARCHAR(60) NOT NULL, phone_no VARCHAR(20), born DATE);
CREATE TABLE visit (vid INTEGER PRIMARY KEY, oid INTEGER NOT NULL, vday DATE NOT NULL, vtime VARCHAR(5) NOT NULL, vstate INTEGER NOT NULL);
INSERT INTO owner_rec (oid, full_nm, phone_no, born) VALUES (7, 'Dana Cole', '2135550101', '1970-03-03');
INSERT INTO visit (vid, oid, vday, vtime, vstate) VALUES (1, 7, '2099-03-09', '10:00', 0), (2, 7, '2099-03-10', '10:00', 0);
`

const mapping = `version: 1
installation: la-birthdays
timezone: America/Los_Angeles
phone: { defaultCountry: US }
states:
  values: [WAITING, CONFIRMED]
resources:
  appointment:
    table: visit
    key: vid
    start:
      date: { column: vday, format: date }
      hour: { column: vtime, format: text }
    state: { column: vstate, type: int, map: { '0': WAITING, '1': CONFIRMED } }
    refs: { client: oid }
    write:
      key: { generate: max }
      states: { WAITING: {} }
  client:
    table: owner_rec
    key: oid
    write:
      key: { generate: max }
    fields:
      name: full_nm
      birthday: { column: born, format: date }
    phones: [phone_no]
`

const born = (s: { rows: (sql: string) => Promise<Array<Record<string, any>>> }, id: string): Promise<string> =>
  s.rows(`SELECT born FROM owner_rec WHERE oid = ${Number(id)}`).then((r) => String(r[0]?.born).slice(0, 10))

for (const dialect of testDialects() as TestDialect[]) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema, mapping)

    const made = await s.call('POST', '/clients', { name: 'Birthday Js', phone: '+12135550199', birthday: '1984-07-09T00:00:00.000Z' })
    t.equal(made.status, 200)
    t.equal(made.body.birthday, '1984-07-09', 'answered as the date written')
    t.equal(await born(s, made.body.id), '1984-07-09', 'stored as the date written, not the evening before in Los Angeles')
    t.equal((await s.call('GET', `/clients/${made.body.id}`)).body.birthday, '1984-07-09')

    const patched = await s.call('PATCH', '/clients/7', { birthday: '1990-01-01T00:00:00Z' })
    t.equal(patched.status, 200)
    t.equal(await born(s, '7'), '1990-01-01', 'a PATCH keeps the year too')
    // An offset east of the clinic's: the clinic-zone reading would give the 8th.
    t.equal((await s.call('PATCH', '/clients/7', { birthday: '1991-05-09T07:30:00+09:00' })).status, 200)
    t.equal(await born(s, '7'), '1991-05-09')

    const bad = await s.call('PATCH', '/clients/7', { birthday: '1991-02-30T00:00:00Z' })
    t.equal(bad.status, 400, 'an impossible date-time is still refused')
    t.equal(bad.body.errors[0].path, '/body/birthday')
    t.equal(await born(s, '7'), '1991-05-09', 'and nothing was written')

    // Appointment dates keep the clinic's calendar: 02:00 UTC on the 10th is the 9th in Los Angeles.
    const day = await s.call('GET', '/appointments?start=2099-03-10T02:00:00Z&end=2099-03-10T02:00:00Z')
    t.equal(day.status, 200)
    t.same(day.body.map((a: { id: string }) => a.id), ['1'])
  })
}
