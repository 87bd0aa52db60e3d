// Golden T-SQL of `write.log` (test/helpers/audit-log.ts), which no test database here can
// run: each log row added by one INSERT … SELECT from the visit row by its key, the codes,
// clerk and stamp as parameters, the ledger's own key bound (made first by `max`), parsed by
// the T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/log-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { MAPPING } from '../helpers/audit-log.js'

t.setTimeout(180_000)

const named = (statements: { name: string, sql: string }[], name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`

pinTsql(t, buildModel(parseMapping(MAPPING, 'audit-log.yaml')), {
  by: 'test/language/log-golden.test.ts',
  more: (t, statements) => {
    t.match(named(statements, 'appointment.log[0]'), /^INSERT INTO \[audit_trail\] \(\[action_code\], \[visit_ref\], \[owner_ref\], \[logged_at\], \[clerk\], \[note\], \[status_now\]\) SELECT @p1 AS \[c0\], \[t\]\.\[visit_id\] AS \[c1\], \[t\]\.\[owner_id\] AS \[c2\], .* FROM \[visit\] \[t\] WHERE \[t\]\.\[visit_id\] = @p\d+$/, 'one INSERT … SELECT from the visit row by its key')
    t.match(named(statements, 'appointment.log[1]'), /^INSERT INTO \[ledger\] \(\[entry_no\], \[visit_ref\], \[kind\]\) SELECT @p1 AS \[c0\], \[t\]\.\[visit_id\] AS \[c1\], @p2 AS \[c2\] FROM \[visit\] \[t\] WHERE/, 'the ledger\'s own key bound first')
    t.notMatch(named(statements, 'appointment.log[0]'), /'/, 'as parameters, never literals')
  }
})
