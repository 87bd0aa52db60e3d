// Issue 25: PATCH /clients/{id} inserts a child row the client does not have yet (an e-mail
// attribute row). Several such PATCHes at once, on every test database, must leave one row:
// one wins, the others update it or get a 409 naming the field — never a second row or a 500.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'

const PEOPLE = [1, 2, 3, 4, 5, 6]

function schema (unique: boolean): string {
  return `
CREATE TABLE person (pid INTEGER PRIMARY KEY, fname VARCHAR(40) NOT NULL, phone_home VARCHAR(20));
CREATE TABLE provider (prid INTEGER PRIMARY KEY, pname VARCHAR(40));
CREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, prid INTEGER, vdate DATE NOT NULL, vtime VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
CREATE TABLE person_contact (pid INTEGER NOT NULL, kind VARCHAR(10) NOT NULL, val VARCHAR(80));
${unique ? 'CREATE UNIQUE INDEX person_contact_one ON person_contact (pid, kind);' : ''}
${PEOPLE.map((p) => `INSERT INTO person (pid, fname, phone_home) VALUES (${p}, 'P${p}', '415555010${p}');`).join('\n')}
`
}

const MAPPING = `version: 1
installation: child-rows
timezone: America/New_York
phone: { defaultCountry: US }
resources:
  appointment:
    table: visit
    key: vid
    start:
      date: { column: vdate, format: date }
      hour: { column: vtime, format: text }
    state: { column: st, type: int, map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED } }
    refs: { client: pid, professional: prid }
  professional:
    table: provider
    key: prid
    fields: { name: pname }
  client:
    table: person
    key: pid
    joins:
      contact: { table: person_contact, on: { pid: pid }, where: { column: kind, eq: email } }
    fields:
      name: fname
      email: contact.val
    phones: [phone_home]
    write:
      key: { generate: max }
      after:
        - { join: contact, set: { kind: { value: email } } }
`

const AT_ONCE = 4

for (const dialect of testDialects()) {
  for (const unique of [false, true]) {
    t.test(`${dialect}: ${AT_ONCE} PATCHes adding the e-mail row at once${unique ? ' (a unique index on the row)' : ''}`, async (t) => {
      const s = await scratchOn(t, dialect, schema(unique), MAPPING)
      for (const pid of PEOPLE) {
        const sent = Array.from({ length: AT_ONCE }, (_, i) => `p${pid}.${i}@example.com`)
        const answers = await Promise.all(sent.map(async (email) => await s.call('PATCH', `/clients/${pid}`, { email })))
        const statuses = answers.map((a) => a.status)
        t.ok(statuses.every((st) => st === 200 || st === 409), `client ${pid}: each answer is 200 or 409 (${statuses.join(', ')})`)
        t.ok(statuses.includes(200), `client ${pid}: one PATCH wins`)
        for (const refused of answers.filter((a) => a.status === 409)) {
          t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body/email'], 'a 409 names the field')
        }
        const rows = await s.rows(`SELECT val FROM person_contact WHERE pid = ${pid}`)
        t.equal(rows.length, 1, `client ${pid}: one e-mail row`)
        const accepted = answers.flatMap((a, i) => a.status === 200 ? [sent[i]] : [])
        t.ok(accepted.includes(rows[0]?.val), 'the row holds an e-mail that was accepted')
        t.equal((await s.call('GET', `/clients/${pid}`)).body.email, rows[0]?.val, 'a later GET reads the row')
      }
    })
  }
}
