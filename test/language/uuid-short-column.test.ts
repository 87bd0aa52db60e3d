// A value the mapping itself writes (`write.set`, no request field) that its column cannot hold,
// on a schema generated here unlike the samples (a hearing clinic's fittings with an external
// reference column too short for a UUID) and on every test database: MariaDB's catalogue names
// the type `binary` without its size, so the size is read from the catalogue. `ponte check`
// says it as a problem at the `uuid` line and nowhere else; the server refuses every booking as
// the mapping's fault (501 naming the column), not the caller's fields, and writes nothing.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import type { TestDialect } from '../helpers/app.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'

const DAY = '2031-03-05'
// PostgreSQL's bytea has no size: a text column too short for the UUID's 36 characters there.
const SHORT: Record<TestDialect, string> = { sqlite: 'BINARY(8)', mysql: 'BINARY(8)', postgres: 'VARCHAR(8)' }

const schema = (dialect: TestDialect): string => `
CREATE TABLE hearer (hid INTEGER PRIMARY KEY, hname VARCHAR(50) NOT NULL, mobile VARCHAR(20));
CREATE TABLE audiologist (aud_id INTEGER PRIMARY KEY, aud_name VARCHAR(40) NOT NULL);
CREATE TABLE fitting (fit_id INTEGER PRIMARY KEY, hid INTEGER NOT NULL, aud_id INTEGER NOT NULL, fit_day DATE NOT NULL, fit_hm VARCHAR(5) NOT NULL, ext_ref ${SHORT[dialect]}, stage INTEGER NOT NULL);
INSERT INTO hearer (hid, hname, mobile) VALUES (4, 'Olga Pinto', '11987654004');
INSERT INTO audiologist (aud_id, aud_name) VALUES (2, 'Fga. Iris Luz');
`

const UUID_LINE = '        ext_ref: { uuid: true }'
const MAPPING = `version: 1
installation: hearing-fittings
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: fitting
    key: fit_id
    start:
      date: { column: fit_day, format: date }
      hour: { column: fit_hm, format: text }
    state:
      column: stage
      type: int
      map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED }
    refs:
      client: hid
      professional: aud_id
    write:
      key: { generate: max }
      set:
${UUID_LINE}
  client:
    table: hearer
    key: hid
    fields: { name: hname }
    phones: [mobile]
    write:
      key: { generate: max }
      phoneFormat: digits
  professional:
    table: audiologist
    key: aud_id
    fields: { name: aud_name }
`

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
    const refused = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '4', professional: '2' })
    t.equal(refused.status, 501, JSON.stringify(refused.body))
    t.match(refused.body.detail, /mapping itself writes into column ext_ref/, 'names the column and the mapping')
    t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body'], 'blames none of the fields sent')
    t.equal(Number((await s.rows('SELECT COUNT(*) AS n FROM fitting'))[0].n), 0, 'nothing was written')

    const report = await checkOf(t, s.url, MAPPING)
    const problems = report.findings.filter((f) => f.severity === 'problem')
    const line = MAPPING.split('\n').indexOf(UUID_LINE) + 1
    t.ok(problems.length > 0, 'check reports a problem')
    t.same(problems.map((f) => f.line), problems.map(() => line), `every problem at the uuid line (${JSON.stringify(problems.map((f) => `${f.line ?? '?'}: ${f.message}`))})`)
    t.match(problems[0]?.message ?? '', /holds (at most )?8\b/, 'the column\'s size, from the catalogue')
  })
}
