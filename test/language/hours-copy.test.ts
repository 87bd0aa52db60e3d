// `{ hours: column }`: an appointment column copied from the working-hours row covering the
// booked start, on two schemas generated here (test/helpers/hours-copy.ts: a Delphi agenda's
// HORARIO rooms, an Open Dental-like schedule's operatory through a join) and on every test
// database. A booking stores the covering row's value, a reschedule the new start's, a state
// change keeps it, and a booking nothing covers (no professional) stores `otherwise`; each
// read from the table. `check` passes with its write probe comparing the column, warns of overlapping rows,
// and fails a column HORARIO lacks at its line; mapping mistakes are refused at load.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { DAY, DELPHI, DELPHI_SCHEMA, DENTAL, DENTAL_SCHEMA } from '../helpers/hours-copy.js'

const stored = async (s: ServerScratch, sql: string): Promise<unknown> => {
  const v = Object.values((await s.rows(sql))[0] ?? {})[0]
  return v === null || v === undefined ? null : String(v)
}

const problems = (report: { findings: Array<{ severity: string, path: string, message: string }> }): string[] =>
  report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('Delphi: the room of the HORARIO row covering the start, on booking and on every move', async (t) => {
      const s = await scratchOn(t, dialect, DELPHI_SCHEMA, DELPHI)
      const sala = async (id: string): Promise<unknown> => await stored(s, `SELECT sala FROM agenda WHERE cod = ${Number(id)}`)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const id = booked.body.id as string
      t.equal(await sala(id), '2', 'a morning booking stores the morning room (a number, stored as its digits)')

      const moved = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '14:00' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.same((await s.rows(`SELECT hora, sala FROM agenda WHERE cod = ${Number(id)}`)).map((r) => [String(r.hora), String(r.sala)]), [['14:00', '5']], 'moved to the afternoon: the afternoon room')

      const confirmed = await s.call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' })
      t.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
      t.equal(await sala(id), '5', 'a state change keeps the room')

      const back = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '10:00' })
      t.equal(back.status, 200, JSON.stringify(back.body))
      t.equal(await sala(id), '2', 'moved back to the morning: the morning room again')

      const nobody = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '2' })
      t.equal(nobody.status, 200, JSON.stringify(nobody.body))
      t.equal(await sala(nobody.body.id), null, 'no professional, no hours covering: `otherwise`, by default NULL')

      // Found by an outside review: a move nobody's hours cover wrote `otherwise` over the room stored.
      await s.rows(`UPDATE agenda SET sala = '9' WHERE cod = ${Number(nobody.body.id)}`)
      const unattended = await s.call('PATCH', `/appointments/${nobody.body.id as string}/time`, { date: DAY, hour: '15:00' })
      t.equal(unattended.status, 200, JSON.stringify(unattended.body))
      t.same((await s.rows(`SELECT hora, sala FROM agenda WHERE cod = ${Number(nobody.body.id)}`)).map((r) => [String(r.hora), String(r.sala)]), [['15:00', '9']], 'moved with no professional: the room the clinic stored is kept')

      const outside = await s.call('POST', '/appointments', { date: DAY, hour: '12:30', client: '2', professional: '1' })
      t.equal(outside.status, 409, 'outside the hours a booking is refused, as always')
      t.equal(await stored(s, 'SELECT COUNT(*) AS n FROM agenda'), '2', 'and nothing was written')
    })

    t.test('Open Dental: the operatory of the schedule row, through its join', async (t) => {
      const s = await scratchOn(t, dialect, DENTAL_SCHEMA, DENTAL)
      const op = async (id: string): Promise<unknown> => await stored(s, `SELECT op FROM appointment WHERE aptnum = ${Number(id)}`)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(await op(booked.body.id), '11', 'the morning schedule\'s operatory')

      const moved = await s.call('PATCH', `/appointments/${booked.body.id as string}/time`, { date: DAY, hour: '14:00' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.equal(await op(booked.body.id), '12', 'the afternoon schedule\'s first operatory (12 before 14), not the blockout\'s 99')

      const nobody = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '2' })
      t.equal(nobody.status, 200, JSON.stringify(nobody.body))
      t.equal(await op(nobody.body.id), '0', 'nothing covers: `otherwise: 0`, into a NOT NULL column')
    })

    // Found by an outside review: the covering read took a recurring row's first date only, so a
    // booking on a later date of the series copied `otherwise`.
    t.test('a schedule row recurring weekly gives its operatory on every date it recurs on', async (t) => {
      const weekly = DENTAL.replace('    end: { column: stoptime, format: text }\n', '    end: { column: stoptime, format: text }\n    repeat: { kind: { value: every }, unit: { value: week } }\n')
      t.not(weekly, DENTAL, 'the mapping changed')
      const s = await scratchOn(t, dialect, DENTAL_SCHEMA, weekly)
      const later = new Date(Date.parse(`${DAY}T00:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10)
      const booked = await s.call('POST', '/appointments', { date: later, hour: '09:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(await stored(s, `SELECT op FROM appointment WHERE aptnum = ${Number(booked.body.id)}`), '11', 'two weeks on: the morning schedule\'s operatory, not `otherwise`')
    })

    t.test('check: the write probe compares the copy; overlapping rows are a warning; a missing column a problem at its line', async (t) => {
      const s = await scratchOn(t, dialect, DELPHI_SCHEMA, DELPHI)
      const clean = await checkOf(t, s.url, DELPHI)
      t.same(problems(clean), [], 'the mapping as written passes check')
      const ok = clean.findings.filter((f) => f.severity === 'ok').map((f) => f.message)
      t.ok(ok.some((m) => /^POST \/appointments with every ref: .*as stored/.test(m)), ok.join('\n'))
      t.ok(ok.some((m) => /^PATCH …\/time: moved, read back .* as stored/.test(m)), ok.join('\n'))
      t.notOk(clean.findings.some((f) => f.path.endsWith('/hours')), 'no overlap: nothing said at the copy')

      const dental = await scratchOn(t, dialect, DENTAL_SCHEMA, DENTAL)
      t.same(problems(await checkOf(t, dental.url, DENTAL)), [], 'the Open Dental mapping passes check')

      // A window overlapping both: the earlier-starting row's room holds its start; the overlap's own hour is its.
      await s.rows("INSERT INTO horario (id, cod_prof, dia, hr_ini, hr_fim, sala) VALUES (3, 1, 2, '11:30', '13:30', 7)")
      const overlap = await checkOf(t, s.url, DELPHI)
      const said = overlap.findings.filter((f) => f.path === '/resources/appointment/write/set/sala/hours')
      t.same(said.map((f) => f.severity), ['warning'], JSON.stringify(said))
      t.match(said[0]?.message, /^2 pairs of working-hours rows of one professional overlap while their `sala` differs \(professional 1 on Tuesdays/)
      const early = await s.call('POST', '/appointments', { date: DAY, hour: '11:30', client: '1', professional: '1' })
      t.equal(early.status, 200, JSON.stringify(early.body))
      t.equal(await stored(s, `SELECT sala FROM agenda WHERE cod = ${Number(early.body.id)}`), '2', 'in the overlap: the row starting first (08:00, room 2)')
      const lunch = await s.call('POST', '/appointments', { date: DAY, hour: '12:30', client: '2', professional: '1' })
      t.equal(lunch.status, 200, JSON.stringify(lunch.body))
      t.equal(await stored(s, `SELECT sala FROM agenda WHERE cod = ${Number(lunch.body.id)}`), '7', 'covered by the new row alone: its room')

      const missing = DELPHI.replace('sala: { hours: sala }', 'sala: { hours: sala_nova }')
      const report = await checkOf(t, s.url, missing)
      const line = missing.split('\n').findIndex((l) => l.includes('hours: sala_nova')) + 1
      const at = report.findings.filter((f) => f.severity === 'problem' && f.path === '/resources/appointment/write/set/sala/hours')
      t.equal(at.length, 1, problems(report).join('\n'))
      t.equal(at[0]?.line, line, 'at the copy\'s line')
      t.match(at[0]?.message, /sala_nova/)
      t.notOk(report.ok, 'check fails')
    })

    // Found by an outside review: check passed a copy whose values the appointment's column cannot take, and the booking failed.
    t.test('check: a copy the appointment\'s column cannot store is a problem at its line, and one it can store is written', async (t) => {
      const schema = DELPHI_SCHEMA.replace('sala VARCHAR(3));', 'sala INTEGER);').replace('hr_fim VARCHAR(5), sala INTEGER', 'hr_fim VARCHAR(5), sala VARCHAR(4)')
      t.not(schema, DELPHI_SCHEMA, 'rooms as text in HORARIO, as numbers in AGENDA')
      const s = await scratchOn(t, dialect, schema, DELPHI)
      t.same(problems(await checkOf(t, s.url, DELPHI)), [], 'rooms written as digits fit a number column')
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(await stored(s, `SELECT sala FROM agenda WHERE cod = ${Number(booked.body.id)}`), '2', 'the text \'2\' stored as the number 2, bound without `type`')

      const empty = DELPHI.replace('sala: { hours: sala }', "sala: { hours: sala, otherwise: '' }")
      const said = await checkOf(t, s.url, empty)
      const at = said.findings.filter((f) => f.severity === 'problem' && f.path === '/resources/appointment/write/set/sala/otherwise')
      t.equal(at.length, 1, problems(said).join('\n'))
      t.equal(at[0]?.line, empty.split('\n').findIndex((l) => l.includes("otherwise: ''")) + 1, 'at the line of `otherwise`')
      t.match(at[0]?.message, /^`otherwise: ""` is written where no working-hours row covers the start .* `agenda\.sala` \(.*\) holds numbers/)

      await s.rows("UPDATE horario SET sala = 'S5' WHERE id = 2")
      const lettered = await checkOf(t, s.url, DELPHI)
      const there = lettered.findings.filter((f) => f.severity === 'problem' && f.path === '/resources/appointment/write/set/sala/hours')
      t.equal(there.length, 1, problems(lettered).join('\n'))
      t.equal(there[0]?.line, DELPHI.split('\n').findIndex((l) => l.includes('hours: sala')) + 1, 'at the copy\'s line')
      t.match(there[0]?.message, /^1 value of `sala` in the working-hours rows cannot be written into `agenda\.sala` .*\("S5": is not a number/)
      t.notOk(lettered.ok, 'check fails')
      const afternoon = await s.call('POST', '/appointments', { date: DAY, hour: '14:00', client: '2', professional: '1' })
      t.not(afternoon.status, 200, 'as the booking it foretells fails')
      t.equal(await stored(s, 'SELECT COUNT(*) AS n FROM agenda'), '1', 'and nothing was written')
    })
  })
}

t.test('mapping mistakes are refused at load, at their line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  t.equal(refused(DELPHI), 'accepted')
  t.equal(refused(DENTAL), 'accepted')
  const line = (yaml: string, text: string): number => yaml.split('\n').findIndex((l) => l.includes(text)) + 1

  const noHours = DELPHI.replace(/availability:\n(.*\n)*/, '')
  t.match(refused(noHours), new RegExp(`m.yaml:${line(noHours, 'hours: sala')}.*write/set/sala/hours.*no working hours are mapped`))

  const onMove = DELPHI.replace('      set:\n        sala: { hours: sala }\n', '      reschedule:\n        sala: { hours: sala }\n')
  t.match(refused(onMove), new RegExp(`m.yaml:${line(onMove, 'hours: sala')}.*write/reschedule/sala/hours.*goes under the appointment's write.set`))

  const inState = DELPHI.replace('      set:\n        sala: { hours: sala }\n', '      states:\n        CONFIRMED: { situacao: { value: C }, sala: { hours: sala } }\n')
  t.match(refused(inState), /write\/states\/CONFIRMED\/sala\/hours.*goes under the appointment's write.set/)

  const noJoin = DENTAL.replace('op: { hours: op.operatorynum', 'op: { hours: sop.operatorynum')
  t.match(refused(noJoin), new RegExp(`m.yaml:${line(noJoin, 'hours: sop.operatorynum')}.*write/set/op/hours.*no join called \`sop\` in /availability/dated/joins`))

  const overRef = DELPHI.replace('sala: { hours: sala }', 'cod_prof: { hours: sala }')
  t.match(refused(overRef), /write\/set\/cod_prof: column `cod_prof` holds the professional's id: a copy of the working hours writes their row's value there/)

  const both = DELPHI.replace('availability:\n', 'availability:\n  dated:\n    table: horario_extra\n    professional: cod_prof\n    date: { column: data, format: date }\n    start: { column: hr_ini, format: text }\n    end: { column: hr_fim, format: text }\n')
  t.equal(refused(both), 'accepted', 'a plain column is read from each source (check says where one is missing)')
  t.match(refused(both.replace('sala: { hours: sala }', 'sala: { hours: x.sala }').replace('  weekly:\n', '  weekly:\n    joins: { x: { table: sala_prof, on: { cod_prof: cod_prof } } }\n')), /write\/set\/sala\/hours.*no join called `x` in \/availability\/dated\/joins/, 'a joined column needs its join on each source')
})
