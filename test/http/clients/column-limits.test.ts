// Declared lengths and character sets, enforced by Ponte the same on every dialect (issue 7,
// defect 16): on schemas unlike the samples, with the length and Unicode-ness read from the
// live schema or declared in the mapping; and on both samples over HTTP. A column without
// Unicode takes a name that loses only its accents, and refuses any other (issue 25); the
// same on MariaDB and PostgreSQL code-page columns: column-limits-code-page.test.ts.
import t from 'tap'
import { textColumnsOf } from '../../../src/db/columns.js'
import { scratchInstallation, type Scratch } from '../../helpers/scratch.js'
import { forEachSample, send, legacy, bare, mobile, type Test } from '../../helpers/writes.js'

const schema = (nameType: string, mail = 'VARCHAR(40)') => `
CREATE TABLE PEOPLE (PNO INTEGER PRIMARY KEY NOT NULL, NAME ${nameType}, MOBILE VARCHAR(20), MAIL ${mail});
CREATE TABLE VISITS (VNO INTEGER PRIMARY KEY NOT NULL, DAY TEXT NOT NULL, HOUR TEXT NOT NULL, PERSON INT, CODE TEXT);
INSERT INTO PEOPLE (PNO, NAME, MOBILE) VALUES (1, 'Ana', '21987650001');
`

const mapping = (name: string) => `
version: 1
installation: column-limits
phone: { defaultCountry: BR, defaultAreaCode: '21' }
resources:
  appointment:
    table: VISITS
    key: VNO
    start: { date: { column: DAY, format: text }, hour: { column: HOUR, format: text } }
    state: { column: CODE, map: { A: WAITING, C: CONFIRMED, X: CANCELED, F: MISSED, D: DONE } }
    refs: { client: PERSON }
  client:
    table: PEOPLE
    key: PNO
    fields:
      name: ${name}
      email: MAIL
    phones: [MOBILE]
`

/** One scratch clinic whose client name is held in NAME, declared `nameType`. */
async function clinic (t: Test, nameType: string, nameValue = 'NAME', mail?: string): Promise<Scratch & { rows: () => unknown[] }> {
  const s = await scratchInstallation(t, schema(nameType, mail), mapping(nameValue))
  return { ...s, rows: () => s.raw.prepare('SELECT * FROM PEOPLE ORDER BY PNO').all() }
}

let phones = 0
const create = async (s: Scratch, name: string, extra: object = {}) =>
  await s.call('POST', '/clients', { name, phone: mobile('21', 5_000 + ++phones), ...extra })

const stored = (s: Scratch, id: string): unknown => (s.raw.prepare('SELECT * FROM PEOPLE WHERE PNO = ?').get(Number(id)) as Record<string, unknown>)

/** A refused write: a 400 naming the field, and the table exactly as before. */
async function refused (t: Test, s: Scratch & { rows: () => unknown[] }, write: () => Promise<{ status: number, body: any }>, field: string, what: string) {
  const before = JSON.stringify(s.rows())
  const r = await write()
  t.equal(r.status, 400, `${what}: 400`)
  t.same(r.body?.errors?.map((e: { path: string }) => e.path), [`/body/${field}`], `${what}: names /body/${field}`)
  t.notMatch(JSON.stringify(r.body), /PEOPLE|NAME|VARCHAR/, `${what}: says nothing of the legacy schema`)
  t.equal(JSON.stringify(s.rows()), before, `${what}: nothing written`)
}

t.test('VARCHAR(10): too long is a 400 naming the field; accents folded, other characters refused, never `?`', async (t) => {
  const s = await clinic(t, 'VARCHAR(10) NOT NULL')
  await refused(t, s, async () => await create(s, 'Abcdefghijk'), 'name', '11 characters')
  await refused(t, s, async () => await create(s, 'Œuvre Lima'), 'name', 'Œ: no form in the code page that names compare equal to')
  await refused(t, s, async () => await create(s, '😀 😀'), 'name', 'a name with nothing the column can hold')
  await refused(t, s, async () => await create(s, 'Ana😀 Lima'), 'name', 'an emoji among letters is not dropped')
  await refused(t, s, async () => await create(s, '\u0301\u0303'), 'name', 'accents alone: nothing left once they go')
  await refused(t, s, async () => await s.call('PATCH', '/clients/1', { name: 'Ana Maria Lima' }), 'name', 'PATCH, 14 characters')

  const ten = await create(s, 'Nguyễn Thị')
  t.equal(ten.status, 200, 'accents alone may go: 10 characters after folding')
  t.equal(ten.body.name, 'Nguyen Thi')
  t.match(stored(s, ten.body.id), { NAME: 'Nguyen Thi' })

  const kept = await create(s, 'Conceição')
  t.equal(kept.body.name, 'Conceição', 'Latin-1 letters are in the code page: kept as they are')

  await refused(t, s, async () => await s.call('PATCH', `/clients/${ten.body.id}`, { name: 'Łukasz 😀' }), 'name', 'PATCH refuses the same')
  const patched = await s.call('PATCH', `/clients/${ten.body.id}`, { name: 'Trần Văn' })
  t.equal(patched.status, 200)
  t.match(stored(s, ten.body.id), { NAME: 'Tran Van' }, 'PATCH folds accents too')
  t.equal(patched.body.name, 'Tran Van', 'the answer is what the database holds')
})

