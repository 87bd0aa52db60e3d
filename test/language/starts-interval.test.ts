// `availability.starts.every: interval`: each doctor's own grid, kept on the hours rows (a
// Delphi-era desk's INTERVALO: 15 minutes for one doctor, 20 for another). A 20-minute service
// is offered on each doctor's grid, not stepped by its length; booking and rescheduling take
// exactly those starts (409 off the grid, nothing written). On SQLite, MariaDB and PostgreSQL.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

const DAY = '2031-03-04' // a Tuesday

const SCHEMA = `
CREATE TABLE medico (id INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE paciente (id INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE exame (id INTEGER PRIMARY KEY, titulo VARCHAR(40) NOT NULL, minutos INTEGER NOT NULL);
CREATE TABLE escala (id INTEGER PRIMARY KEY, medico_id INTEGER NOT NULL, dow INTEGER NOT NULL, das VARCHAR(5) NOT NULL, ate VARCHAR(5) NOT NULL, passo INTEGER);
CREATE TABLE consulta (id INTEGER PRIMARY KEY, paciente_id INTEGER NOT NULL, medico_id INTEGER NOT NULL, exame_id INTEGER, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, fim VARCHAR(5) NOT NULL, situacao CHAR(1) NOT NULL);
INSERT INTO medico (id, nome) VALUES (1, 'Dra. Quinze'), (2, 'Dr. Vinte');
INSERT INTO paciente (id, nome) VALUES (1, 'Ana'), (2, 'Bruno');
INSERT INTO exame (id, titulo, minutos) VALUES (3, 'Retorno', 20);
INSERT INTO escala (id, medico_id, dow, das, ate, passo) VALUES (1, 1, 2, '08:00', '10:00', 15), (2, 2, 2, '08:00', '10:00', 20);
`

// The grid kept on the doctor's row instead (MEDICOS.INTERVALO), the hours rows saying none.
const ON_DOCTOR = SCHEMA
  .replace('nome VARCHAR(40) NOT NULL);', 'nome VARCHAR(40) NOT NULL, grade INTEGER);')
  .replace("(1, 'Dra. Quinze'), (2, 'Dr. Vinte')", "(1, 'Dra. Quinze', 15), (2, 'Dr. Vinte', 20)").replace('INSERT INTO medico (id, nome)', 'INSERT INTO medico (id, nome, grade)')
  .replace(', passo INTEGER);', ');').replace(', ate, passo)', ', ate)').replace(", '10:00', 15)", ", '10:00')").replace(", '10:00', 20)", ", '10:00')")

const mapping = (starts: string, interval = '    interval: passo'): string => `
version: 1
installation: starts-interval
timezone: America/Sao_Paulo
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: consulta
    key: id
    start: { date: { column: dia, format: date }, hour: hora }
    end: { hour: fim }
    state: { column: situacao, type: text, map: { A: WAITING, D: CANCELED } }
    refs: { client: paciente_id, professional: medico_id, service: exame_id }
    write: { key: { generate: max }, states: { WAITING: { situacao: { value: A } }, CANCELED: { situacao: { value: D } } } }
  client: { table: paciente, key: id, fields: { name: nome }, write: { key: { generate: max } } }
  professional: { table: medico, key: id, fields: { name: nome } }
  service: { table: exame, key: id, fields: { name: titulo, duration: minutos } }
availability:
${starts}
  weekly:
    table: escala
    professional: medico_id
    weekday: dow
    start: das
    end: ate
${interval}
`

const GRID = mapping('  starts: { every: interval }')
const offered = (body: Array<{ hour: string, professional: { id: string } }>, doctor: string): string[] => body.filter((s) => s.professional.id === doctor).map((s) => s.hour)
const QUINZE = ['08:00', '08:15', '08:30', '08:45', '09:00', '09:15', '09:30']
const VINTE = ['08:00', '08:20', '08:40', '09:00', '09:20', '09:40']

