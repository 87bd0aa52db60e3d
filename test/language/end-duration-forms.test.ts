// `end: { duration: … }` in the forms docs/mapping.md lists for a table with no end column (a
// Delphi-era AGENDA): a column of the professional's row through the appointment's joins (bare
// or with `unit`), and a constant. Each reads an end, holds that time against /availability,
// and a booking after it is taken and stored (the duration itself is not written). On SQLite,
// MariaDB and PostgreSQL.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
const DAY = '2031-03-04'
const SCHEMA = `
CREATE TABLE medico (id INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL, grade INTEGER);
CREATE TABLE paciente (id INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE escala (id INTEGER PRIMARY KEY, medico_id INTEGER NOT NULL, dow INTEGER NOT NULL, das VARCHAR(5) NOT NULL, ate VARCHAR(5) NOT NULL);
CREATE TABLE consulta (id INTEGER PRIMARY KEY, paciente_id INTEGER NOT NULL, medico_id INTEGER NOT NULL, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, situacao CHAR(1) NOT NULL);
INSERT INTO medico (id, nome, grade) VALUES (1, 'Q', 15), (2, 'V', 20);
INSERT INTO paciente (id, nome) VALUES (1, 'Ana');
INSERT INTO escala (id, medico_id, dow, das, ate) VALUES (1, 1, 2, '08:00', '10:00'), (2, 2, 2, '08:00', '10:00');
INSERT INTO consulta (id, paciente_id, medico_id, dia, hora, situacao) VALUES (9, 1, 2, '${DAY}', '08:00', 'A');
`
const m = (end: string): string => `
version: 1
installation: probe
timezone: America/Sao_Paulo
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: consulta
    key: id
    joins: { doc: { table: medico, on: { medico_id: id } } }
    start: { date: { column: dia, format: date }, hour: hora }
    end: ${end}
    state: { column: situacao, type: text, map: { A: WAITING, D: CANCELED } }
    refs: { client: paciente_id, professional: medico_id }
    write: { key: { generate: max } }
  client: { table: paciente, key: id, fields: { name: nome }, write: { key: { generate: max } } }
  professional: { table: medico, key: id, fields: { name: nome } }
availability:
  weekly:
    table: escala
    joins: { g: { table: medico, on: { medico_id: id } } }
    professional: medico_id
    weekday: dow
    start: das
    end: ate
    interval: g.grade
`
for (const dialect of testDialects()) {
  for (const end of ['{ duration: doc.grade }', '{ duration: { column: doc.grade, unit: minutes } }', '{ duration: { value: 20 } }']) {
    t.test(`${dialect}: end ${end}`, async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, m(end))
      t.match((await s.call('GET', '/appointments/9')).body, { hour: '08:00', endHour: '08:20' }, 'read: 08:00 plus 20 minutes')
      const av = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=2`)
      t.same(av.body.map((x: { hour: string, endHour: string }) => `${x.hour}-${x.endHour}`), ['08:20-08:40', '08:40-09:00', '09:00-09:20', '09:20-09:40', '09:40-10:00'], '08:00–08:20 held')
      const b = await s.call('POST', '/appointments', { date: DAY, hour: '08:20', client: '1', professional: '2' })
      t.equal(b.status, 200, JSON.stringify(b.body))
      t.same((await s.rows('SELECT medico_id, hora FROM consulta WHERE id <> 9')).map((r) => [Number(r.medico_id), r.hora]), [[2, '08:20']], 'stored')
      t.match((await s.call('GET', `/appointments/${String(b.body.id)}`)).body, { hour: '08:20', endHour: '08:40' })
    })
  }
}
