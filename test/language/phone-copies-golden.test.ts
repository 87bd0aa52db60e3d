// Golden T-SQL of the phone copies (test/helpers/phone-copies.ts), which no test database here
// can run: the read of the booked client's name with its phones collected from the contact
// rows, the booking's INSERT with both copies as parameters, and the contact row's INSERT
// with the phone's compact and national copies, parsed by the T-SQL grammar for 2012+ and
// 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/phone-copies-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { PHONE_COPIES_MAPPING } from '../helpers/phone-copies.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(PHONE_COPIES_MAPPING, 'phone-copies.yaml')), {
  by: 'test/language/phone-copies-golden.test.ts',
  more: (t, statements) => {
    const sql = (name: string): string => statements.find((s) => s.name === name)?.sql ?? `(no ${name})`
    t.match(sql('appointment.write.clientName'), /^SELECT .*\[nome\].*\[valor\].*\[contato\].* FROM \[pessoa\] \[t\] WHERE \[t\]\.\[id\] = @p\d+$/, 'the client\'s name and collected phones by key')
    t.match(sql('appointment.insert'), /\[fone_paciente\].*\[fone_contato\]/, 'the booking inserts both copies')
    t.notMatch(sql('appointment.insert'), /'/, 'as parameters, never literals')
    t.ok(statements.some((s) => /^INSERT INTO \[contato\].*\[valor_compacto\].*\[valor_nacional\]/.test(s.sql)), 'the contact row inserts the phone\'s copies')
  }
})
