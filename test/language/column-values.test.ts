// Issue 25 item 4, every written value fits its column, on a schema unlike the samples and on
// every test database: text keys past 9 and 99 generated as the next number, a ref held in a
// text column written as its digits, a new UUID in a binary column as its 16 bytes, a value
// longer than its child row's column refused by name with every table unchanged; and `check`
// says each of these at its line before go-live.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import type { TestDialect } from '../helpers/app.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import type { CheckReport } from '../../src/check/index.js'

const BINARY: Record<TestDialect, string> = { sqlite: 'BLOB', mysql: 'BINARY(16)', postgres: 'BYTEA' }

// Ten patients keyed '1'..'10' and appointments '9' and '10': as text, the largest key is '9'.
function schema (dialect: TestDialect): string {
  const patients = Array.from({ length: 10 }, (_, i) => `INSERT INTO pac (code, nm, tel) VALUES ('${i + 1}', 'Patient ${i + 1}', '1199990000${i}');`)
  return `
CREATE TABLE pac (code VARCHAR(12) PRIMARY KEY, nm VARCHAR(20) NOT NULL, tel VARCHAR(20));
CREATE TABLE pac_mail (code VARCHAR(12) NOT NULL, addr VARCHAR(16));
CREATE TABLE doc (dcode INTEGER PRIMARY KEY, dname VARCHAR(40));
CREATE TABLE appt (aid VARCHAR(12) PRIMARY KEY, pcode VARCHAR(12) NOT NULL, dcode VARCHAR(8), adate DATE NOT NULL, ahour VARCHAR(5) NOT NULL, guid ${BINARY[dialect]}, odoc INTEGER, st INTEGER NOT NULL);
${patients.join('\n')}
INSERT INTO pac_mail (code, addr) VALUES ('1', 'p1@example.com');
INSERT INTO doc (dcode, dname) VALUES (10, 'Dr. Ten');
INSERT INTO appt (aid, pcode, dcode, adate, ahour, st) VALUES ('9', '1', '10', '2031-03-03', '08:00', 0);
INSERT INTO appt (aid, pcode, dcode, adate, ahour, st) VALUES ('10', '2', '10', '2031-03-03', '08:30', 0);
`
}

const KEY_LINE = '    key: { column: code, type: text }'
const GUID_LINE = '        guid: { uuid: true }'
const NAME_LINE = '      name: nm'
const EMAIL_LINE = '      email: mail.addr'
const PROFESSIONAL_LINE = '      professional: dcode'

const MAPPING = `version: 1
installation: text-keys
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
search: [phone, name]
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: appt
    key: { column: aid, type: text }
    start:
      date: { column: adate, format: date }
      hour: { column: ahour, format: text }
    state:
      column: st
      type: int
      map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED }
    refs:
      client: pcode
${PROFESSIONAL_LINE}
    write:
      key: { generate: max }
      set:
${GUID_LINE}
      states:
        WAITING: { st: { value: 0 } }
        CONFIRMED: { st: { value: 1 } }
        CANCELED: { st: { value: 2 } }
  client:
    table: pac
${KEY_LINE}
    joins:
      mail: { table: pac_mail, on: { code: code } }
    fields:
${NAME_LINE}
${EMAIL_LINE}
    phones: [tel]
    write:
      key: { generate: max }
      phoneFormat: digits
      after:
        - { join: mail }
  professional:
    table: doc
    key: dcode
    fields: { name: dname }
`

const DAY = '2031-03-04'
const UUID_BYTES = /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/

async function snapshot (s: ServerScratch): Promise<string> {
  const out: unknown[] = []
  for (const table of ['pac', 'pac_mail', 'doc', 'appt']) out.push(await s.rows(`SELECT * FROM ${table} ORDER BY 1, 2`))
  return JSON.stringify(out, (_, v) => typeof v === 'object' && v !== null && v.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v)
}