t.test('NVARCHAR(10): stored as is, counted in UTF-16 code units', async (t) => {
  const s = await clinic(t, 'NVARCHAR(10) NOT NULL')
  await refused(t, s, async () => await create(s, 'Abcdefghijk'), 'name', '11 characters')
  await refused(t, s, async () => await create(s, 'Ana Lima😀😀'), 'name', 'an emoji is two code units: 12')
  const fits = await create(s, 'Nguyễn 😀')
  t.equal(fits.status, 200)
  t.match(stored(s, fits.body.id), { NAME: 'Nguyễn 😀' }, 'nothing folded in a Unicode column')
  const oe = await create(s, 'Œuvre Lima')
  t.equal(oe.status, 200, '10 characters fit, Œ is one')
})

t.test('`Nguyễn Łukasz 😀` in a VARCHAR and in an NVARCHAR', async (t) => {
  const narrow = await clinic(t, 'VARCHAR(20) NOT NULL')
  await refused(t, narrow, async () => await create(narrow, 'Nguyễn Łukasz 😀'), 'name', 'Ł and the emoji have no form the code page holds')

  const wide = await clinic(t, 'NVARCHAR(20) NOT NULL')
  const b = await create(wide, 'Nguyễn Łukasz 😀')
  t.equal(b.status, 200)
  t.match(stored(wide, b.body.id), { NAME: 'Nguyễn Łukasz 😀' })
})

t.test('a name split over first and last columns: each part within its own length', async (t) => {
  const s = await scratchInstallation(t, `
CREATE TABLE PEOPLE (PNO INTEGER PRIMARY KEY NOT NULL, FIRST VARCHAR(6) NOT NULL, LAST NVARCHAR(12) NOT NULL, MOBILE VARCHAR(20), MAIL TEXT);
CREATE TABLE VISITS (VNO INTEGER PRIMARY KEY NOT NULL, DAY TEXT NOT NULL, HOUR TEXT NOT NULL, PERSON INT, CODE TEXT);
`, mapping("{ template: '{FIRST} {LAST}' }"))
  const rows = () => s.raw.prepare('SELECT * FROM PEOPLE').all()
  const both = { ...s, rows }
  await refused(t, both, async () => await create(s, 'Bartholomew Lima'), 'name', 'first word over 6')
  await refused(t, both, async () => await create(s, 'Ana de Souza Costa Lima'), 'name', 'the rest over 12')
  await refused(t, both, async () => await create(s, 'Ana 😀'), 'name', 'refused as a whole when one of its columns holds no Unicode')
  const ok = await create(s, 'Nguyễn Dvořák')
  t.equal(ok.status, 200)
  t.same(s.raw.prepare('SELECT FIRST, LAST FROM PEOPLE').get(), { FIRST: 'Nguyen', LAST: 'Dvorák' },
    'folded as a whole when one of its columns holds no Unicode, then split')
})

t.test('the e-mail is checked like any written text', async (t) => {
  const s = await clinic(t, 'NVARCHAR(40) NOT NULL', 'NAME', 'VARCHAR(20)')
  await refused(t, s, async () => await create(s, 'Ana', { email: 'ana.maria.lima@exemplo.com' }), 'email', '26 characters into VARCHAR(20)')
  const r = await create(s, 'Ana', { email: 'joão@exemplo.com' })
  t.equal(r.status, 200)
  t.match(stored(s, r.body.id), { MAIL: 'joão@exemplo.com' })
})

