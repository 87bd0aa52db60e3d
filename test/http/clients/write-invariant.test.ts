// The write invariant (design notes §5, issue 25) on a schema unlike the samples, on every
// test database: an accepted write stores exactly what was sent, against the right rows;
// otherwise it is refused naming the field and nothing changes. The schema is a US-style
// outpatient system: a patient's insurance is a coverage row (read through a join on the
// patient's id), the e-mail a contact row, phones in national digits.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'

const SCHEMA = `
CREATE TABLE person (pid INTEGER PRIMARY KEY, fname VARCHAR(40) NOT NULL, lname VARCHAR(40), nick VARCHAR(40) DEFAULT 'Bobby', dob DATE, phone_home VARCHAR(20));
CREATE TABLE person_contact (pid INTEGER NOT NULL, kind VARCHAR(10) NOT NULL, val VARCHAR(80));
CREATE TABLE insurer (iid INTEGER PRIMARY KEY, title VARCHAR(40));
CREATE TABLE coverage (cid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, iid INTEGER NOT NULL);
CREATE TABLE provider (prid INTEGER PRIMARY KEY, pname VARCHAR(40));
CREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, prid INTEGER, vdate DATE NOT NULL, vtime VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
INSERT INTO person (pid, fname, lname, nick, dob, phone_home) VALUES (1, 'Ann', 'Lee', NULL, '1980-02-03', '4155550101');
INSERT INTO person (pid, fname, lname, nick, dob, phone_home) VALUES (2, 'Ben', 'Ito', NULL, NULL, '4155550102');
INSERT INTO person_contact (pid, kind, val) VALUES (1, 'email', 'ann@example.com');
INSERT INTO insurer (iid, title) VALUES (7001, 'Acme Health');
INSERT INTO insurer (iid, title) VALUES (7002, 'Blue Plan');
INSERT INTO coverage (cid, pid, iid) VALUES (1, 2, 7002);
INSERT INTO provider (prid, pname) VALUES (10, 'Dr. Park');
`

interface Variant { appointmentWrite?: string, clientWrite?: string, name?: string, waiting?: number, canceled?: string }

function mapping (v: Variant = {}): string {
  return `version: 1
installation: us-outpatient
timezone: America/New_York
phone: { defaultCountry: US }
search: [phone, email, name]
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: visit
    key: vid
    joins:
      cov: { table: coverage, on: { pid: pid } }
    start:
      date: { column: vdate, format: date }
      hour: { column: vtime, format: text }
    state:
      column: st
      type: int
      map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED }
    refs:
      client: pid
      professional: prid
      healthInsurance: cov.iid
    write:
      key: { generate: max }
      states:
        WAITING: { st: { value: ${v.waiting ?? 0} } }
        CONFIRMED: { st: { value: 1 } }
        CANCELED: ${v.canceled ?? '{ st: { value: 2 } }'}
${v.appointmentWrite ?? ''}
  client:
    table: person
    key: pid
    joins:
      contact: { table: person_contact, on: { pid: pid }, where: { column: kind, eq: email } }
    fields:
      name: ${v.name ?? "{ template: '{fname} {lname}' }"}
      birthday: { column: dob, format: date }
      email: contact.val
    phones: [phone_home]
    write:
      key: { generate: max }
      phoneFormat: digits
${v.clientWrite ?? ''}
  professional:
    table: provider
    key: prid
    fields: { name: pname }
  healthInsurance:
    table: insurer
    key: iid
    fields: { name: title }
`
}

