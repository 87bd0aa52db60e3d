// Golden T-SQL of `{ hours: column }` (test/helpers/hours-copy.ts), which no test database
// here can run: each professional's working hours read with the column the appointment copies
// (HORARIO's room; the schedule's first operatory through its join), and the booking's INSERT
// and the reschedule's UPDATE writing it as a parameter, parsed by the T-SQL grammar for 2012+
// and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/hours-copy-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { DELPHI, DENTAL } from '../helpers/hours-copy.js'

t.setTimeout(180_000)

const named = (statements: { name: string, sql: string }[], name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`

pinTsql(t, buildModel(parseMapping(DELPHI, 'hours-copy-delphi.yaml')), {
  by: 'test/language/hours-copy-golden.test.ts',
  more: (t, statements) => {
    t.match(named(statements, 'availability.weekly[professional]'), /^SELECT .*\[t\]\.\[sala\].* FROM \[horario\] \[t\] WHERE .*\[cod_prof\] = @p\d+$/, 'one professional\'s rows, with the room')
    t.match(named(statements, 'appointment.insert'), /\[sala\]/, 'the booking writes the room')
    t.match(named(statements, 'appointment.reschedule'), /^UPDATE .*\[sala\] = @p\d+/, 'and so does every reschedule')
    t.notMatch(named(statements, 'appointment.reschedule.keepingHours'), /\[sala\]|no appointment/, 'a move no hours cover (no professional) leaves the room as stored')
    t.notMatch(named(statements, 'appointment.insert'), /'/, 'as a parameter, never a literal')
  }
})

pinTsql(t, buildModel(parseMapping(DENTAL, 'hours-copy-dental.yaml')), {
  by: 'test/language/hours-copy-golden.test.ts',
  more: (t, statements) => {
    t.match(named(statements, 'availability.dated[professional]'), /\[operatorynum\].* FROM \[schedule\] \[t\] LEFT JOIN \[scheduleop\] \[t_op\] ON .*TOP 1/, 'the schedule rows with their first operatory')
    t.match(named(statements, 'appointment.reschedule'), /\[op\] = @p\d+/, 'a reschedule writes the operatory again')
  }
})
