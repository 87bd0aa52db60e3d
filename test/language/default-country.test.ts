// Issue 27 item 7 on a schema unlike the samples, on every test database: an OSCAR-like
// Canadian clinic (Hamilton, area code 905) whose desk typed phones every North American way:
// a local '555-0143' with the area code implied, '(905) 555-0102', '905.555.0104', extensions
// ('x12', 'ext. 7'), a long-distance '1-905-…'. Each reads as E.164, is found by its E.164 and
// by a national spelling through the probes alone (one statement, no scan after them), a new
// client is stored as '905-555-0110' (`phoneFormat: dashed`), and a Brazilian traveller's
// mobile is stored whole, in E.164. `ponte check` names the column whose numbers cannot be read.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkInstallation } from '../../src/check/index.js'
import { bindValues } from '../../src/sql/statement.js'

const SCHEMA = `
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL, phone VARCHAR(20), phone2 VARCHAR(20));
CREATE INDEX demographic_phone ON demographic (phone);
CREATE INDEX demographic_phone2 ON demographic (phone2);
CREATE TABLE provider (provider_no INTEGER PRIMARY KEY, last_name VARCHAR(30));
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, demographic_no INTEGER, provider_no INTEGER, appointment_date DATE NOT NULL, start_time VARCHAR(8) NOT NULL, status CHAR(2) NOT NULL);
INSERT INTO provider (provider_no, last_name) VALUES (1, 'Singh');
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (1, 'Ada', 'Moss', '555-0143', '905-555-0199 x12');
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (2, 'Bo', 'Chen', '(905) 555-0102', NULL);
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (3, 'Cy', 'Roy', '905.555.0104', '');
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (4, 'Di', 'Fox', '905 555 0105 ext. 7', NULL);
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (5, 'Ed', 'Orr', '1-905-555-0106', '(416) 555-0107');
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (6, 'Flo', 'Wu', '9055550108', NULL);
`

const MAPPING = `version: 1
installation: hamilton-family-practice
timezone: America/Toronto
phone: { defaultCountry: CA, defaultAreaCode: '905' }
search: [phone, name]
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: appointment
    key: appointment_no
    start:
      date: { column: appointment_date, format: date }
      hour: { column: start_time, format: text }
    state: { column: status, map: { t: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: demographic_no, professional: provider_no }
  client:
    table: demographic
    key: demographic_no
    fields:
      name: { template: '{first_name} {last_name}' }
    phones: [phone, { column: phone2, nullIf: [''] }]
    write:
      key: { generate: max }
      phoneFormat: dashed
  professional:
    table: provider
    key: provider_no
    fields: { name: last_name }
`

// Each planted row: the numbers it reads as, and a national spelling a caller might type.
const PLANTED: Array<[id: string, phones: string[], typed: string]> = [
  ['1', ['+19055550143', '+19055550199'], '555-0143'],
  ['2', ['+19055550102'], '905-555-0102'],
  ['3', ['+19055550104'], '(905) 555-0104'],
  ['4', ['+19055550105'], '905.555.0105'],
  ['5', ['+19055550106', '+14165550107'], '1 905 555 0106'],
  ['6', ['+19055550108'], '(905)555-0108']
]

