// Golden T-SQL of the OSCAR-like names and split birthday (test/helpers/oscar-names.ts), which
// no test database here can run: the client's insert and the UPDATE writing day, month and
// year columns, parsed by the T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/name-split-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { namesMapping } from '../helpers/oscar-names.js'

t.setTimeout(180_000)

const model = buildModel(parseMapping(namesMapping({ split: 'particles', upper: true, pad: 1 }), 'oscar-names.yaml'))
pinTsql(t, model, {
  by: 'test/language/name-split-golden.test.ts',
  more: (t, statements) => {
    const update = statements.find((s) => s.name === 'client.update[birthday,name]')
    t.match(update?.sql, /SET \[first_name\] = @p\d+, \[last_name\] = @p\d+, \[date_of_birth\] = @p\d+, \[month_of_birth\] = @p\d+, \[year_of_birth\] = @p\d+/, 'a PATCH of name and birthday writes both name columns and the three birthday ones')
  }
})
