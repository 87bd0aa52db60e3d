// `phone.addNinthDigit: false`, on SQLite, MariaDB and PostgreSQL, on a cooperative's members
// generated here whose phones are kept without area code, some from before 2012: an 8-digit
// number starting with 9 reads as stored with the area code (+551198765432), not as the
// 9-digit mobile another member holds (+5511998765432); the default reads it with the ninth
// digit. A search by either form still finds it; a new member's number is written as sent.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'

const SCHEMA = `
CREATE TABLE cooperado (matricula INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL, fone VARCHAR(20));
INSERT INTO cooperado (matricula, nome, fone) VALUES (1, 'Ana Souza', '9876-5432');
INSERT INTO cooperado (matricula, nome, fone) VALUES (2, 'Bruno Lima', '99876-5432');
INSERT INTO cooperado (matricula, nome, fone) VALUES (3, 'Clara Reis', '3333-4444');
CREATE TABLE consulta (id INTEGER PRIMARY KEY, matricula INTEGER NOT NULL, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, st CHAR(1) NOT NULL);
`

const mapping = (phone: string): string => `version: 1
installation: ninth-digit
phone: { defaultCountry: BR, defaultAreaCode: '11'${phone} }
search: [phone, name]
resources:
  appointment:
    table: consulta
    key: id
    start: { date: { column: dia, format: date }, hour: { column: hora, format: text } }
    state: { column: st, map: { A: WAITING } }
    refs: { client: matricula }
  client:
    table: cooperado
    key: matricula
    fields: { name: nome }
    phones: [fone]
    write: { key: { generate: max }, phone: fone, phoneFormat: dashed }
`

const phoneOf = async (s: { call: (m: string, u: string) => Promise<{ body: any }> }, id: number): Promise<string | undefined> => (await s.call('GET', `/clients/${id}`)).body.phone

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const off = await scratchOn(t, dialect, SCHEMA, mapping(', addNinthDigit: false'))
    t.equal(await phoneOf(off, 1), '+551198765432', 'the old 8-digit number as stored, with the area code')
    t.equal(await phoneOf(off, 2), '+5511998765432', 'a 9-digit mobile unchanged')
    t.equal(await phoneOf(off, 3), '+551133334444', 'a landline unchanged')
    const found = async (term: string): Promise<string[]> => ((await off.call('GET', `/clients/search?term=${encodeURIComponent(term)}`)).body).map((c: { id: string }) => c.id).sort()
    t.same(await found('+551198765432'), ['1', '2'], 'search by the 8-digit form finds it (and the 9-digit twin, as search always has)')
    const made = await off.call('POST', '/clients', { name: 'Davi Melo', phone: '+551187654321' })
    t.equal(made.status, 200, JSON.stringify(made.body))
    t.equal(made.body.phone, '+551187654321', 'a new member\'s 8-digit number answered as sent')
    t.same((await off.rows(`SELECT fone FROM cooperado WHERE matricula = ${Number(made.body.id)}`)).map((r) => r.fone), ['1187654321'], 'and stored without a ninth digit')

    const on = await scratchOn(t, dialect, SCHEMA, mapping(''))
    t.equal(await phoneOf(on, 1), '+5511998765432', 'by default the ninth digit is added')
  })
}
