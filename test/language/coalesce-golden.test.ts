// Golden T-SQL of composed values (test/helpers/compose-installation.ts): a coalesce of a
// template and rules with a nested coalesce (the client name search), a coalesce of rules and
// a column typed int (the appointment professional filter). Every statement is parsed by the
// real T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/coalesce-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { COMPOSE_MAPPING } from '../helpers/compose-installation.js'

t.setTimeout(180_000)

const model = buildModel(parseMapping(COMPOSE_MAPPING, 'consultorio-aurora.yaml'))
pinTsql(t, model, {
  by: 'test/language/coalesce-golden.test.ts',
  more: (t, statements) => {
    const search = statements.find((s) => s.name === 'client.search[name]')
    t.match(search?.sql, /COALESCE\(NULLIF\(LTRIM\(RTRIM\(CAST\(CASE WHEN COALESCE\(/, 'the composed name is filtered in SQL: a template blank when its parts are, then rules')
  }
})
