// Which columns a duplicate key collided on, from what each database says, where no server
// of that kind runs here: SQL Server's 2627/2601 messages and MySQL 8's `table.key`, read
// back through the catalogue (sys.indexes rows, information_schema.STATISTICS rows). The
// value in the message (patient data) is never kept. SQLite, MariaDB and PostgreSQL answer
// for real in test/http/clients/colliding-key.
import t from 'tap'
import { duplicateKey } from '../../../src/sql/mssql/driver.js'
import { mssqlCatalogFromRows } from '../../../src/sql/mssql/introspect.js'
import { translate } from '../../../src/sql/mysql/errors.js'
import { mysqlCatalogFromRows } from '../../../src/sql/mysql/introspect.js'
import { withIndexes } from '../../../src/db/columns.js'
import { collidingKey } from '../../../src/db/colliding-key.js'
import { DuplicateKeyError } from '../../../src/errors.js'

const insert = { name: 'client.insert', sql: '', params: [], writes: 'dbo.PACIENTE' }
const column = { type: 'varchar', nullable: 'YES', dflt: 0, identity: 0, computed: 0, pk: 0, length: 60, dfltSql: null }
const mssqlCatalog = mssqlCatalogFromRows(['ID', 'EMAIL', 'CPF'].map((name) => ({ schema: 'dbo', tbl: 'PACIENTE', name, ...column })), [
  { schema: 'dbo', tbl: 'PACIENTE', idx: 'PK_PACIENTE', pos: 1, col: 'ID' },
  { schema: 'dbo', tbl: 'PACIENTE', idx: 'UQ_PACIENTE_CPF', pos: 1, col: 'CPF' },
  { schema: 'dbo', tbl: 'PACIENTE', idx: 'IX_PACIENTE_EMAIL', pos: 1, col: 'EMAIL' }
])
const kept = (err: unknown): string => JSON.stringify({ ...(err as object), message: (err as Error).message })

t.test('SQL Server: a constraint (2627) and a unique index (2601), told by their columns', async (t) => {
  // A value can hold anything, quotes and the message's own words included.
  const value = "ana'with unique index 'X' in object 'dbo.Y'@example.com"
  const constraint = duplicateKey(2627, "Violation of UNIQUE KEY constraint 'UQ_PACIENTE_CPF'. Cannot insert duplicate key in object 'dbo.PACIENTE'. The duplicate key value is (123.456.789-09).")
  t.same(constraint.key, { table: 'dbo.PACIENTE', name: 'UQ_PACIENTE_CPF' })
  t.same((collidingKey(constraint, insert, mssqlCatalog) as DuplicateKeyError).key.columns, ['CPF'])
  const index = duplicateKey(2601, `Cannot insert duplicate key row in object 'dbo.PACIENTE' with unique index 'IX_PACIENTE_EMAIL'. The duplicate key value is (${value}).`)
  t.same(index.key, { table: 'dbo.PACIENTE', name: 'IX_PACIENTE_EMAIL' })
  t.same((collidingKey(index, insert, mssqlCatalog) as DuplicateKeyError).key.columns, ['EMAIL'])
  t.notMatch(kept(index), /ana/, 'the value is not kept')
  const pk = duplicateKey(2627, "Violation of PRIMARY KEY constraint 'PK_PACIENTE'. Cannot insert duplicate key in object 'dbo.PACIENTE'. The duplicate key value is (7).")
  t.same((collidingKey(pk, insert, mssqlCatalog) as DuplicateKeyError).key.columns, ['ID'], 'the primary key too')
})

t.test('MariaDB / MySQL 8: the key named alone or as table.key, read from STATISTICS rows', async (t) => {
  const catalog = withIndexes(mysqlCatalogFromRows([{ tbl: 'pac', name: 'email', type: 'varchar(60)', nullable: 'YES', length: 60 }]),
    [{ tbl: 'pac' }], [{ tbl: 'pac', idx: 'uq_mail', col: 'email' }])
  const write = { ...insert, writes: 'pac' }
  for (const name of ['uq_mail', 'pac.uq_mail']) {
    const err = translate(Object.assign(new Error(`Duplicate entry 'x' for key 'y'@example.com' for key '${name}'`), { errno: 1062 }))
    t.same((err as DuplicateKeyError).key, { name }, `${name}: the last key named, after the value`)
    t.same((collidingKey(err, write, catalog) as DuplicateKeyError).key, { name, table: 'pac', columns: ['email'] })
    t.notMatch(kept(err), /example/, 'the value is not kept')
  }
})

t.test('a key the catalogue does not know is left as the driver said it', async (t) => {
  const err = new DuplicateKeyError({ name: 'IX_GONE' })
  t.equal(collidingKey(err, insert, mssqlCatalog), err)
  t.equal(collidingKey(err, insert, undefined), err, 'nor without a catalogue')
})
