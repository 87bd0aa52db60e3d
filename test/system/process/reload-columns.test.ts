// A column changed under a running Ponte, then `kill -HUP`: written values are fitted to the
// column as it is after the reload (the catalogue the reload's structural check read), not as
// it was at start. A booking's professional id, kept in a text column the clinic lengthens and
// then shortens again, is taken once the column is longer and refused by name once it is
// shorter (SQLite would store it anyway). Until a reload, start-up's catalogue stands: no write
// reads it again. On every test database.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { narrowCodeMapping, narrowCodeSchema } from '../../helpers/narrow-code-clinic.js'
import { hup, startServer } from '../../helpers/server-process.js'

const KEY = 'reload-columns-key-0123456789'
const SCHEMA = narrowCodeSchema([[10, 'Dr. Ten']])
const MAPPING = narrowCodeMapping('reload-columns')

/** Statements run beside the server, as the clinic's own tools would. */
async function run (s: ServerScratch, sql: string): Promise<void> {
  if (s.dialect !== 'sqlite') { await s.rows(sql); return }
  const db = new BetterSqlite3(s.url.slice('sqlite:'.length))
  try { db.exec(sql) } finally { db.close() }
}

/** The appointment's professional column declared anew (its rows must fit): each database in its own words. */
async function resize (s: ServerScratch, length: number): Promise<void> {
  await run(s, {
    // SQLite changes a declared type only by rebuilding the table.
    sqlite: `CREATE TABLE appt_new (aid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, dcode VARCHAR(${length}), adate DATE NOT NULL, ahour VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
      INSERT INTO appt_new SELECT * FROM appt; DROP TABLE appt; ALTER TABLE appt_new RENAME TO appt;`,
    mysql: `ALTER TABLE appt MODIFY dcode VARCHAR(${length})`,
    postgres: `ALTER TABLE appt ALTER COLUMN dcode TYPE VARCHAR(${length})`
  }[s.dialect])
}

const DAY = '2031-03-04'
const paths = (body: any): string[] => (body.errors ?? []).map((e: { path: string }) => e.path)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    const dir = mkdtempSync(join(tmpdir(), 'ponte-reload-columns-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'mapping.yaml'), MAPPING)
    const server = await startServer({ DATABASE_URL: s.url, MAPPING: join(dir, 'mapping.yaml'), API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '0', IDEMPOTENCY_STORE: ':memory:' })
    t.teardown(() => server.stop())
    const book = async (hour: string): Promise<{ status: number, body: any }> => {
      const res = await fetch(server.url('/appointments'), {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ date: DAY, hour, client: '1', professional: '10' })
      })
      return { status: res.status, body: await res.json() }
    }
    const appointments = async (): Promise<unknown[]> => await s.rows('SELECT * FROM appt ORDER BY aid')

    const atStart = await book('09:00')
    t.equal(atStart.status, 400, 'at start: the id 10 is longer than the column (1)')
    t.same(paths(atStart.body), ['/body/professional'])

    await resize(s, 8)
    t.equal((await book('09:00')).status, 400, 'before a reload: start-up\'s catalogue still stands')
    t.equal((await hup(server)).msg, 'mapping reloaded', 'the reload went through')
    const longer = await book('09:00')
    t.equal(longer.status, 200, `after it: the lengthened column takes the id (${JSON.stringify(longer.body)})`)
    t.same(await s.rows('SELECT dcode FROM appt'), [{ dcode: '10' }], 'stored as its digits')

    await run(s, 'DELETE FROM appt')
    await resize(s, 1)
    t.equal((await hup(server)).msg, 'mapping reloaded', 'a second reload')
    const shorter = await book('10:00')
    t.equal(shorter.status, 400, 'the id is refused by the shortened column')
    t.same(paths(shorter.body), ['/body/professional'], 'naming the professional')
    t.match(shorter.body.errors?.[0]?.message, /at most 1 characters/, 'by the new length')
    t.same(await appointments(), [], 'and nothing is written')
  })
}
