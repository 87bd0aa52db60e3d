// Golden T-SQL of who may be booked (`resources.client.bookable`, test/helpers/client-bookable.ts),
// which no test database here can run: the client read by its key and kept to the condition
// (a NULL standing allowed). Every statement is parsed by the T-SQL grammar for 2012+ and
// 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/client-bookable-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { physioMapping } from '../helpers/client-bookable.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(physioMapping(), 'physio.yaml')), {
  by: 'test/language/client-bookable-golden.test.ts',
  more: (t, statements) => {
    const read = statements.find((s) => s.name === 'client.bookable')
    t.match(read?.sql, /\[t\]\.\[chart_no\] = @p\d+ AND \(\[t\]\.\[standing\] IS NULL OR .*NOT IN/, 'the client by key, kept to the condition')
  }
})
