// A client's name into a column without Unicode, on every test database (issue 25: an
// accepted write stores exactly what was sent): accents the code page lacks may go, since names
// compare without them and search still finds the client; a character with no such form (CJK,
// emoji, Ł) is a 400 naming `name`, and the table is unchanged. The code page as each database
// says it: SQLite by the mapping's `type: text` over a TEXT column, MariaDB by a real latin1
// column, PostgreSQL by the column comment Ponte reads as "code page" (the catalogue's).
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import type { TestDialect } from '../../helpers/app.js'
import type { Test } from '../../helpers/writes.js'

const NAME_COLUMN: Record<TestDialect, string> = {
  sqlite: 'pname TEXT NOT NULL',
  mysql: 'pname VARCHAR(40) CHARACTER SET latin1 NOT NULL',
  postgres: 'pname VARCHAR(40) NOT NULL'
}

const schema = (dialect: TestDialect): string => `
CREATE TABLE pt (pid INTEGER PRIMARY KEY, ${NAME_COLUMN[dialect]}, tel VARCHAR(20));
CREATE TABLE appt (aid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, adate DATE NOT NULL, ahour VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
INSERT INTO pt (pid, pname, tel) VALUES (1, 'Ann Lima', '11987654321');
${dialect === 'postgres' ? "COMMENT ON COLUMN pt.pname IS 'ponte: code page (as the clinic program reads it)';" : ''}
`

const mapping = (dialect: TestDialect): string => `version: 1
installation: code-page-names
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED]
resources:
  appointment:
    table: appt
    key: aid
    start:
      date: { column: adate, format: date }
      hour: { column: ahour, format: text }
    state: { column: st, type: int, map: { '0': WAITING, '1': CONFIRMED } }
    refs: { client: pid }
  client:
    table: pt
    key: pid
    write:
      key: { generate: max }
    fields:
      name: ${dialect === 'sqlite' ? '{ column: pname, type: text, length: 40 }' : 'pname'}
    phones: [tel]
`

let phones = 0
const mobile = (): string => `+55119876${String(50_000 + ++phones).padStart(5, '0')}`

const names = (s: ServerScratch): Promise<Array<Record<string, any>>> => s.rows('SELECT pid, pname, tel FROM pt ORDER BY pid')
const storedName = async (s: ServerScratch, id: string): Promise<unknown> => (await names(s)).find((r) => String(r.pid) === id)?.pname

/** A refused write: a 400 of the same problem type as an overlong name, naming `name`, and the table as before. */
async function refused (t: Test, s: ServerScratch, write: () => Promise<{ status: number, body: any }>, what: string): Promise<void> {
  const overlong = await s.call('POST', '/clients', { name: 'A'.repeat(41), phone: mobile() })
  t.equal(overlong.status, 400, 'a 41-character name is refused by column fitting')
  const before = await names(s)
  const r = await write()
  t.equal(r.status, 400, `${what}: 400`)
  t.equal(r.body?.type, overlong.body?.type, `${what}: the problem type of column fitting's other 400s`)
  t.same(r.body?.errors?.map((e: { path: string }) => e.path), ['/body/name'], `${what}: names /body/name`)
  t.notMatch(JSON.stringify(r.body), /pname|latin1|VARCHAR/i, `${what}: says nothing of the legacy schema`)
  t.same(await names(s), before, `${what}: the table is unchanged`)
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema(dialect), mapping(dialect))

    const created = await s.call('POST', '/clients', { name: 'Nguyễn Thị Ánh', phone: mobile() })
    t.equal(created.status, 200, 'a name that loses only accents the code page lacks: taken')
    t.equal(created.body.name, 'Nguyen Thi Ánh', 'answered as stored: ễ and ị without their accents, Á (Latin-1) kept')
    t.equal(await storedName(s, created.body.id), 'Nguyen Thi Ánh', 'the database holds the same')
    t.equal((await s.call('GET', `/clients/${created.body.id as string}`)).body.name, 'Nguyen Thi Ánh', 'a later GET reads it so')
    const found = await s.call('GET', `/clients/search?term=${encodeURIComponent('Nguyễn Thị Ánh')}`)
    t.equal(found.status, 200)
    t.ok(found.body.some((c: { id: string }) => c.id === created.body.id), 'and a search by the name as sent finds the client')

    await refused(t, s, async () => await s.call('POST', '/clients', { name: 'Zoë Ñandú 李小龍 😀', phone: mobile() }), 'CJK and an emoji')
    await refused(t, s, async () => await s.call('POST', '/clients', { name: 'Łukasz Nowak', phone: mobile() }), 'Ł (L is another letter to a name search)')

    await refused(t, s, async () => await s.call('PATCH', '/clients/1', { name: 'Ann 😀' }), 'PATCH with an emoji')
    const patched = await s.call('PATCH', '/clients/1', { name: 'Trần Văn Ánh' })
    t.equal(patched.status, 200, 'PATCH: accents alone may go')
    t.equal(patched.body.name, 'Tran Van Ánh')
    t.equal(await storedName(s, '1'), 'Tran Van Ánh', 'the database holds what PATCH answered')
  })
}
