// The write probe's read of a row as stored, as SQL Server gets it: for the client and
// appointment tables of both samples, T-SQL the real grammar parses (2008 R2 and later),
// reading each asked column by the table's key and nothing else.
import t from 'tap'
import { loadMapping } from '../../../src/installation.js'
import { storedRow } from '../../../src/mapping/compile/index.js'
import { mssqlDialect } from '../../../src/sql/mssql/dialect.js'
import { parseTsql, tsqlVersionProblems } from '../../helpers/tsql-grammar.js'
import { SAMPLES } from '../../helpers/app.js'

for (const sample of SAMPLES) {
  const model = loadMapping(sample)
  for (const table of [model.client, model.appointment]) {
    t.test(`${sample} ${table.table}`, async (t) => {
      const plan = storedRow(table, ['a_column', 'Outra Coluna'], mssqlDialect())
      t.same(parseTsql(plan.statement.sql, { statements: 1 }), [], plan.statement.sql)
      t.same(tsqlVersionProblems(plan.statement.sql, 2008), [])
      t.match(plan.statement.sql, /\[Outra Coluna\]/, 'names quoted as SQL Server quotes them')
      t.equal(plan.statement.params.length, table.key.parts.length, 'one parameter per key column, no value in the text')
      t.equal(plan.bind('not-a-key!') === undefined, table.key.type !== 'text', 'an id no row can have binds nothing')
      t.same(plan.read({ c0: 1, c1: 'x' }), { a_column: 1, 'Outra Coluna': 'x' })
    })
  }
}
