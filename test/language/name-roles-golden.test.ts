// Golden T-SQL of a name written with a middle column its template does not read
// (test/helpers/name-roles.ts), which no test database here can run: the client's insert and
// UPDATE fill `meio` beside the template's columns, parsed by the T-SQL grammar for 2012+ and
// 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/name-roles-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { nameRolesMapping } from '../helpers/name-roles.js'

t.setTimeout(180_000)

const model = buildModel(parseMapping(nameRolesMapping("template: '{nome} {sobrenome}', split: { rule: particles, middle: meio }"), 'name-roles.yaml'))
pinTsql(t, model, {
  by: 'test/language/name-roles-golden.test.ts',
  more: (t, statements) => {
    const update = statements.find((s) => s.name === 'client.update[name]')
    t.match(update?.sql, /SET \[nome\] = @p\d+, \[sobrenome\] = @p\d+, \[meio\] = @p\d+/, 'a PATCH of the name writes the middle column too')
  }
})
