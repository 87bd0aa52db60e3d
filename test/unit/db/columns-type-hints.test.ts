// The fix `ponte check` suggests for a number format on a date/time column names the type the
// column really holds, on every dialect: PostgreSQL's `timestamp without time zone` says
// "time" but holds a date and time (format: datetime), `time with time zone` only an hour.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { columnKind, dateTimeFamily } from '../../../src/db/columns.js'
import { openInstallation } from '../../../src/installation.js'
import { structuralFindings } from '../../../src/check/index.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

t.test('the family of each dialect\'s date and time types', async (t) => {
  const cases: [string, 'date' | 'time' | 'datetime' | undefined][] = [
    ['timestamp without time zone', 'datetime'], ['timestamp with time zone', 'datetime'], ['timestamptz', 'datetime'], // PostgreSQL
    ['time without time zone', 'time'], ['time with time zone', 'time'], ['timetz', 'time'], ['date', 'date'],
    ['datetime2', 'datetime'], ['smalldatetime', 'datetime'], ['datetimeoffset', 'datetime'], ['time', 'time'], // SQL Server
    ['timestamp', 'datetime'], ['datetime', 'datetime'], // MariaDB/MySQL
    ['DATETIME', 'datetime'], ['DATE', 'date'], ['TIME', 'time'], // SQLite, as declared
    ['varchar', undefined], ['integer', undefined], ['interval', undefined]
  ]
  for (const [declared, family] of cases) t.equal(dateTimeFamily(declared), family, declared)
  t.equal(columnKind('timestamp without time zone'), 'date', 'a date/time kind, not text')
  t.equal(columnKind('time with time zone'), 'date')
})

t.test('the suggestion in the finding, from the declared type the catalog reads', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-type-hints-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const mapping = join(dir, 'mapping.yaml')
  writeFileSync(mapping, CLINIC_MAPPING.replace('hour: { column: HORA, format: text }', 'hour: { column: HORA, format: hhmm }'))
  // SQLite keeps the type name as written: the same names PostgreSQL's catalog gives.
  for (const [declared, hint] of [['timestamp without time zone', 'datetime'], ['time without time zone', 'time'], ['DATE', 'date']] as const) {
    const file = join(dir, `${hint}.db`)
    const raw = new BetterSqlite3(file)
    raw.exec(CLINIC_SQL.replace('HORA VARCHAR(5) NOT NULL', `HORA ${declared} NOT NULL`))
    raw.close()
    const inst = await openInstallation(mapping, `sqlite:${file}`, undefined, { structural: 'skip' })
    try {
      const said = (await structuralFindings(inst.compiled, inst.db)).filter((f) => f.severity === 'problem').map((f) => f.message)
      t.equal(said.length, 1, said.join('\n'))
      t.match(said[0], `\`format: hhmm\` reads a number, but column \`HORA\` is a date/time (${declared}): use \`format: ${hint}\``, declared)
    } finally {
      await inst.close()
    }
  }
})