const DAY = '2031-03-04'
const count = async (s: ServerScratch, table: string): Promise<number> => Number((await s.rows(`SELECT COUNT(*) AS n FROM ${table}`))[0].n)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a ref read through a join on the patient\'s row is read-only: refused by name, the patient never overwritten', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping())
      const refused = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '10', healthInsurance: '7002' })
      t.equal(refused.status, 501)
      t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'], 'the refusal names the field')
      t.equal(await count(s, 'visit'), 0, 'nothing was written')

      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '10' })
      t.equal(booked.status, 200, 'the same booking without the field is taken')
      t.equal(booked.body.client?.id, '1', 'the answer shows the client sent')
      const rows = await s.rows('SELECT pid, prid, vtime, st FROM visit')
      t.same(rows.map((r) => [Number(r.pid), Number(r.prid), r.vtime, Number(r.st)]), [[1, 10, '09:00', 0]], 'the row holds the client, professional, hour and state sent')
      const again = await s.call('GET', `/appointments/${booked.body.id as string}`)
      t.same([again.body.client?.id, again.body.professional?.id, again.body.date, again.body.hour, again.body.state], ['1', '10', DAY, '09:00', 'WAITING'], 'a later GET reads it back as sent')
    })

    t.test('a ref declared written through a join that is the patient\'s own column cannot book at all', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ appointmentWrite: '      refs:\n        healthInsurance: { firstOf: cov }' }))
      const res = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '10', healthInsurance: '7002' })
      t.equal(res.status, 501)
      t.match(res.body.detail, /healthInsurance and client would both be written to column pid/)
      t.equal(await count(s, 'visit'), 0)
    })

    t.test('write.ignore: the ref is accepted, not stored, and the answer says so', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ appointmentWrite: '      ignore: [healthInsurance]' }))
      const res = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '10', healthInsurance: '7002' })
      t.equal(res.status, 200)
      t.equal(res.headers['ponte-ignored-fields'], 'healthInsurance')
      t.equal(res.headers['ponte-ignored-declared'], 'healthInsurance', 'declared ignored by the mapping')
      t.same((await s.rows('SELECT pid FROM visit')).map((r) => Number(r.pid)), [1], 'the patient sent, not the one holding that insurance')
      const plain = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '2', professional: '10' })
      t.equal(plain.status, 200)
      t.notOk('ponte-ignored-fields' in plain.headers, 'no header when every field sent was stored')
    })

    t.test('a booking whose row would read back in another state is refused, and rolled back', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ waiting: 9 }))
      const res = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '10' })
      t.equal(res.status, 501)
      t.same(res.body.errors?.map((e: { path: string }) => e.path), ['/body/state'])
      t.equal(await count(s, 'visit'), 0, 'the row written is rolled back')
    })

    t.test('a state move whose columns would also clear the professional is refused, and rolled back', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ canceled: '{ st: { value: 2 }, prid: { value: null } }' }))
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '10' })
      t.equal(booked.status, 200)
      const moved = await s.call('PATCH', `/appointments/${booked.body.id as string}/state`, { state: 'CANCELED' })
      t.equal(moved.status, 501)
      t.same(moved.body.errors?.map((e: { path: string }) => e.path), ['/body/professional'], 'the refusal names what would change')
      t.same((await s.rows('SELECT prid, st FROM visit')).map((r) => [Number(r.prid), Number(r.st)]), [[10, 0]], 'still WAITING with its professional')
    })

    t.test('POST /clients: a field read from a row the mapping does not write is refused, not dropped', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping())
      const res = await s.call('POST', '/clients', { name: 'Cy Roe', phone: '+14155550199', email: 'cy@example.com' })
      t.equal(res.status, 501)
      t.same(res.body.errors?.map((e: { path: string }) => e.path), ['/body/email'])
      t.equal(await count(s, 'person'), 2, 'no client was created')
      const patch = await s.call('PATCH', '/clients/2', { email: 'ben@example.com' })
      t.equal(patch.status, 501, 'PATCH refuses it the same way')
      t.same(patch.body.errors?.map((e: { path: string }) => e.path), ['/body/email'])
    })

    t.test('POST /clients with write.ignore and an unmapped field: stored what it can, says what it did not', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ clientWrite: '      ignore: [email]' }))
      const res = await s.call('POST', '/clients', { name: 'Cy Roe', phone: '+14155550199', email: 'cy@example.com', cpf: '529.982.247-25', birthday: '1990-05-06' })
      t.equal(res.status, 200)
      t.same(String(res.headers['ponte-ignored-fields']).split(', ').sort(), ['cpf', 'email'])
      t.equal(res.headers['ponte-ignored-declared'], 'email', 'only the e-mail is under write.ignore: the cpf is not mapped')
      t.same([res.body.name, res.body.phone, res.body.birthday, res.body.email], ['Cy Roe', '+14155550199', '1990-05-06', undefined])
      const [row] = await s.rows(`SELECT fname, lname, dob, phone_home FROM person WHERE pid = ${Number(res.body.id)}`)
      t.same([row.fname, row.lname, String(row.dob).slice(0, 10), row.phone_home], ['Cy', 'Roe', '1990-05-06', '4155550199'], 'the row holds what was sent, in the installation\'s format')
      t.equal(await count(s, 'person_contact'), 1, 'no contact row was made for the ignored e-mail')
    })

    t.test('an optional value\'s own row is written only when the value is sent', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ clientWrite: '      after:\n        - { join: contact, set: { kind: { value: email } } }' }))
      const bare = await s.call('POST', '/clients', { name: 'Eve Moss', phone: '+14155550133' })
      t.equal(bare.status, 200)
      t.equal(await count(s, 'person_contact'), 1, 'no blank contact row for an e-mail not sent')
      const full = await s.call('POST', '/clients', { name: 'Fay Moss', phone: '+14155550134', email: 'Fay@Example.com' })
      t.equal(full.status, 200)
      t.equal(full.body.email, 'Fay@Example.com', 'the e-mail reads back as sent')
      t.same(await s.rows(`SELECT kind, val FROM person_contact WHERE pid = ${Number(full.body.id)}`), [{ kind: 'email', val: 'Fay@Example.com' }])

      const added = await s.call('PATCH', '/clients/2', { email: 'ben@example.com' })
      t.equal(added.status, 200, 'PATCH of an e-mail a client has no row for yet')
      t.equal(added.body.email, 'ben@example.com')
      const changed = await s.call('PATCH', '/clients/2', { email: 'ben@example.org' })
      t.equal((await s.call('GET', '/clients/2')).body.email, 'ben@example.org', 'a later GET reads the corrected e-mail')
      t.equal(changed.status, 200)
      t.same(await s.rows('SELECT kind, val FROM person_contact WHERE pid = 2'), [{ kind: 'email', val: 'ben@example.org' }], 'one row: inserted once, then updated')
    })

    t.test('a phone of another country keeps its country code on a US installation', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping())
      const res = await s.call('POST', '/clients', { name: 'Rui Costa', phone: '+5511928087886' })
      t.equal(res.status, 200)
      t.equal(res.body.phone, '+5511928087886')
      t.same((await s.rows(`SELECT phone_home FROM person WHERE pid = ${Number(res.body.id)}`))[0].phone_home, '+5511928087886')
      const found = await s.call('GET', '/clients/search?term=%2B5511928087886')
      t.same(found.body.map((c: { id: string }) => c.id), [res.body.id], 'found by the number the conversation came from')
    })

    t.test('a name that would read back as another (a nickname shown first) is refused, and rolled back', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping({ name: '{ coalesce: [nick, fname] }' }))
      const res = await s.call('POST', '/clients', { name: 'Dee', phone: '+14155550177' })
      t.equal(res.status, 501, 'the column default would show "Bobby" instead')
      t.same(res.body.errors?.map((e: { path: string }) => e.path), ['/body/name'])
      t.equal(await count(s, 'person'), 2)
    })
  })
}
