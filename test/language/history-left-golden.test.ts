// `write.history.left` where no server runs it: SQL Server's T-SQL of the OpenMRS-like status
// history and the OSCAR-like archive (one INSERT … SELECT from the appointment row by key)
// pinned in test/golden/ and parsed by the T-SQL grammar; and each `left` value refused at
// its line where it cannot mean anything.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/history-left-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { MAPPED, OSCAR, RULED } from '../helpers/history-left-installation.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(RULED, 'left.yaml')), {
  by: 'test/language/history-left-golden.test.ts',
  more: (t, statements) => {
    const left = statements.find((s) => s.name === 'appointment.history.left')?.sql
    t.equal(left, 'INSERT INTO [appt_status_history] ([appointment_id], [status], [start_date], [end_date]) SELECT @p1 AS [c0], @p2 AS [c1], COALESCE([t].[date_changed], [t].[date_created]) AS [c2], @p3 AS [c3] FROM [appt] [t] WHERE [t].[appointment_id] = @p4',
      'the state left and now are bound; when it began is read from the row as it stands')
    t.notOk(statements.some((s) => s.name === 'appointment.history.open'), 'no row is written for the state entered')
  }
})

pinTsql(t, buildModel(parseMapping(OSCAR, 'archive.yaml')), {
  by: 'test/language/history-left-golden.test.ts',
  more: (t, statements) => {
    t.match(statements.find((s) => s.name === 'appointment.history.left')?.sql, /^INSERT INTO \[appointment_archive\] \(\[appointment_no\], \[provider_no\], .*\[lastupdateuser\]\) SELECT @p1 AS \[c0\], \[t\]\.\[provider_no\] AS \[c1\], .*\[t\]\.\[lastupdateuser\] AS \[c10\] FROM \[appointment\] \[t\] WHERE \[t\]\.\[appointment_no\] = @p2$/,
      'every column copied from the row by key, nothing bound but the key')
  }
})

t.test('a value only a change can say is refused where it cannot mean anything, at its line', async (t) => {
  const refused = (yaml: string): { line?: number, said: string } => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      if (err instanceof MappingError) return { line: err.issues[0].line, said: err.issues.map((i) => `${i.path}: ${i.message}`).join('\n') }
      throw err
    }
    return { said: 'accepted' }
  }
  const lineOf = (yaml: string, text: string): number => yaml.split('\n').findIndex((l) => l.includes(text)) + 1
  for (const yaml of [MAPPED, RULED, OSCAR]) t.equal(refused(yaml).said, 'accepted')

  const stamped = MAPPED.replace('update: { changed_by: { setting: userId }, date_changed: { now: datetime } }', 'update: { changed_by: { setting: userId }, date_changed: { before: date_changed } }')
  const outside = refused(stamped)
  t.match(outside.said, /write\/update\/date_changed\/before: `before` is the appointment row as a change found it: it is written only under write.history.left/)
  t.equal(outside.line, lineOf(stamped, 'update: { changed_by'))

  const opened = MAPPED.replace('        left:\n          status: { state: left }', '        open: { status: { state: left } }\n        left:\n          status: { state: left }')
  t.match(refused(opened).said, /write\/history\/open\/status\/state: `state: left` is the state a change leaves: it is written only under write.history.left \(a booking, or a state entered, leaves none\)/, 'a booking\'s first row leaves no state')

  const joined = MAPPED.replace('{ before: date_changed, otherwise: date_created }', '{ before: patient.date_changed }')
  t.match(refused(joined).said, /left\/start_date\/before: `patient.date_changed` is a joined column: `before` copies a column of the appointment's own table \(appt\)/)

  const noCodes = RULED.replace(/\{ state: left, codes: \{[^}]*\} \}/, '{ state: left }')
  const ruled = refused(noCodes)
  t.match(ruled.said, /left\/status\/state: the state is read by `rules`, which have no codes to write back: give the code of each state left/)
  t.equal(ruled.line, lineOf(noCodes, 'status: { state: left }'))

  t.match(refused(RULED.replace(', DONE: COMPLETED } }', ' } }')).said, /left\/status\/codes: no code for DONE: every state an appointment can enter writes one/, 'every state takes a code')
  t.match(refused(MAPPED.replace('{ state: left }', '{ state: true, codes: { WAITING: SCHEDULED } }')).said, /left\/status\/codes: `codes` names the code of each state left: it goes with `state: left`/)
  t.match(refused(MAPPED.replace('end_date: { now: datetime }', 'end_date: { slot: end }')).said, /left\/end_date\/slot: `slot` is made when a row is booked or inserted; a `left` row records what a change leaves/)

  const neither = MAPPED.replace(/ {8}left:\n( {10}.*\n)+/, '')
  t.match(refused(neither).said, /write\/history: give `open` \(a row for each state entered, on booking too\), `left` \(a row for what each change leaves behind\), `after` \(a row for the appointment as each change left it\) or several/)
  t.match(refused(OSCAR.replace(/ {8}left:\n( {10}.*\n)+/, '        open: { status: { state: true } }\n')).said, /write\/history\/on: `on` says which changes add a `left` row: give `left`/)
  t.match(refused(OSCAR.replace('on: [state, reschedule]', 'on: [state, booking]')).said, /history\/on\/1/, 'a change that is not one')

  // The state rules reading the history's latest row need the row of the state entered.
  const read = MAPPED.replace('    refs: {', '    joins:\n      latest: { table: appt_status_history, on: { appointment_id: appointment_id }, first: { key: appointment_status_history_id, by: [{ column: end_date, desc: true }, { column: appointment_status_history_id, desc: true }] } }\n    refs: {')
    .replace('    state: { column: status, map: { SCHEDULED: WAITING, WAITING: CHECKED_IN, CANCELLED: CANCELED, COMPLETED: DONE } }', `    state:
      rules:
        - { when: { column: latest.status, eq: CANCELLED }, value: CANCELED }
        - { value: WAITING }`).replace('{ state: left }', '{ before: status }')
  t.match(refused(read).said, /write\/history: the state rules read this history through `latest`, but no row is written for the state entered \(`open`\)/)
})
