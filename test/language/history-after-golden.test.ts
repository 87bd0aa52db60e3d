// Golden T-SQL of `write.history.after` (test/helpers/history-after.ts), which no test database
// here can run: the log row added by one INSERT … SELECT from the booking row by its key, the
// action code, user and stamp as parameters, parsed by the T-SQL grammar for 2012+ and 2008 R2
// and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/history-after-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { MAPPING } from '../helpers/history-after.js'

t.setTimeout(180_000)

const named = (statements: { name: string, sql: string }[], name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`

pinTsql(t, buildModel(parseMapping(MAPPING, 'history-after.yaml')), {
  by: 'test/language/history-after-golden.test.ts',
  more: (t, statements) => {
    t.match(named(statements, 'appointment.history.after'), /^INSERT INTO \[booking_hist\] \(\[booking_no\], \[chart_no\], .*\[hist_action\], \[hist_user\], \[hist_stamp\]\) SELECT @p1 AS \[c0\], \[t\]\.\[chart_no\] AS \[c1\], .* FROM \[booking\] \[t\] WHERE \[t\]\.\[booking_no\] = @p\d+$/, 'one INSERT … SELECT from the booking row by its key')
    t.notMatch(named(statements, 'appointment.history.after'), /'/, 'as parameters, never literals')
  }
})
