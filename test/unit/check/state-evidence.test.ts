// Issue 27, "green means safe": `ponte check` weighs each state code by where its rows fall,
// whatever the map says. A physiotherapy practice's sessions generated in the test, on every
// test database: `P` booked ahead, `K` a cancelled session kept beside the one that took its
// time, `Z` and `Q` past-only (done, missed). A map reading every code as WAITING (init's old
// draft) is a problem; `K` read as a state that holds its time, and `Z` read as CONFIRMED, are
// warnings naming the code and its counts; the right map passes clean.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'

const TODAY = '2031-03-01'
const pad = (n: number): string => String(n).padStart(2, '0')
const sessions: string[] = []
let id = 0
const add = (therapist: number, date: string, hour: number, code: string): void => {
  id++
  sessions.push(`INSERT INTO sessao (idsessao, idpac, idfisio, dia, hora, situ) VALUES (${id}, ${(id % 3) + 1}, ${therapist}, '${date}', '${pad(hour)}:30', '${code}');`)
}
// Ten booked ahead, eight done and five missed before today; six cancelled, each beside a booking of the same time.
for (let i = 0; i < 10; i++) add((i % 2) + 1, `2031-03-${pad(2 + i)}`, 8 + (i % 4), 'P')
for (let i = 0; i < 8; i++) add((i % 2) + 1, `2031-02-${pad(10 + i)}`, 9 + (i % 3), 'Z')
for (let i = 0; i < 5; i++) add((i % 2) + 1, `2031-02-${pad(20 + i)}`, 14, 'Q')
for (let i = 0; i < 6; i++) i < 3 ? add((i % 2) + 1, `2031-03-${pad(2 + i)}`, 8 + (i % 4), 'K') : add((i % 2) + 1, `2031-02-${pad(10 + i)}`, 9 + (i % 3), 'K')

const SCHEMA = `
CREATE TABLE fisio (idfisio INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE paciente (idpac INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL, fone VARCHAR(20));
CREATE TABLE sessao (idsessao INTEGER PRIMARY KEY, idpac INTEGER NOT NULL, idfisio INTEGER NOT NULL, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, situ CHAR(1) NOT NULL);
INSERT INTO fisio (idfisio, nome) VALUES (1, 'Dra Lia Campos'), (2, 'Dr Caio Mota');
INSERT INTO paciente (idpac, nome, fone) VALUES (1, 'Rita Alves', '11987650001'), (2, 'Davi Reis', '11987650002'), (3, 'Ana Luz', '11987650003');
${sessions.join('\n')}
`

const mapping = (map: string, states = ''): string => `version: 1
installation: fisio-evidence
timezone: America/Sao_Paulo
${states}resources:
  appointment:
    table: sessao
    key: idsessao
    start:
      date: { column: dia, format: date }
      hour: { column: hora, format: text }
    state:
      column: situ
      map: { ${map} }
    refs: { client: idpac, professional: idfisio }
    write: { key: { generate: max } }
  client:
    table: paciente
    key: idpac
    fields: { name: nome }
    phones: [fone]
    write: { key: { generate: max } }
  professional:
    table: fisio
    key: idfisio
    fields: { name: nome }
`

const RIGHT = 'P: WAITING, C: CONFIRMED, K: CANCELED, Z: DONE, Q: MISSED'
const stateLines = (lines: string[]): string[] => lines.filter((l) => /^[✗!] .*appointment state\.map[.:] (every|all|\d+ of)/.test(l) || /^[✗!] .*appointment state\.map\./.test(l))

for (const dialect of testDialects()) {
  t.test(`${dialect}: every stored code read as WAITING is a problem, with the evidence of each`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping(RIGHT))
    const r = await checkOf(t, s.url, mapping('P: WAITING, K: WAITING, Z: WAITING, Q: WAITING'), TODAY)
    t.notOk(r.ok, 'check fails')
    t.ok(r.lines.some((l) => /^✗ .*appointment state\.map: every stored situ code reads as WAITING \(P ×10, Z ×8, K ×6, Q ×5\): the map tells no code apart/.test(l)), r.lines.join('\n'))
    t.ok(r.lines.some((l) => /^! .*appointment state\.map\.K: 6 of 6 rows of code K \(read as WAITING, which holds its time\) share their professional and start with another appointment, against 26% of the other codes' rows: it looks like a cancellation/.test(l)), 'K: a cancellation')
    t.ok(r.lines.some((l) => /^! .*appointment state\.map\.Z: all 8 rows of code Z \(read as WAITING\) are before today, while 13 rows of other codes are on or after it: .*\(DONE or MISSED\)/.test(l)), 'Z: past only')
    t.ok(r.lines.some((l) => /^! .*appointment state\.map\.Q: all 5 rows of code Q/.test(l)), 'Q: past only')
    t.notOk(r.lines.some((l) => /state\.map\.P:/.test(l)), 'P, booked ahead, is no finding')
  })

  t.test(`${dialect}: a hand-written map holding a cancellation's time, or reading a past-only code CONFIRMED, is warned of`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping(RIGHT))
    const r = await checkOf(t, s.url, mapping('P: WAITING, K: CONFIRMED, Z: CONFIRMED, Q: MISSED', 'states: { values: [WAITING, CONFIRMED, MISSED] }\n'), TODAY)
    t.ok(r.ok, r.lines.join('\n'))
    const lines = stateLines(r.lines)
    t.equal(lines.length, 2, lines.join('\n'))
    t.match(lines.join('\n'), /state\.map\.K: 6 of 6 rows of code K \(read as CONFIRMED, which holds its time\)[^]*map it CANCELED \(or name CONFIRMED in `states\.free`\)/)
    t.match(lines.join('\n'), /state\.map\.Z: all 8 rows of code Z \(read as CONFIRMED\) are before today/)
  })

  t.test(`${dialect}: the right map, and K's state named free, pass with no finding on the codes`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping(RIGHT))
    const r = await checkOf(t, s.url, mapping(RIGHT), TODAY)
    t.ok(r.ok, r.lines.join('\n'))
    t.same(stateLines(r.lines), [])
    const freed = await checkOf(t, s.url, mapping(RIGHT.replace('K: CANCELED', 'K: MISSED'), 'states: { free: [CANCELED, MISSED] }\n'), TODAY)
    t.same(stateLines(freed.lines), [], 'a state named in states.free holds no time: ' + freed.lines.join('\n'))
  })
}
