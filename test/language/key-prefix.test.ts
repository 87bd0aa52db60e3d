// Text keys with letters before a padded number (a US hospital's `M001204`), made by
// `generate: max` with `prefix` and `digits`, on SQLite, MariaDB and PostgreSQL: only keys
// with the prefix are counted, the next is written in the same form (read back from the
// table), `check` passes, and a prefix on a number key is refused saying why.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseTsql } from '../helpers/tsql-grammar.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { keyPlan } from '../../src/mapping/compile/write-columns.js'
import { mssql } from '../../src/sql/mssql/dialect.js'

// A desk program's odd keys: `X999999` (another series), `MA00001` (letters after the prefix, sorting
// above `M001008` as text) and `M0000999` (over-padded, sorting first by length): none is the largest.
const SCHEMA = `
CREATE TABLE pt (mrn VARCHAR(12) PRIMARY KEY, nm VARCHAR(40) NOT NULL, tel VARCHAR(20));
INSERT INTO pt (mrn, nm, tel) VALUES ('M001001', 'Ann Lee', '3125550101');
INSERT INTO pt (mrn, nm, tel) VALUES ('M001008', 'Bo Chen', '3125550102');
INSERT INTO pt (mrn, nm, tel) VALUES ('X999999', 'Test Row', NULL);
INSERT INTO pt (mrn, nm, tel) VALUES ('MA00001', 'Migrated', NULL);
INSERT INTO pt (mrn, nm, tel) VALUES ('M0000999', 'Overpadded', NULL);
`

const mapping = (key: string, write: string): string => `version: 1
installation: prefixed-keys
timezone: America/Chicago
phone: { defaultCountry: US }
search: [phone, name]
states:
  values: [WAITING, CANCELED]
resources:
  appointment:
    table: pt
    key: { column: mrn, type: text }
    start: { datetime: { column: nm, format: datetime } }
    state: { value: WAITING }
    refs: { client: mrn }
  client:
    table: pt
    key: ${key}
    fields:
      name: nm
    phones: [tel]
    write:
      key: ${write}
      phoneFormat: digits
`

const PREFIXED = mapping('{ column: mrn, type: text }', '{ generate: max, prefix: M, digits: 6 }')

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('the next key is the prefix and the next number, padded', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, PREFIXED)
      const first = await s.call('POST', '/clients', { name: 'Cy Diaz', phone: '+13125550103' })
      t.equal(first.status, 200, JSON.stringify(first.body))
      t.equal(first.body.id, 'M001009', 'after M001008: X999999, MA00001 and M0000999 passed over')
      const second = await s.call('POST', '/clients', { name: 'Di Eze', phone: '+13125550104' })
      t.equal(second.body.id, 'M001010')
      t.same(await s.rows("SELECT mrn, nm, tel FROM pt WHERE mrn LIKE 'M00101%' OR mrn = 'M001009' ORDER BY mrn"),
        [{ mrn: 'M001009', nm: 'Cy Diaz', tel: '3125550103' }, { mrn: 'M001010', nm: 'Di Eze', tel: '3125550104' }], 'the rows hold the keys in the clinic\'s form')
      t.same(await s.rows('SELECT COUNT(*) AS n FROM pt'), [{ n: 7 }], 'two rows added, none replaced')
      const report = await checkOf(t, s.url, PREFIXED)
      t.notOk(report.findings.some((f) => f.severity === 'problem' && /key/.test(f.message)), report.lines.join('\n'))
    })
  })
}

t.test('a prefix on a number key is refused at its place', async (t) => {
  const s = await scratchOn(t, 'sqlite', 'CREATE TABLE pt (mrn INTEGER PRIMARY KEY, nm VARCHAR(40) NOT NULL, tel VARCHAR(20));', mapping('mrn', '{ generate: max, prefix: M }'))
  const refused = await s.call('POST', '/clients', { name: 'Cy Diaz', phone: '+13125550103' })
  t.equal(refused.status, 501)
  t.match(JSON.stringify(refused.body), /only a text key has a prefix/)
  t.same(await s.rows('SELECT COUNT(*) AS n FROM pt'), [{ n: 0 }], 'nothing written')
})

t.test('SQL Server: the prefixed max parses as T-SQL, the prefix bound, the largest read under lock', async (t) => {
  const model = buildModel(parseMapping(PREFIXED, 'prefixed.yaml'))
  const plan = keyPlan(model.client, { key: { generate: 'max', prefix: 'M', digits: 6 } }, mssql)
  const [statement] = plan.before
  t.same(parseTsql(statement.sql, { statements: 1 }), [], statement.sql)
  t.match(statement.sql, /LIKE/)
  t.notMatch(statement.sql, /'M%'/, 'the prefix is a parameter, not SQL text')
  t.same(plan.counted, { prefix: 'M', digits: 6 })
})
