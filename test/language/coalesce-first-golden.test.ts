// Golden T-SQL of a coalesce ref written to its first item (test/helpers/coalesce-first.ts),
// which no test database here can run: the booking's INSERT writes the visit's own plan
// (found through `firstOf`) and never the member's fallback; parsed by the T-SQL grammar for
// 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/coalesce-first-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { coalesceFirstMapping } from '../helpers/coalesce-first.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(coalesceFirstMapping(), 'coalesce-first.yaml')), {
  by: 'test/language/coalesce-first-golden.test.ts',
  more: (t, statements) => {
    const insert = statements.find((s) => s.name === 'appointment.insert')?.sql ?? '(no appointment.insert)'
    t.match(insert, /^INSERT INTO \[visit\] .*\[plan_no\]/, 'the booking writes the visit\'s own plan')
    t.notMatch(insert, /member_plan/, 'never the member\'s')
    t.match(statements.find((s) => s.name === 'appointment.write.own.lookup')?.sql ?? '', /SELECT MIN\(\[j\]\.\[plan_no\]\) .* FROM \[plan\] \[j\] WHERE \[j\]\.\[payer_id\] = @p\d+/, 'the plan of the insurer sent')
  }
})
