// Golden T-SQL of phones kept as child rows keyed per patient (test/helpers/phone-rows.ts), which
// no test database here can run: the next seq read for the one patient under update locks,
// the phone row's INSERT with its kind as a parameter, and the `first` joins on the patient too.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/phone-line-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { phoneRowsMapping } from '../helpers/phone-rows.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(phoneRowsMapping(), 'phone-rows.yaml')), {
  by: 'test/language/phone-line-golden.test.ts',
  more: (t, statements) => {
    const sql = (name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`
    t.match(sql('0.key.max'), /^SELECT MAX\(\[t\]\.\[seq\]\) AS \[id\] FROM \[chart_phone\] \[t\] WITH \(UPDLOCK, HOLDLOCK\) WHERE \[t\]\.\[chart_no\] = @p\d+$/, 'the patient\'s largest seq, locked, the patient a parameter')
    t.match(sql('client.phones/0.insert'), /^INSERT INTO \[chart_phone\] \(\[seq\], \[chart_no\], \[num\], \[kind\]\) VALUES \(@p\d+, @p\d+, @p\d+, @p\d+\)$/, 'seq, patient, number and kind all parameters')
  }
})
