// `npm run bench -- --quick --database postgres|mysql`: the bench on the local server
// databases finishes, Ponte and the hand-written baseline answer the same JSON in every
// scenario (bookings: the same legacy rows), and the report carries the database's side of a
// request (rows read, and buffers on PostgreSQL) for both, and W5's locks held per booking as
// the wire between each server and its database shows them. Nothing about speed is asserted.
// Each run takes its own databases (--db-prefix) and drops them at the end.
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import mysql from 'mysql2/promise'
import { childEnv } from '../../helpers/child-env.js'
import { testDialects } from '../../helpers/contract.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
// Two quick benches, one per server database, take minutes on a loaded machine; the run is
// awaited (not spawnSync) so the file's own timer can still fire and report.
t.setTimeout(1_200_000)
const SERVER_URL = {
  postgres: process.env.PONTE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: process.env.PONTE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/'
}

/** The bench's databases still on the server after the run (none: it drops them). */
async function leftOver (kind: 'postgres' | 'mysql', prefix: string): Promise<string[]> {
  if (kind === 'postgres') {
    const c = new pg.Client({ connectionString: SERVER_URL.postgres })
    await c.connect()
    try { return (await c.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`])).rows.map((r: { datname: string }) => r.datname) } finally { await c.end() }
  }
  const u = new URL(SERVER_URL.mysql)
  const c = await mysql.createConnection({ host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username) || 'root', password: decodeURIComponent(u.password) })
  try { return ((await c.query('SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [`${prefix}%`]))[0] as { s: string }[]).map((r) => r.s) } finally { await c.end() }
}

for (const kind of ['postgres', 'mysql'] as const) {
  t.test(`npm run bench -- --quick --database ${kind}`, { skip: testDialects().includes(kind) ? false : `${kind} left out by PONTE_TEST_DIALECTS` }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), `ponte-bench-${kind}-`))
    t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
    const prefix = `ponte_benchtest_${randomBytes(4).toString('hex')}`
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--database', kind, '--server-url', SERVER_URL[kind],
      '--db-prefix', prefix, '--out', dir, '--cache', join(dir, 'cache')], { cwd: root, encoding: 'utf8', timeout: 540_000, maxBuffer: 64 * 1024 * 1024, env: childEnv() })
      .then(({ stdout, stderr }) => ({ status: 0, stdout, stderr }), (e: { code?: number, stdout?: string, stderr?: string }) => ({ status: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }))
    t.equal(run.status, 0, `exit 0\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`)
    const report = JSON.parse(readFileSync(join(dir, 'bench.json'), 'utf8'))
    t.equal(report.database, kind)
    t.match(report.databaseCounters, kind === 'postgres' ? /pg_stat_user_tables/ : /TABLE_STATISTICS/, 'the report says what the counters are')
    t.same(report.results.map((r: { scenario: string }) => r.scenario).sort(), ['W1', 'W2', 'W3', 'W4', 'W5', 'by-id'].sort(), 'every scenario ran')
    for (const r of report.results) {
      t.equal(r.sameJson, true, `${r.scenario}: same JSON from both${r.difference ? `: ${r.difference}` : ''}`)
      for (const side of ['ponte', 'hand']) {
        const s = r[side]
        t.ok(s.requests > 0 && s.failures === 0, `${r.scenario} ${side}: requests, none failed`)
        if (r.scenario === 'W5') {
          // Locks timed on the wire (bench/wire-locks.ts): every booking's row locks, and Ponte's claims.
          t.ok(s.locks.row.count >= s.requests - 1 && s.locks.row.p50 > 0 && s.locks.row.p99 >= s.locks.row.p50, `W5 ${side}: row locks held per booking (${JSON.stringify(s.locks.row)})`)
          if (side === 'ponte') t.ok(s.locks.claim.count >= s.requests - 1 && s.locks.claim.p50 > 0, `W5 Ponte: claims held per booking (${JSON.stringify(s.locks.claim)})`)
          else t.equal(s.locks.claim.count, 0, 'W5 hand: takes no application lock')
          continue // bookings: between rounds the bench asks Ponte for free slots, so no per-request figure
        }
        t.ok(s.db && s.db.requests >= s.requests, `${r.scenario} ${side}: the database's side over every request sent`)
        // W3 is answered from the lookups cache: nothing read. Every other scenario reads rows.
        if (r.scenario === 'W3') t.equal(s.db.rowsPerRequest, 0, `${r.scenario} ${side}: no rows read`)
        else t.ok(s.db.rowsPerRequest >= 1, `${r.scenario} ${side}: rows read per request (${s.db.rowsPerRequest})`)
        if (kind === 'postgres') t.ok(Number.isFinite(s.db.buffersPerRequest) && (r.scenario === 'W3' || s.db.buffersPerRequest >= 1), `${r.scenario} ${side}: buffers per request`)
        else t.equal(s.db.buffersPerRequest, undefined, `${r.scenario} ${side}: MariaDB counts no buffers per database`)
      }
    }
    t.equal(report.allSameJson, true)
    const md = readFileSync(join(dir, 'bench.md'), 'utf8')
    t.ok(md.includes('| DB rows/req Ponte | DB rows/req hand | DB rows ratio |'), 'the Markdown table has the database\'s columns')
    t.match(md, /W1 DB rows read per request ≤ 1\.05× the baseline's/, 'and its targets')
    t.match(md, /\| fixture \| server \| SQL\/booking \| row locks p50 \|/, 'W5\'s locks held, per server')
    t.match(md, /W5 row locks held no longer than the baseline's/, 'and their target')
    t.same(await leftOver(kind, prefix), [], 'the bench dropped its databases')
  })
}
