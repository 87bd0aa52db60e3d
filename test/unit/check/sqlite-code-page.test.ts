// SQLite keeps UTF-8 in any text column, but Ponte reads a declared VARCHAR as SQL Server
// does, a code page (stranger report D6): `Nguyễn` was stored as `Nguyen` and emoji refused
// with no word from check. Check now warns at the field's line on SQLite naming `type: ntext`;
// with it the name is stored as sent and the declared length still holds. A SQLite-only trait.
import t from 'tap'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'

const schema = `
CREATE TABLE tutor (tutor_id INTEGER PRIMARY KEY, tutor_nm VARCHAR(20) NOT NULL, mail VARCHAR(60), fone VARCHAR(20));
CREATE TABLE consulta (cons_id INTEGER PRIMARY KEY, tutor_id INTEGER NOT NULL, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, sit INTEGER NOT NULL);
INSERT INTO tutor (tutor_id, tutor_nm, mail, fone) VALUES (1, 'Ana Lima', 'ana@example.com', '11987654321');
`

const mapping = (nameType: string): string => `version: 1
installation: vet-utf8
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
resources:
  appointment:
    table: consulta
    key: cons_id
    start:
      date: { column: dia, format: date }
      hour: { column: hora, format: text }
    state: { column: sit, type: int, map: { '0': WAITING } }
    refs: { client: tutor_id }
  client:
    table: tutor
    key: tutor_id
    write:
      key: { generate: max }
    fields:
      name: { column: tutor_nm${nameType} }
      email: { column: mail, type: ntext }
    phones: [fone]
`

t.test('a VARCHAR name on SQLite: warned, and type: ntext keeps it as sent', async (t) => {
  const plain = mapping('')
  const s = await scratchOn(t, 'sqlite', schema, plain)
  const report = await checkOf(t, s.url, plain)
  const line = plain.split('\n').findIndex((l) => l.includes('name: { column: tutor_nm')) + 1
  const warned = report.findings.filter((f) => /type: ntext/.test(f.message))
  t.equal(warned.length, 1, 'one warning, the e-mail already says ntext')
  t.match(warned[0], { severity: 'warning', path: '/resources/client/fields/name', line, message: /VARCHAR\(20\).*code page.*SQLite stores UTF-8/ })
  const folded = await s.call('POST', '/clients', { name: 'Nguyễn Văn An', phone: '+5511987650001' })
  t.equal(folded.body.name, 'Nguyen Van An', 'without it, the accents go, as the warning says')

  const utf8 = mapping(', type: ntext')
  const u = await scratchOn(t, 'sqlite', schema, utf8)
  t.notOk((await checkOf(t, u.url, utf8)).findings.some((f) => /type: ntext/.test(f.message)), 'quiet once the field says ntext')
  const kept = await u.call('POST', '/clients', { name: 'Nguyễn Văn An', phone: '+5511987650002' })
  t.equal(kept.status, 200)
  t.equal(kept.body.name, 'Nguyễn Văn An')
  t.same(await u.rows(`SELECT tutor_nm FROM tutor WHERE tutor_id = ${Number(kept.body.id)}`), [{ tutor_nm: 'Nguyễn Văn An' }], 'stored as sent')
  t.equal((await u.call('POST', '/clients', { name: 'Zoë 😀 Ng', phone: '+5511987650003' })).status, 200, 'emoji too')
  const long = await u.call('POST', '/clients', { name: 'Ł'.repeat(21), phone: '+5511987650004' })
  t.equal(long.status, 400, 'the declared length still holds')
  t.equal(long.body.errors[0].path, '/body/name')
})
