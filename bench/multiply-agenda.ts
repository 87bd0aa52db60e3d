// Grows a clinica-sorriso database already loaded by bench/grow.ts (PostgreSQL or MariaDB) to
// `--times` copies of its appointments by one INSERT … SELECT over a numbers series: same days
// and hours, new keys. bench/grow.ts --db cannot load 2,000,000 appointments in one piece
// (its fixture outgrows a JS string), and the poll's cost depends on rows per day, not on who.
//   npx tsx bench/grow.ts --sample clinica-sorriso --clients 10000 --appointments 100000 --db postgres://…/ponte_poll
//   npx tsx bench/multiply-agenda.ts --db postgres://…/ponte_poll --times 20
import { Command } from 'commander'
import mysql from 'mysql2/promise'
import pg from 'pg'

const o = new Command()
  .requiredOption('--db <url>', 'postgres:// or mysql:// (mariadb://) URL of the grown database')
  .option('--times <n>', 'copies in all (the original is the first)', (v) => Number(v), 20)
  .parse().opts<{ db: string, times: number }>()

const COLUMNS = ['DATA', 'HORA', 'DURACAO', 'ID_PACIENTE', 'ID_PROFISSIONAL', 'ID_HIGIENISTA', 'FL_HIGIENE', 'ID_SALA', 'ID_PROCEDIMENTO', 'ID_CONVENIO', 'PLANO', 'SITUACAO', 'CONFIRMADO', 'DT_CONFIRMACAO', 'TIPO_ATEND', 'OBS', 'EXCLUIDO', 'DT_CADASTRO', 'USUARIO', 'DT_ALTERACAO', 'USUARIO_ALT']
const began = Date.now()
if (o.db.startsWith('postgres')) {
  const c = new pg.Client({ connectionString: o.db })
  await c.connect()
  const cols = COLUMNS.map((n) => `"${n}"`).join(', ')
  const { rows: [{ top }] } = await c.query('SELECT MAX("ID_AGENDA") AS top FROM dbo."AGENDA"')
  await c.query(`INSERT INTO dbo."AGENDA" ("ID_AGENDA", ${cols}) SELECT "ID_AGENDA" + k * $1::int, ${cols} FROM dbo."AGENDA", generate_series(1, $2::int) AS k`, [Number(top), o.times - 1])
  await c.query('ANALYZE dbo."AGENDA"')
  console.log(JSON.stringify({ appointments: Number((await c.query('SELECT COUNT(*) AS n FROM dbo."AGENDA"')).rows[0].n), seconds: (Date.now() - began) / 1000 }))
  await c.end()
} else {
  const c = await mysql.createConnection({ uri: o.db.replace(/^mariadb:/, 'mysql:') })
  const cols = COLUMNS.map((n) => `\`${n}\``).join(', ')
  const [[{ top }]] = await c.query('SELECT MAX(ID_AGENDA) AS top FROM AGENDA') as any
  // A numbers series without the Sequence engine: 1 … times-1 from a small derived table.
  const series = Array.from({ length: o.times - 1 }, (_, i) => `SELECT ${i + 1} AS k`).join(' UNION ALL ')
  await c.query(`INSERT INTO AGENDA (ID_AGENDA, ${cols}) SELECT a.ID_AGENDA + s.k * ?, ${cols.split(', ').map((x) => `a.${x}`).join(', ')} FROM AGENDA a CROSS JOIN (${series}) s`, [Number(top)])
  await c.query('ANALYZE TABLE AGENDA')
  const [[{ n }]] = await c.query('SELECT COUNT(*) AS n FROM AGENDA') as any
  console.log(JSON.stringify({ appointments: Number(n), seconds: (Date.now() - began) / 1000 }))
  await c.end()
}
