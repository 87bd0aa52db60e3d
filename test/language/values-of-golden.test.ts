// Golden T-SQL of the Portland practice (test/helpers/portland-practice.ts), which no test
// database here can run: its specialties read as the distinct non-blank texts of the staff's
// column, compared in a binary collation so case tells two apart, and the professional–specialty
// pairs from the same rows; the client's phone written to the wireless column in Open Dental's mask.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/values-of-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { portlandMapping } from '../helpers/portland-practice.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(portlandMapping({ phoneFormat: "'(###)###-####'", phoneColumn: 'wireless_phone' }), 'portland.yaml')), {
  by: 'test/language/values-of-golden.test.ts',
  more: (t, statements) => {
    const sql = (name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`
    t.match(sql('specialty.all'), /^SELECT DISTINCT \[t\]\.\[specialty\] COLLATE Latin1_General_BIN2 AS \[c0\] FROM \[staff\] \[t\] WHERE .*\[t\]\.\[is_provider\].* AND \(\[t\]\.\[specialty\] IS NOT NULL AND NOT \(LTRIM\(RTRIM\(.*\[t\]\.\[specialty\].*\)\) = ''\)\) ORDER BY \[t\]\.\[specialty\] COLLATE Latin1_General_BIN2$/,
      'the distinct values, case counting, of the professionals\' rows, blanks and NULL left out')
    t.match(sql('relation.professional~specialty'), /^SELECT DISTINCT \[t\]\.\[staff_id\] AS \[c0\], \[t\]\.\[specialty\] AS \[c1\] FROM \[staff\] \[t\] WHERE /, 'each professional with the value on its row')
    t.match(sql('client.insert'), /\[wireless_phone\]/, 'the phone goes to the wireless column')
  }
})
