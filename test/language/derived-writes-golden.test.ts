// Golden T-SQL of the derived write columns (test/helpers/derived-writes.ts), which no test
// database here can run: the read of the booked client's name parts, the booking's INSERT
// with the copies and stamps as parameters, and the stamps `write.update` adds to a state
// move, a reschedule and a client's PATCH, parsed by the T-SQL grammar for 2012+ and 2008 R2
// and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/derived-writes-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { DERIVED_MAPPING } from '../helpers/derived-writes.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(DERIVED_MAPPING, 'derived-writes.yaml')), {
  by: 'test/language/derived-writes-golden.test.ts',
  more: (t, statements) => {
    const sql = (name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`
    t.match(sql('appointment.write.clientName'), /^SELECT .*\[t\]\.\[forenames\].*\[t\]\.\[surname\].* FROM \[patient_rec\] \[t\] WHERE \[t\]\.\[pat_no\] = @p\d+$/, 'the client\'s name parts by key')
    t.match(sql('appointment.insert'), /\[name\].*\[title\].*\[doc_label\].*\[createdate\].*\[last_update_date\]/, 'the booking inserts the copies and stamps')
    t.notMatch(sql('appointment.insert'), /'/, 'as parameters, never literals')
    t.match(sql('appointment.state[CONFIRMED]'), /SET \[status\] = @p\d+, \[last_update_date\] = @p\d+, \[sync_utc\] = @p\d+/, 'a state move stamps')
    t.match(sql('appointment.reschedule'), /\[last_update_date\] = @p\d+, \[sync_utc\] = @p\d+/, 'a reschedule stamps')
    t.match(sql('client.update[name]'), /SET \[forenames\] = @p\d+, \[surname\] = @p\d+, \[changed_at\] = @p\d+, \[changed_utc\] = @p\d+/, 'a PATCH stamps the client')
  }
})
