// `write.history.rowKey` where no server runs it: SQL Server's T-SQL of the Brazilian desk's
// mapping (test/helpers/brazil-desk.ts), the log row's key bumped in the counter table before
// each history INSERT (the opened row and the row a reschedule leaves), pinned in test/golden/
// and parsed by the T-SQL grammar.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/history-row-key-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { deskMapping } from '../helpers/brazil-desk.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(deskMapping(), 'brazil-desk.yaml')), {
  by: 'test/language/history-row-key-golden.test.ts',
  more: (t, statements) => {
    const bump = statements.filter((s) => s.name === 'history.key.bump')
    t.ok(bump.length > 0, statements.map((s) => s.name).join(', '))
    t.match(bump[0]?.sql, /^(?:DECLARE .*)?UPDATE \[k\] SET \[ultimo\] = \[k\]\.\[ultimo\] \+ 1 .*FROM \[sequencia\] \[k\].*WHERE \[k\]\.\[tabela\] = @p1/s, 'the counter bumped and said, as write.key does')
    t.match(statements.find((s) => s.name === 'appointment.history.open')?.sql, /^INSERT INTO \[historico_sessao\] \(\[seq\], \[sessao\], \[evento\]\)/, 'the opened row takes the counted key')
    t.match(statements.find((s) => s.name === 'appointment.history.left')?.sql, /^INSERT INTO \[historico_sessao\] \(\[seq\], \[sessao\], \[evento\], \[anterior\]\)/, 'and the row a reschedule leaves')
  }
})
