// Golden T-SQL of the Montreal practice (test/helpers/montreal-physio.ts), which no test
// database here can run: its health insurances read as the distinct non-blank plans on the
// open patient files, or the insurer attribute rows of a kind not retired, compared in a
// binary collation; each appointment's through its patient; the client's own read on booking.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/client-side-insurance-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { montrealMapping } from '../helpers/montreal-physio.js'

t.setTimeout(180_000)

const by = 'test/language/client-side-insurance-golden.test.ts'

pinTsql(t, buildModel(parseMapping(montrealMapping('column'), 'montreal.yaml')), {
  by,
  prefix: 'client-column-',
  more: (t, statements) => {
    const sql = (name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`
    t.match(sql('healthInsurance.all'), /^SELECT DISTINCT \[t\]\.\[prov_plan\] COLLATE Latin1_General_BIN2 AS \[c0\] FROM \[client_file\] \[t\] WHERE .*\[t\]\.\[closed\].* AND \(\[t\]\.\[prov_plan\] IS NOT NULL AND .*\) ORDER BY \[t\]\.\[prov_plan\] COLLATE Latin1_General_BIN2$/,
      'the distinct values, case counting, of the open files, blanks and NULL left out')
    t.match(sql('appointment.write.healthInsurance.fromClient'), /\[prov_plan\].*FROM \[client_file\] \[t\]/, 'the client\'s own read by the client\'s key')
    t.notOk(statements.some((s) => /^relation\..*healthInsurance/.test(s.name)), 'related to no lookup')
  }
})

pinTsql(t, buildModel(parseMapping(montrealMapping('rows'), 'montreal.yaml')), {
  by,
  prefix: 'attribute-rows-',
  more: (t, statements) => {
    const sql = (name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`
    t.match(sql('healthInsurance.all'), /^SELECT DISTINCT \[t\]\.\[trait_value\] COLLATE Latin1_General_BIN2 AS \[c0\] FROM \[file_trait\] \[t\] WHERE .*\[t\]\.\[trait_kind\].*\[t\]\.\[retired\].*\[t\]\.\[trait_value\] IS NOT NULL/,
      'the distinct values of the insurer rows not retired')
  }
})
