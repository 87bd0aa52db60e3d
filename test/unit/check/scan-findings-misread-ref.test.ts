// A ref read from the wrong column (stranger report, Delphi clinic: `init` took the agenda's
// plan code for the professional and check passed): a booking would store a professional's id
// in the plan column. Check now reports a problem at the ref's line when nearly every row's
// value names no listed professional of a table the mapping does not filter, and keeps the
// warning for a few deleted ones, or for a filtered table (they may be retired). A small
// Brazilian agenda generated in the test, on every test database.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'

const rowsOf = (n: number, make: (i: number) => string): string => Array.from({ length: n }, (_, i) => make(i + 1)).join('\n')

// Twelve visits: doctor 7 or 8 in codmed, plan 101–103 in plano; visit 12's doctor 9 was deleted.
const SCHEMA = `
CREATE TABLE medico (codmed INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE paciente (codpac INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL, fone VARCHAR(20));
CREATE TABLE agenda (codag INTEGER PRIMARY KEY, codpac INTEGER NOT NULL, codmed INTEGER, plano INTEGER, data DATE NOT NULL, hora VARCHAR(5) NOT NULL, sit CHAR(1) NOT NULL);
INSERT INTO medico (codmed, nome) VALUES (7, 'Dra Lia Campos'), (8, 'Dr Caio Mota');
INSERT INTO paciente (codpac, nome, fone) VALUES (1, 'Rita Alves', '11987650001');
${rowsOf(12, (i) => `INSERT INTO agenda (codag, codpac, codmed, plano, data, hora, sit) VALUES (${i}, 1, ${i === 12 ? 9 : 7 + (i % 2)}, ${100 + (i % 3) + 1}, '2031-03-${String(3 + (i % 5)).padStart(2, '0')}', '${String(8 + (i % 8)).padStart(2, '0')}:00', 'A');`)}
`

const mapping = (professional: string, where = ''): string => `version: 1
installation: clinica-misread
timezone: America/Sao_Paulo
states: { values: [WAITING] }
resources:
  appointment:
    table: agenda
    key: codag
    start:
      date: { column: data, format: date }
      hour: { column: hora, format: text }
    state: { column: sit, map: { A: WAITING } }
    refs: { client: codpac, professional: ${professional} }
    write: { key: { generate: max } }
  client:
    table: paciente
    key: codpac
    fields: { name: nome }
    phones: [fone]
    write: { key: { generate: max } }
  professional:
    table: medico
    key: codmed${where}
    fields: { name: nome }
`

for (const dialect of testDialects()) {
  t.test(`${dialect}: a professional read from the plan column is a problem at its line`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping('plano'))
    const wrong = await checkOf(t, s.url, mapping('plano'))
    t.notOk(wrong.ok, 'check fails')
    const line = wrong.lines.find((l) => l.startsWith('✗') && l.includes('appointment refs.professional: 12 of'))
    t.ok(line, wrong.lines.join('\n'))
    t.match(line, /12 of the 12 naming a professional name one that is not listed, e\.g\. id 1: is this the column that holds the professional's key\?/)
  })

  t.test(`${dialect}: from a professional table the mapping filters, the same is a warning (they may be retired)`, async (t) => {
    const filtered = mapping('plano', "\n    where: { column: nome, in: ['Dra Lia Campos', 'Dr Caio Mota'] }")
    const s = await scratchOn(t, dialect, SCHEMA, filtered)
    const report = await checkOf(t, s.url, filtered)
    t.ok(report.ok, report.lines.filter((l) => l.startsWith('✗')).join('\n'))
    t.ok(report.lines.some((l) => /^! .*appointment refs.professional: 12 of the 12 naming a professional name one that is not listed, e\.g\. id 1 \(deleted or filtered out: if the professional resource's `where` does not leave them out, this ref reads the wrong column\)/.test(l)), report.lines.join('\n'))
  })

  t.test(`${dialect}: the right column with one deleted doctor is a warning, and check passes`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping('codmed'))
    const right = await checkOf(t, s.url, mapping('codmed'))
    t.ok(right.ok, right.lines.filter((l) => l.startsWith('✗')).join('\n'))
    t.ok(right.lines.some((l) => /^! .*appointment refs.professional: 1 of the 12 naming a professional name one that is not listed, e\.g\. id 12 \(deleted or filtered out\)/.test(l)), right.lines.join('\n'))
  })
}
