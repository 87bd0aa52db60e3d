// Golden T-SQL of `{ service: { column } }` (test/helpers/booked-columns.ts), which no test
// database here can run: the booked kind read by its id with the columns copied (one statement,
// also the one its length is read by), the dentist's with its tint, and the booking's INSERT
// writing them as parameters, parsed by the T-SQL grammar for 2012+ and 2008 R2 and pinned in
// test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/booked-columns-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { MAPPING } from '../helpers/booked-columns.js'

t.setTimeout(180_000)

const named = (statements: { name: string, sql: string }[], name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`

pinTsql(t, buildModel(parseMapping(MAPPING, 'booked-columns.yaml')), {
  by: 'test/language/booked-columns-golden.test.ts',
  more: (t, statements) => {
    t.match(named(statements, 'service.byIdCopied'), /^SELECT .*\[t\]\.\[slots\].*\[t\]\.\[chair\].* FROM \[visit_kind\] \[t\] WHERE \[t\]\.\[kind_no\] = @p\d+$/, 'the kind by its id, with the columns copied')
    t.match(named(statements, 'professional.byIdCopied'), /^SELECT .*\[t\]\.\[tint\].* FROM \[dentist\] \[t\] WHERE \[t\]\.\[dentist_no\] = @p\d+$/, 'the dentist with its tint')
    t.match(named(statements, 'appointment.insert'), /\[slots\].*\[chair\].*\[tint\]/, 'the booking writes the copies')
    t.notMatch(named(statements, 'appointment.insert'), /'/, 'as parameters, never literals')
  }
})
