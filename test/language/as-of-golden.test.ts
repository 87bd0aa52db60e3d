// Golden T-SQL of a join's `first.asOf` (test/helpers/as-of.ts), which no test database here
// can run: the member's main coverage in force on the session's day, picked by a correlated
// TOP 1 bounded by the appointment's own column, undated rows after dated ones; parsed by the
// T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/as-of-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { asOfMapping } from '../helpers/as-of.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(asOfMapping(), 'as-of.yaml')), {
  by: 'test/language/as-of-golden.test.ts',
  more: (t, statements) => {
    const read = statements.find((s) => s.name === 'appointment.byId[]')?.sql ?? '(no appointment.byId[])'
    t.match(read, /LEFT JOIN \[coverage\] \[t_cov\] ON .*\[t_cov\]\.\[cov_id\] = \(SELECT TOP 1 .*\(\[t_cov_1\]\.\[starts_on\] IS NULL OR \[t_cov_1\]\.\[starts_on\] <= \[t\]\.\[sess_day\]\) ORDER BY CASE WHEN \[t_cov_1\]\.\[starts_on\] IS NULL THEN 1 ELSE 0 END, \[t_cov_1\]\.\[starts_on\] DESC/, 'the coverage in force on the day, undated last')
  }
})