const lineOf = (mapping: string, text: string): number => mapping.split('\n').indexOf(text) + 1
/** Whether check reported, at that line and severity, a finding saying `says`. */
const said = (report: CheckReport, line: number, severity: 'problem' | 'warning', says: RegExp): boolean =>
  report.findings.some((f) => f.line === line && f.severity === severity && says.test(f.message))

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a text key past 9 is generated as the next number, stored as its digits', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const first = await s.call('POST', '/clients', { name: 'Ana Lima', phone: '+5511987654321' })
      t.equal(first.status, 200, JSON.stringify(first.body))
      t.equal(first.body.id, '11', 'after 10, not after \'9\'')
      const second = await s.call('POST', '/clients', { name: 'Rui Dias', phone: '+5511987654322' })
      t.equal(second.body.id, '12')
      t.same((await s.rows('SELECT code, nm, tel FROM pac WHERE code IN (\'11\', \'12\') ORDER BY code')).map((r) => [r.code, r.nm, r.tel]),
        [['11', 'Ana Lima', '11987654321'], ['12', 'Rui Dias', '11987654322']], 'the rows hold the keys and values sent, in the column\'s own kind')
    })

    t.test('a booking: a text key, the professional\'s id in a text column, a new UUID as 16 bytes', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '10', professional: '10' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same([booked.body.id, booked.body.client?.id, booked.body.professional?.id], ['11', '10', '10'])
      const [row] = await s.rows('SELECT aid, pcode, dcode, guid FROM appt WHERE aid = \'11\'')
      t.same([row?.aid, row?.pcode, row?.dcode], ['11', '10', '10'], 'every id as its digits: no \'10.0\'')
      t.ok(Buffer.isBuffer(row?.guid) && row.guid.length === 16 && UUID_BYTES.test(row.guid.toString('hex')), `the UUID as its 16 bytes (${String(row?.guid?.length)} stored)`)
      const again = await s.call('GET', '/appointments/11')
      t.same([again.body.client?.id, again.body.professional?.id], ['10', '10'], 'a later GET reads the refs sent')
    })

    t.test('a value longer than its child row\'s column is refused by name, every table unchanged', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const before = await snapshot(s)
      const created = await s.call('POST', '/clients', { name: 'Ana Lima', phone: '+5511987654321', email: 'ana.lima.long@example.com' })
      t.equal(created.status, 400)
      t.same(created.body.errors?.map((e: { path: string }) => e.path), ['/body/email'])
      t.match(created.body.errors?.[0]?.message, /at most 16 characters/)
      const patched = await s.call('PATCH', '/clients/1', { email: 'ana.lima.long@example.com' })
      t.equal(patched.status, 400)
      t.same(patched.body.errors?.map((e: { path: string }) => e.path), ['/body/email'])
      const added = await s.call('PATCH', '/clients/2', { email: 'ana.lima.long@example.com' })
      t.equal(added.status, 400, 'also where the row would be inserted')
      t.equal(await snapshot(s), before, 'no table changed')
      const fits = await s.call('POST', '/clients', { name: 'Ana Lima', phone: '+5511987654321', email: 'ana@example.com' })
      t.equal(fits.status, 200, 'a value that fits is stored')
      t.same(await s.rows(`SELECT addr FROM pac_mail WHERE code = '${fits.body.id as string}'`), [{ addr: 'ana@example.com' }])
    })

    t.test('check says at its line what each column does to the values written into it', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const report = await checkOf(t, s.url, MAPPING)
      t.ok(report.ok, report.lines.join('\n'))
      t.ok(said(report, lineOf(MAPPING, GUID_LINE), 'warning', /written as its 16 bytes/), 'the UUID written into a binary column')
      t.ok(said(report, lineOf(MAPPING, NAME_LINE), 'warning', /at most 20 characters.*up to 200/), 'a name column shorter than the interface allows')
      t.ok(said(report, lineOf(MAPPING, EMAIL_LINE), 'warning', /at most 16 characters.*up to 200/), 'a child row\'s column too')

      const intKey = MAPPING.replace(KEY_LINE, '    key: code')
      const wrong = await checkOf(t, s.url, intKey)
      t.notOk(wrong.ok)
      t.ok(said(wrong, lineOf(intKey, '    key: code'), 'problem', /`code` is text \(.*type: text/), 'a key read as an integer from a text column')

      // Planted: the professional's ids are text, and the appointment keeps them in a number column.
      const textIds = MAPPING.replace(PROFESSIONAL_LINE, '      professional: odoc').replace('    key: dcode\n', '    key: { column: dname, type: text }\n')
      const refs = await checkOf(t, s.url, textIds)
      t.ok(said(refs, lineOf(textIds, '      professional: odoc'), 'problem', /professional ids are text.*holds numbers/), refs.lines.join('\n'))

      // Planted: a key holding letters, which a `max` key cannot count from.
      const odd = await scratchOn(t, dialect, `${schema(dialect)}\nINSERT INTO pac (code, nm) VALUES ('P-1', 'Odd Key');`, MAPPING)
      const counted = await checkOf(t, odd.url, MAPPING)
      const clientKeyLine = MAPPING.split('\n').lastIndexOf('      key: { generate: max }') + 1
      t.ok(said(counted, clientKeyLine, 'problem', /largest key of column `code` is not a number/), counted.lines.join('\n'))
      const before = await snapshot(odd)
      const refused = await odd.call('POST', '/clients', { name: 'Ana Lima', phone: '+5511987654321' })
      t.equal(refused.status, 501, 'the server does not guess a key')
      t.match(refused.body, { type: /not-writable$/, detail: /cannot be given a key/ }, 'and says why as a problem')
      t.equal(await snapshot(odd), before, 'and changes nothing')
    })
  })
}

// MariaDB's utf8mb3 (a legacy `utf8` table) takes no character beyond U+FFFF: an emoji in a name
// was refused with an error naming no column, answered as "one of name, phone".
t.test('mysql: a name with an emoji for a utf8mb3 column is refused naming name, nothing written', { skip: !testDialects().includes('mysql') && 'MariaDB only' }, async (t) => {
  const narrow = schema('mysql').replace('nm VARCHAR(20) NOT NULL', 'nm VARCHAR(20) CHARACTER SET utf8mb3 NOT NULL')
  const s = await scratchOn(t, 'mysql', narrow, MAPPING)
  const before = await snapshot(s)
  const created = await s.call('POST', '/clients', { name: 'Ana 😀 Lima', phone: '+5511987654321' })
  t.equal(created.status, 400)
  t.same(created.body.errors?.map((e: { path: string }) => e.path), ['/body/name'], 'the field, not "one of name, phone"')
  t.match(created.body.errors?.[0]?.message, /emoji/)
  const patched = await s.call('PATCH', '/clients/1', { name: 'Ana 😀 Lima' })
  t.equal(patched.status, 400)
  t.same(patched.body.errors?.map((e: { path: string }) => e.path), ['/body/name'])
  t.equal(await snapshot(s), before, 'no table changed')
  const accented = await s.call('POST', '/clients', { name: 'Zoë Núñez', phone: '+5511987654321' })
  t.equal(accented.status, 200, 'characters up to U+FFFF are stored')
  t.same(await s.rows(`SELECT nm FROM pac WHERE code = '${accented.body.id as string}'`), [{ nm: 'Zoë Núñez' }])
  const report = await checkOf(t, s.url, MAPPING)
  t.ok(said(report, lineOf(MAPPING, NAME_LINE), 'warning', /no character beyond U\+FFFF.*emoji is refused/), report.lines.join('\n'))
})