t.test('every: interval without an interval on the hours rows is refused at load', async (t) => {
  t.throws(() => compileMapping(buildModel(parseMapping(mapping('  starts: { every: interval }', ''), 'escala.yaml')), sqlite), { message: /starts\/every.*give `interval`/ })
})

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a 20-minute service on each doctor\'s own grid', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, GRID)
      const free = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&service=3`)
      t.equal(free.status, 200, JSON.stringify(free.body))
      t.same(offered(free.body, '1'), QUINZE, 'the 15-minute doctor every 15 minutes')
      t.same(offered(free.body, '2'), VINTE, 'the 20-minute doctor every 20 minutes')
      t.ok(free.body.every((x: { endHour: string, hour: string }) => x.endHour !== x.hour), 'each slot the service\'s length')

      const off = await s.call('POST', '/appointments', { date: DAY, hour: '08:15', client: '1', professional: '2', service: '3' })
      t.equal(off.status, 409, 'off the 20-minute doctor\'s grid')
      t.same(await s.rows('SELECT COUNT(*) AS n FROM consulta'), [{ n: 0 }], 'nothing written')

      const on = await s.call('POST', '/appointments', { date: DAY, hour: '08:15', client: '1', professional: '1', service: '3' })
      t.equal(on.status, 200, JSON.stringify(on.body))
      const two = await s.call('POST', '/appointments', { date: DAY, hour: '08:20', client: '2', professional: '2', service: '3' })
      t.equal(two.status, 200, JSON.stringify(two.body))
      t.same((await s.rows('SELECT medico_id, hora, fim FROM consulta ORDER BY id')).map((r) => [Number(r.medico_id), r.hora, r.fim]),
        [[1, '08:15', '08:35'], [2, '08:20', '08:40']], 'stored as offered')

      const after = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&service=3`)
      t.same(offered(after.body, '1'), QUINZE.slice(3), '08:15–08:35 takes 08:00, 08:15 and 08:30')
      t.same(offered(after.body, '2'), VINTE.filter((h) => h !== '08:20'))

      const id = String(on.body.id)
      const offMove = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '09:10' })
      t.equal(offMove.status, 409, 'a reschedule off the grid')
      t.same((await s.rows('SELECT hora, fim FROM consulta WHERE medico_id = 1')).map((r) => [r.hora, r.fim]), [['08:15', '08:35']], 'unchanged')
      const moved = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '09:45' })
      t.equal(moved.status, 409, 'a grid start the service does not fit in before 10:00')
      const onMove = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '09:30' })
      t.equal(onMove.status, 200, JSON.stringify(onMove.body))
      t.same((await s.rows('SELECT hora, fim FROM consulta WHERE medico_id = 1')).map((r) => [r.hora, r.fim]), [['09:30', '09:50']], 'moved on the grid')
    })

    t.test('the grid on the doctor\'s row, joined to the hours rows', async (t) => {
      const joined = mapping('  starts: { every: interval }', '    joins: { m: { table: medico, on: { medico_id: id } } }\n    interval: m.grade')
      const s = await scratchOn(t, dialect, ON_DOCTOR, joined)
      const free = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&service=3`)
      t.equal(free.status, 200, JSON.stringify(free.body))
      t.same(offered(free.body, '1'), QUINZE)
      t.same(offered(free.body, '2'), VINTE)
      t.equal((await s.call('POST', '/appointments', { date: DAY, hour: '08:45', client: '1', professional: '2', service: '3' })).status, 409, 'off the grid')
      const on = await s.call('POST', '/appointments', { date: DAY, hour: '08:45', client: '1', professional: '1', service: '3' })
      t.equal(on.status, 200, JSON.stringify(on.body))
      t.same((await s.rows('SELECT medico_id, hora, fim FROM consulta')).map((r) => [Number(r.medico_id), r.hora, r.fim]), [[1, '08:45', '09:05']])
      const report = await checkOf(t, s.url, joined, DAY)
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], report.lines.join('\n'))
    })

    t.test('without the grid a 20-minute service steps by 20 for both', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping(''))
      const free = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&service=3`)
      t.same(offered(free.body, '1'), VINTE)
      t.equal((await s.call('POST', '/appointments', { date: DAY, hour: '08:15', client: '1', professional: '1', service: '3' })).status, 409)
    })

    t.test('check passes', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, GRID)
      const report = await checkOf(t, s.url, GRID, DAY)
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], report.lines.join('\n'))
    })
  })
}
