// Golden T-SQL of exact and prefix codes and nested conditions (test/helpers/oscar-codes.ts),
// which no test database here can run: the status compared under a binary collation, its
// first characters by SUBSTRING, groups of groups and a NULL-safe `not`. Every statement is
// parsed by the T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/exact-codes-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { codesMapping } from '../helpers/oscar-codes.js'

t.setTimeout(180_000)

const model = buildModel(parseMapping(codesMapping('status'), 'oscar-like.yaml'))
pinTsql(t, model, {
  by: 'test/language/exact-codes-golden.test.ts',
  more: (t, statements) => {
    const list = statements.find((s) => s.name === 'appointment.list[state]')
    t.match(list?.sql, /CASE WHEN SUBSTRING\(RTRIM\(\[t\]\.\[status\]\), 1, @p\d+\) COLLATE Latin1_General_BIN2 = @p\d+ THEN/, 'the state filter compares the first characters under a binary collation')
    t.match(list?.sql, /CASE WHEN .* THEN 0 ELSE 1 END = 1/, 'a `not` that holds for NULL')
  }
})
