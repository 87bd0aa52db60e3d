// Issue 25: a value another record already holds is a 409 naming the one field whose column
// collided (a unique constraint on the CPF, a unique index on the e-mail, a unique index over
// a phone child row's kind and number), on every test database; nothing is written, the
// other record reads back unchanged, and the colliding value is not in the answer.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'

const ANN = { email: 'ann@example.com', cpf: '12345678909', phone: '+5511987654321' }
const BEN = { email: 'ben@example.com', cpf: '52998224725', phone: '+5511987650000' }

const SCHEMA = `
CREATE TABLE pt (pid INTEGER PRIMARY KEY, pname VARCHAR(40) NOT NULL, email VARCHAR(60), cpf VARCHAR(14), CONSTRAINT pt_cpf_taken UNIQUE (cpf));
CREATE UNIQUE INDEX pt_email_taken ON pt (email);
CREATE TABLE pt_contact (pid INTEGER NOT NULL, kind CHAR(1) NOT NULL, num VARCHAR(20) NOT NULL);
CREATE UNIQUE INDEX pt_number_taken ON pt_contact (kind, num);
CREATE TABLE doc (dcode INTEGER PRIMARY KEY, dname VARCHAR(40));
CREATE TABLE appt (aid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, dcode INTEGER, adate DATE NOT NULL, ahour VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
INSERT INTO pt (pid, pname, email, cpf) VALUES (1, 'Ann Lima', '${ANN.email}', '${ANN.cpf}');
INSERT INTO pt (pid, pname, email, cpf) VALUES (2, 'Ben Dias', '${BEN.email}', '${BEN.cpf}');
INSERT INTO pt_contact (pid, kind, num) VALUES (1, 'M', '11987654321');
INSERT INTO pt_contact (pid, kind, num) VALUES (2, 'M', '11987650000');
INSERT INTO doc (dcode, dname) VALUES (10, 'Dr. Ten');
`

const MAPPING = `version: 1
installation: colliding-keys
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: appt
    key: aid
    start:
      date: { column: adate, format: date }
      hour: { column: ahour, format: text }
    state: { column: st, type: int, map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED } }
    refs: { client: pid, professional: dcode }
    write:
      key: { generate: max }
      states:
        WAITING: { st: { value: 0 } }
        CONFIRMED: { st: { value: 1 } }
        CANCELED: { st: { value: 2 } }
  client:
    table: pt
    key: pid
    fields:
      name: pname
      email: email
      cpf: cpf
    phones:
      - collect: { table: pt_contact, on: { pid: pid }, where: { column: kind, eq: M }, column: num, by: [num] }
    write:
      key: { generate: max }
      phoneFormat: digits
      after:
        - { phones: 0, set: { kind: { value: M } } }
  professional:
    table: doc
    key: dcode
    fields: { name: dname }
`

const paths = (res: { body: any }): string[] => (res.body.errors ?? []).map((e: { path: string }) => e.path)

async function tables (s: ServerScratch): Promise<string> {
  return JSON.stringify([await s.rows('SELECT * FROM pt ORDER BY pid'), await s.rows('SELECT * FROM pt_contact ORDER BY pid, num')])
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    const before = await tables(s)
    const ann = (await s.call('GET', '/clients/1')).body
    const ben = (await s.call('GET', '/clients/2')).body
    t.match(ann, { email: ANN.email, cpf: ANN.cpf, phone: ANN.phone }, 'the record whose values are taken')

    const fresh = { name: 'Cy Roe', email: 'cy@example.com', cpf: '11144477735', phone: '+5511912345678' }
    const cases: Array<[string, string, object]> = [
      ['POST: the phone in its child row (a unique index over kind and number)', 'phone', { ...fresh, phone: ANN.phone }],
      ['POST: the e-mail (a unique index)', 'email', { ...fresh, email: ANN.email }],
      ['POST: the CPF (a unique constraint)', 'cpf', { ...fresh, cpf: ANN.cpf }]
    ]
    for (const [what, field, body] of cases) {
      const res = await s.call('POST', '/clients', body)
      t.equal(res.status, 409, `${what}: 409`)
      t.same(paths(res), [`/body/${field}`], `${what}: names only ${field}`)
      t.match(res.body.detail, new RegExp(`already holds ${field} for another record`), `${what}: says so`)
      t.notMatch(JSON.stringify(res.body), ANN[field as keyof typeof ANN].replace('+55', ''), `${what}: the value is not in the answer`)
    }
    for (const [field, value] of [['email', ANN.email], ['cpf', ANN.cpf]]) {
      const res = await s.call('PATCH', '/clients/2', { [field]: value })
      t.equal(res.status, 409, `PATCH ${field}: 409`)
      t.same(paths(res), [`/body/${field}`], `PATCH ${field}: names only ${field}`)
    }
    const both = await s.call('PATCH', '/clients/2', { email: 'ben.new@example.com', cpf: ANN.cpf })
    t.same(paths(both), ['/body/cpf'], 'PATCH of two fields: only the one that collided')

    t.equal(await tables(s), before, 'nothing was written to any table')
    t.same((await s.call('GET', '/clients/1')).body, ann, 'a later GET shows the holder unchanged')
    t.same((await s.call('GET', '/clients/2')).body, ben, 'and the record patched unchanged')

    const stored = await s.call('POST', '/clients', fresh)
    t.equal(stored.status, 200, 'values nobody holds are stored')
    t.match(stored.body, { email: fresh.email, cpf: fresh.cpf, phone: fresh.phone })
  })
}
