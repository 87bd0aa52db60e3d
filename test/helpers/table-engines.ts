// MariaDB storage engines for a schema written in portable SQL (`scratchOn`): each CREATE TABLE
// given the engine the test names (MyISAM as Open Dental and OSCAR ship, InnoDB as control),
// and every table of the database read whole (row count, CHECKSUM TABLE, every row sorted) so
// two readings are equal exactly when nothing was written.
import type { ServerScratch } from './scratch-servers.js'

/** `sql` with `ENGINE=<engine>` after each CREATE TABLE of a table `engines` names (others keep the server's default, InnoDB). */
export function withEngines (sql: string, engines: Record<string, string>): string {
  return sql.replace(/^(CREATE TABLE (\w+) \(.*\));$/gm, (line, create: string, table: string) => engines[table] === undefined ? line : `${create} ENGINE=${engines[table]};`)
}

export interface TableState { rows: number, checksum: string, contents: string[] }

/** Every base table of the scratch MariaDB database: its row count, checksum and rows. */
export async function tableStates (s: Pick<ServerScratch, 'rows'>): Promise<Record<string, TableState>> {
  const out: Record<string, TableState> = {}
  const tables = await s.rows("SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")
  for (const { t } of tables) {
    const [count] = await s.rows(`SELECT COUNT(*) AS n FROM \`${String(t)}\``)
    const [sum] = await s.rows(`CHECKSUM TABLE \`${String(t)}\``)
    const rows = await s.rows(`SELECT * FROM \`${String(t)}\``)
    out[String(t)] = { rows: Number(count.n), checksum: String(sum.Checksum), contents: rows.map((r) => JSON.stringify(r)).sort() }
  }
  return out
}

/** The engine MariaDB reports for each table of the scratch database. */
export async function enginesOf (s: Pick<ServerScratch, 'rows'>): Promise<Record<string, string>> {
  const rows = await s.rows('SELECT TABLE_NAME AS t, ENGINE AS e FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()')
  return Object.fromEntries(rows.map((r) => [String(r.t), String(r.e)]))
}