t.test('the mapping\'s `type` and `length` win over the live schema', async (t) => {
  const declared = await clinic(t, 'TEXT NOT NULL', '{ column: NAME, type: text, length: 10 }')
  await refused(t, declared, async () => await create(declared, 'Abcdefghijk'), 'name', 'length 10 declared over an unbounded TEXT')
  await refused(t, declared, async () => await create(declared, 'Łukasz 😀'), 'name', 'type: text (VARCHAR) refuses though SQLite TEXT holds anything')
  const folded = await create(declared, 'Dvořák')
  t.match(stored(declared, folded.body.id), { NAME: 'Dvorák' }, 'type: text (VARCHAR) folds accents though SQLite TEXT holds anything')

  const longer = await clinic(t, 'VARCHAR(10) NOT NULL', '{ column: NAME, length: 12 }')
  const r = await create(longer, 'Abcdefghijkl')
  t.equal(r.status, 200, 'length 12 declared over VARCHAR(10)')
  const wide = await clinic(t, 'VARCHAR(20) NOT NULL', '{ column: NAME, type: ntext }')
  const w = await create(wide, 'Łukasz 😀')
  t.match(stored(wide, w.body.id), { NAME: 'Łukasz 😀' }, 'type: ntext declared over VARCHAR: not folded')
})

t.test('a column whose length nobody declares is not length-checked', async (t) => {
  const s = await clinic(t, 'TEXT NOT NULL')
  const long = 'Ana '.repeat(50).trim()
  const r = await create(s, long)
  t.equal(r.status, 200)
  t.equal(r.body.name, long)
})

// ---- the samples, over HTTP ----

forEachSample(t, async (t, a) => {
  const client = a.inst.model.client
  const db = legacy(a)
  const table = bare(client.table)
  const words = ['Maria', 'Aparecida', 'dos', 'Santos', 'Figueiredo', 'de', 'Albuquerque', 'Cavalcanti', 'Nascimento']
  let name = ''
  for (let i = 0; name.length < 152; i++) name = `${name} ${words[i % words.length]}`.trim()
  name = name.slice(0, 152).trim()
  while (name.length < 152) name += 'a'
  t.equal(name.length, 152)

  const before = await db.dump(table)
  const r = await send(a, 'POST', '/clients', { name, phone: mobile(a.inst.model.phone.defaultAreaCode ?? '11', 8_123_457) })
  t.equal(r.status, 400, 'a 152-character name: 400')
  t.same(r.body?.errors?.map((e: { path: string }) => e.path), ['/body/name'])
  t.equal(await db.dump(table), before, 'the client table is unchanged')

  // Where the name goes: VARCHAR folds accents and refuses the rest, NVARCHAR keeps.
  const area = a.inst.model.phone.defaultAreaCode ?? '11'
  const f = client.fields.name
  const column = f.column ?? f.coalesce?.filter((c) => typeof c === 'string').at(-1) ?? /\{([^}]+)\}/.exec(f.template ?? '')?.[1] as string
  const unicode = textColumnsOf((await a.inst.db.introspect.catalog()).table(client.table)).get(column.toLowerCase())?.unicode
  t.type(unicode, 'boolean', `${column} is a text column of the catalogue`)
  const unchanged = await db.dump(table)
  const created = await send(a, 'POST', '/clients', { name: 'Nguyễn Łukasz 😀', phone: mobile(area, 8_123_458) })
  if (unicode === true) {
    t.equal(created.status, 200, `${column} (Unicode): taken`)
    t.equal(created.body.name, 'Nguyễn Łukasz 😀', 'kept as sent')
  } else {
    t.equal(created.status, 400, `${column} (code page): refused`)
    t.same(created.body?.errors?.map((e: { path: string }) => e.path), ['/body/name'])
    t.equal(await db.dump(table), unchanged, 'the client table is unchanged')
  }
  const accents = await send(a, 'POST', '/clients', { name: 'Nguyễn Thị Ánh', phone: mobile(area, 8_123_459) })
  t.equal(accents.status, 200)
  t.equal(accents.body.name, unicode === true ? 'Nguyễn Thị Ánh' : 'Nguyen Thi Ánh', `${column}: ${unicode === true ? 'kept' : 'accents outside Latin-1 folded'}`)
  const texts = Object.values(await db.row(table, client.key.column, accents.body.id) ?? {}).filter((v) => typeof v === 'string').join(' ')
  t.ok(accents.body.name.split(' ').every((w: string) => texts.includes(w)), `stored as answered (${accents.body.name})`)
})
