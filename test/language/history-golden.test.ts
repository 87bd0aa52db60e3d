// Issue 27 item 13's status-history form where no server runs it: SQL Server's T-SQL of the
// OpenMRS-like history mapping (the latest row joined by TOP 1 ordered by date and id, both
// descending; the history INSERT) pinned in test/golden/ and parsed by the T-SQL grammar; and
// a history the state rules would not read back as the state entered refused at its line.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/history-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { CODES, historyMapping } from '../helpers/history-installation.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(historyMapping(), 'history.yaml')), {
  by: 'test/language/history-golden.test.ts',
  more: (t, statements) => {
    t.match(statements.find((s) => s.name === 'appointment.byId[]')?.sql, /SELECT TOP 1 \[t_latest_1\]\.\[id\] AS \[k\] FROM \[appointment_status_history\] \[t_latest_1\] WHERE .* ORDER BY \[t_latest_1\]\.\[changed_at\] DESC, \[t_latest_1\]\.\[id\] DESC\)/,
      'the latest row: by date, then id, both descending, the id not ordered twice')
    t.match(statements.find((s) => s.name === 'appointment.history.open')?.sql, /^INSERT INTO \[appointment_status_history\] \(\[appointment_id\], \[status\], \[changed_at\]\)/, 'each change adds a row')
    t.notOk(statements.some((s) => s.name === 'appointment.history.close'), 'nothing is closed: the latest row decides')
  }
})

t.test('a history the state rules would not read back is refused at its line, saying why', async (t) => {
  const base = historyMapping()
  const lineOf = (text: string): number => base.split('\n').findIndex((l) => l.includes(text)) + 1
  const refused = (yaml: string): { line?: number, said: string } => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      if (err instanceof MappingError) return { line: err.issues[0].line, said: err.issues.map((i) => `${i.path}: ${i.message}`).join('\n') }
      throw err
    }
    return { said: 'accepted' }
  }
  t.equal(refused(base).said, 'accepted', 'the history mapping compiles')
  const open = lineOf('        open: {')

  const wrongCode = refused(base.replace('CONFIRMED: Confirmed', 'CONFIRMED: Scheduled'))
  t.match(wrongCode.said, /write\/history\/open\/status: entering CONFIRMED writes `Scheduled` in status, which the state rules read as WAITING \(\/resources\/appointment\/state\/rules\/4\)/)
  t.equal(wrongCode.line, open)

  // `state: true` writes the interface's name: read back where codes meet in any case (`Confirmed`), not where the code differs.
  t.equal(refused(base.replace(`{ state: ${CODES} }`, '{ state: true }')).said, 'accepted', '`CONFIRMED` reads as `Confirmed`')
  const names = refused(base.replace(`{ state: ${CODES} }`, '{ state: true }').replace('latest.status, eq: Confirmed', 'latest.status, eq: Approved'))
  t.match(names.said, /entering CONFIRMED writes `CONFIRMED` in status, which the state rules read as WAITING/, 'the interface\'s name is not the code the rules read')

  const missing = refused(base.replace(', DONE: Completed', ''))
  t.match(missing.said, /write\/history\/open\/status\/state: no code for DONE: every state an appointment can enter writes one/)
  t.equal(missing.line, open)

  const typo = refused(base.replace('CONFIRMED: Confirmed', 'CONFIRMD: Confirmed'))
  t.match(typo.said, /open\/status\/state\/CONFIRMD: `CONFIRMD` is not one of the states/)

  const olderFirst = refused(base.replace(', { column: id, desc: true }]', ']'))
  t.match(olderFirst.said, /joins\/latest\/first: `latest` reads the latest status-history row: end `by` with `\{ column: id, desc: true \}`/)
  t.equal(olderFirst.line, lineOf('        first: {'))

  const every = refused(base.replace(/ {8}first: .*\n/, ''))
  t.match(every.said, /joins\/latest: `latest` reads the status history the state rules read: give it `first`/)

  const elsewhere = refused(base.replace('        CANCELED: { status: { value: Cancelled } }', `        CANCELED: { status: { state: ${CODES} } }`))
  t.match(elsewhere.said, /write\/states\/CANCELED\/status\/state: a code per state is written where a state is entered: under write.history or write.stateRows/, 'not in the appointment\'s own columns')
  t.equal(elsewhere.line, lineOf('        CANCELED: { status: { value: Cancelled } }'))

  const half = refused(base.replace('        open: {', '        current: { column: changed_at, isNull: true }\n        open: {'))
  t.match(half.said, /write\/history\/current: give `current` \(which row is open\) and `close` \(what closes it\) together, or neither/)

  // With `current`, a join without `first` reads one row only where its `where` holds `current`.
  const closing = base.replace('        open: {', '        current: { column: ended_at, isNull: true }\n        close: { ended_at: { now: datetime } }\n        open: {')
  t.equal(refused(closing).said, 'accepted', 'current and close with a `first` join')
  const unpicked = refused(closing.replace(/ {8}first: .*\n/, ''))
  t.match(unpicked.said, /joins\/latest: `latest` reads the status history the state rules read: give it `first`.* or a `where` holding the history's `current`/, 'a join of every history row is refused even with `current`')
  t.equal(refused(closing.replace(/ {8}first: .*\n/, '        where: { column: ENDED_AT, isNull: true }\n')).said, 'accepted', 'a join whose `where` holds `current` reads the open row')
  const nothingClosed = refused(base.replace('        open: {', '        current: { column: ended_at, isNull: true }\n        close: {}\n        open: {'))
  t.match(nothingClosed.said, /history\/close/, 'a `close` setting nothing is refused')
})