/** The ids a search answers and how many statements it ran (one: the probes found them, no scan after). */
async function search (s: ServerScratch, term: string): Promise<{ ids: string[], statements: number }> {
  const before = s.installation.db.stats.statements
  const res = await s.call('GET', `/clients/search?term=${encodeURIComponent(term)}`)
  if (res.status !== 200) throw new Error(`search ${term}: ${res.status} ${JSON.stringify(res.body)}`)
  return { ids: res.body.map((c: { id: string }) => c.id), statements: s.installation.db.stats.statements - before }
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    await search(s, '+19055550100') // the first search reads which columns an index leads

    t.test('every stored spelling reads as E.164, the local one with the area code 905', async (t) => {
      for (const [id, phones] of PLANTED) {
        const res = await s.call('GET', `/clients/${id}`)
        t.equal(res.status, 200)
        t.same([res.body.phone, res.body.allPhones], [phones[0], phones], `client ${id}`)
      }
    })

    t.test('found by E.164 and by a national spelling, by the probes alone', async (t) => {
      for (const [id, phones, typed] of PLANTED) {
        for (const term of [...phones, typed]) {
          t.same(await search(s, term), { ids: [id], statements: 1 }, `${term} finds client ${id}`)
        }
      }
      t.same(await search(s, '+19055550199'), { ids: ['1'], statements: 1 }, 'a number stored with an extension is found by its number')
      t.same((await search(s, '+19055550100')).ids, [], 'a number nobody holds finds nobody')
    })

    if (dialect === 'sqlite') {
      t.test('SQLite seeks both phone indexes and never reads the table', async (t) => {
        const { default: BetterSqlite3 } = await import('better-sqlite3')
        const raw = new BetterSqlite3(s.url.slice('sqlite:'.length), { readonly: true })
        t.teardown(() => { raw.close() })
        const indexed = new Set(['phone', 'phone2'])
        const bound = s.installation.compiled.clients.bindSearch([{ kind: 'phone', value: '+19055550102' }], 0, false, indexed)
        const named = Object.fromEntries(bindValues(bound.statement, bound.args).map((v, i) => [`p${i + 1}`, v]))
        const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${bound.statement.sql}`).all(named) as Array<{ detail: string }>).map((r) => r.detail).join('\n')
        t.match(plan, /USING (COVERING )?INDEX demographic_phone\b/)
        t.match(plan, /USING (COVERING )?INDEX demographic_phone2\b/)
        t.notMatch(plan, /SCAN t\b/, 'the table is not read')
      })
    }

    t.test('a new client is stored as the desk writes it, and found by both spellings', async (t) => {
      const res = await s.call('POST', '/clients', { name: 'Gus Lam', phone: '+19055550110' })
      t.equal(res.status, 200, JSON.stringify(res.body))
      t.equal(res.body.phone, '+19055550110', 'the answer')
      const id = res.body.id as string
      const [row] = await s.rows(`SELECT phone FROM demographic WHERE demographic_no = ${Number(id)}`)
      t.equal(row.phone, '905-555-0110', 'the row, read directly')
      t.equal((await s.call('GET', `/clients/${id}`)).body.phone, '+19055550110', 'a later GET')
      t.same(await search(s, '+19055550110'), { ids: [id], statements: 1 }, 'by E.164')
      t.same(await search(s, '905-555-0110'), { ids: [id], statements: 1 }, 'by the national spelling')

      const typed = await s.call('POST', '/clients', { name: 'Hal Ng', phone: '(905) 555-0111' })
      t.equal(typed.status, 200)
      const [typedRow] = await s.rows(`SELECT phone FROM demographic WHERE demographic_no = ${Number(typed.body.id)}`)
      t.same([typed.body.phone, typedRow.phone], ['+19055550111', '905-555-0111'], 'a national spelling sent is stored the same way')

      const us = await s.call('POST', '/clients', { name: 'Ivy Poe', phone: '+12015550123' })
      const [usRow] = await s.rows(`SELECT phone FROM demographic WHERE demographic_no = ${Number(us.body.id)}`)
      t.same([us.body.phone, usRow.phone], ['+12015550123', '201-555-0123'], 'a US number shares the calling code: written nationally too')
    })

    t.test('a Brazilian traveller\'s mobile is kept whole, in E.164', async (t) => {
      const res = await s.call('POST', '/clients', { name: 'Joana Lima', phone: '+5511928087886' })
      t.equal(res.status, 200, JSON.stringify(res.body))
      const id = res.body.id as string
      const [row] = await s.rows(`SELECT phone FROM demographic WHERE demographic_no = ${Number(id)}`)
      t.equal(row.phone, '+5511928087886', 'the row, read directly')
      t.same((await s.call('GET', `/clients/${id}`)).body.allPhones, ['+5511928087886'])
      t.same(await search(s, '+5511928087886'), { ids: [id], statements: 1 }, 'found by its number')
    })

    t.test('a phone that is no number is refused naming it, and nothing is written', async (t) => {
      const before = await s.rows('SELECT COUNT(*) AS n FROM demographic')
      const res = await s.call('POST', '/clients', { name: 'Kim Bay', phone: '555-01' })
      t.equal(res.status, 400)
      t.same(res.body.errors?.map((e: { path: string }) => e.path), ['/body/phone'])
      t.same(await s.rows('SELECT COUNT(*) AS n FROM demographic'), before)
    })

    t.test('check: every stored spelling is probed', async (t) => {
      const report = await checkInstallation(s.installation, { budgetMs: 20_000 })
      for (const column of ['phones[0]', 'phones[1]']) {
        t.ok(report.findings.some((f) => f.severity === 'ok' && f.subject === `client ${column}` && /^all \d+ stored phones are found by a phone search's probes$/.test(f.message)), column)
      }
      t.notOk(report.findings.some((f) => /cannot be read/.test(f.message)), 'no unreadable phone')
    })

    t.test('check names the column whose numbers cannot be read, not the first one', async (t) => {
      const planted = `${SCHEMA}
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (7, 'Gil', 'Hay', '905-555-0120', 'ask at desk');
INSERT INTO demographic (demographic_no, first_name, last_name, phone, phone2) VALUES (8, 'Ike', 'Lo', '905-555-0121', '555-01');`
      const bad = await scratchOn(t, dialect, planted, MAPPING)
      const report = await checkInstallation(bad.installation, { budgetMs: 20_000 })
      const unreadable = report.findings.filter((f) => /cannot be read/.test(f.message))
      t.same(unreadable.map((f) => f.subject), ['client phones[1]'], 'the second column, once')
      t.match(unreadable[0]?.message, /^2 clients have a phone that cannot be read, e\.g\. id 7/)
      t.equal(unreadable[0]?.line, MAPPING.split('\n').findIndex((l) => l.includes('phones: [phone, { column: phone2')) + 1, 'at its line')
      t.notMatch(JSON.stringify(report.findings), /ask at desk/, 'never the value')
    })
  })
}
