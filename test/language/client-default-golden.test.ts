// Golden T-SQL of a ref defaulting to the booked client's own (test/helpers/client-default.ts),
// which no test database here can run: the client's convênio read by the client's key, the
// plan reached through the client's first link row and its carrier through the appointment's
// join, and the client's own plan of a carrier sent (every link row, `first` aside). Every
// statement is parsed by the T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/client-default-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { agendaMapping, dentalMapping } from '../helpers/client-default.js'

t.setTimeout(180_000)

const by = 'test/language/client-default-golden.test.ts'
pinTsql(t, buildModel(parseMapping(agendaMapping(), 'agenda.yaml')), {
  by,
  more: (t, statements) => {
    const read = statements.find((s) => s.name === 'appointment.write.healthInsurance.fromClient')
    t.match(read?.sql, /SELECT TOP 1 \[t\]\.\[codconvenio\] AS \[v\]/, 'the client\'s own convênio, one row')
  }
})
pinTsql(t, buildModel(parseMapping(dentalMapping(), 'dental.yaml')), {
  by,
  more: (t, statements) => {
    const read = statements.find((s) => s.name === 'appointment.write.healthInsurance.fromClient')
    t.match(read?.sql, /\[j\]\.\[carrier_no\] AS \[id\]/, 'the carrier of the client\'s plan, read with it')
    t.match(read?.sql, /ORDER BY \[t_pp_1\]\.\[rank_no\]/, 'the first link row by rank')
    const own = statements.find((s) => s.name === 'appointment.write.healthInsurance.fromClient.own')
    t.notMatch(own?.sql, /rank_no/, 'the client\'s own plans: every link row')
  }
})
