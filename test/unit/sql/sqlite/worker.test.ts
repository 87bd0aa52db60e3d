// The SQLite driver runs its statements in a worker thread (issue 13, sql/sqlite/worker.ts).
// What it answered on the event loop it answers the same from the thread: rows as objects,
// BLOBs as Buffers, typed errors, transactions committed or rolled back, stats and the pool
// gauge; a long read may be streamed in blocks; and no thread outlives close() or keeps a
// process from exiting.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import tap, { type Test } from 'tap'
import { openSqlite } from '../../../../src/sql/sqlite/driver.js'
import type { Statement } from '../../../../src/sql/statement.js'
import { ConflictError, DuplicateKeyError, DatabaseUnavailableError, MissingValueError } from '../../../../src/errors.js'
import { childEnv } from '../../../helpers/child-env.js'

const stmt = (sql: string, ...inputs: string[]): Statement => ({ name: 'test', sql, params: inputs.map((input) => ({ type: 'text' as const, source: { input } })) })
const ALL = stmt('SELECT id, name, photo FROM person ORDER BY id')
const INSERT = stmt('INSERT INTO person (id, name) VALUES (@p1, @p2)', 'id', 'name')
const COUNT = stmt('SELECT COUNT(*) AS n FROM person')

const failure = async (p: Promise<unknown>): Promise<unknown> => await p.then(() => undefined, (err: unknown) => err)

function scratch (t: Test, rows = 3): string {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-worker-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'x.db')
  const db = new BetterSqlite3(file)
  db.exec('CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, photo BLOB)')
  db.prepare('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO person (id, name, photo) SELECT i, \'Pessoa \' || i, CASE i WHEN 1 THEN x\'00ff\' END FROM n').run(rows)
  db.close()
  return file
}

tap.test('rows, BLOBs, errors and transactions as before the thread', async (t) => {
  const db = openSqlite(scratch(t))
  t.teardown(db.close)
  const rows = await db.query(ALL)
  t.same(rows.map((r) => r.name), ['Pessoa 1', 'Pessoa 2', 'Pessoa 3'], 'rows as objects keyed by column')
  t.ok(Buffer.isBuffer(rows[0].photo), 'a BLOB is a Buffer, as better-sqlite3 gives it')
  t.same([...rows[0].photo as Buffer], [0, 255], 'with its bytes')
  t.equal(rows[1].photo, null, 'NULL stays null')

  const dup = await failure(db.query(INSERT, { id: 1, name: 'Outra' }))
  t.ok(dup instanceof ConflictError, 'a duplicate key: 409')
  t.same((dup as DuplicateKeyError).key, { table: 'person', columns: ['id'] }, 'naming its table and columns, as SQLite says them')
  t.ok(await failure(db.query(INSERT, { id: 9, name: null })) instanceof MissingValueError, 'a NOT NULL column left empty: the typed error')

  await db.transaction(async (tx) => { await tx.query(INSERT, { id: 10, name: 'Dez' }) })
  await t.rejects(db.transaction(async (tx) => {
    await tx.query(INSERT, { id: 11, name: 'Onze' })
    throw new Error('changed my mind')
  }), /changed my mind/, 'a transaction that throws rejects with its error')
  t.same((await db.query(COUNT))[0], { n: 4 }, 'committed one, rolled back the other')

  // A transaction spans awaits: a query from outside waits for its end.
  const order: string[] = []
  const tx = db.transaction(async (q) => {
    await q.query(INSERT, { id: 12, name: 'Doze' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    order.push('tx')
  })
  const outside = db.query(COUNT).then((r) => { order.push('outside'); return r })
  t.same(db.pool?.(), { inUse: 1, waiting: 1 }, 'pool gauge: one in use, one waiting')
  await tx
  t.same((await outside)[0], { n: 5 }, 'the query from outside saw the transaction committed')
  t.same(order, ['tx', 'outside'], 'and ran after it')
  t.ok(db.stats.statements >= 7, `statements counted (${db.stats.statements})`)
  await db.ping()
})

tap.test('every stored value comes back as better-sqlite3 gives it, read whole or streamed', async (t) => {
  // Rows cross the thread as JSON or cloned (worker.ts carried): REALs needing 17 digits, -0,
  // infinities, big integers, BLOBs, quotes and braces in text, NUL and invalid UTF-8 must
  // come back as on the event loop.
  const dir = mkdtempSync(join(tmpdir(), 'ponte-worker-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'values.db')
  const setup = new BetterSqlite3(file)
  setup.exec('CREATE TABLE v (id INTEGER PRIMARY KEY, a, b REAL, c TEXT)')
  const values: unknown[] = [null, 0.1 + 0.2, 1 / 3, -0, 1e300 * 10, -1e300 * 10, 5e-324, 2 ** 60, 12.5, 30, '',
    'x"{"r":"1"}\\\n\u0001é😀', Buffer.from([0, 255, 1]), Buffer.alloc(0)]
  const insert = setup.prepare('INSERT INTO v (a, b, c) VALUES (?, ?, ?)')
  values.forEach((x, i) => insert.run(x, values[(i + 3) % values.length], values[(i + 7) % values.length]))
  setup.exec("INSERT INTO v (a, c) VALUES (CAST(x'ff41' AS TEXT), 'a' || char(0) || 'b')")
  const read = stmt('SELECT id, a, b, c FROM v ORDER BY id -- a trailing comment')
  const want = setup.prepare(read.sql).all()
  setup.close()
  const db = openSqlite(file)
  t.teardown(db.close)
  t.strictSame(await db.query(read), want, 'read whole')
  const streamed: unknown[] = []
  for await (const block of db.stream!(read)) streamed.push(...block)
  t.strictSame(streamed, want, 'streamed')
  t.ok(Object.is((await db.query(stmt('SELECT -0.0 AS z')))[0].z, -0), 'a REAL -0 stays -0')
  t.same(await db.query(stmt('SELECT 1 AS x, 2 AS x')), [{ x: 2 }], 'columns of one name: the last, as better-sqlite3 gives')
})

tap.test('rows keyed by column name: odd names, a name twice, __proto__', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-names-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'names.db')
  const setup = new BetterSqlite3(file)
  setup.exec("CREATE TABLE peca (id INTEGER PRIMARY KEY, preco REAL, foto BLOB, \"__proto__\" TEXT, \"a b\" TEXT); INSERT INTO peca VALUES (1, 0.30000000000000004, x'00ff10', 'p', 'espaço')")
  const read = stmt('SELECT id, preco, foto, "__proto__", "a b", preco AS id FROM peca WHERE id = 1')
  setup.close()
  const db = openSqlite(file)
  t.teardown(db.close)
  const row = (await db.query(read))[0]!
  t.same(Object.keys(row), ['id', 'preco', 'foto', '__proto__', 'a b'], 'names in their first place, a name given twice once')
  t.equal(row.id, 0.30000000000000004, 'the later of two values named alike')
  t.ok(Buffer.isBuffer(row.foto) && (row.foto as Buffer).equals(Buffer.from([0, 0xff, 0x10])), 'a BLOB as a Buffer')
  // better-sqlite3's own objects lose this column (it is assigned, and a string prototype is ignored).
  t.equal(Object.getPrototypeOf(row), Object.prototype, 'a column named __proto__ is a property, not the prototype')
  t.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 'p')
})

tap.test('each declared type\'s affinity: BLOBs that look like JSONB and REALs come back exact', async (t) => {
  // Values come back as stored whatever a column declares: a declared type can lie (the views
  // and the UNION below), and the affinity rules have traps: "FLOATING POINT" holds INT
  // (integer affinity), "STRING" none of the words (numeric), "CHARINT" INT first. x'00' is a
  // valid JSONB null, which a JSON function in SQL would take for one.
  const dir = mkdtempSync(join(tmpdir(), 'ponte-affinity-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'affinity.db')
  const setup = new BetterSqlite3(file)
  const types = ['TEXT', 'CHAR(5)', 'NVARCHAR(20)', 'CLOB', 'CHARINT', '"FLOATING POINT"', 'STRING', 'BLOB', 'REAL', '']
  setup.exec(`CREATE TABLE v (id INTEGER PRIMARY KEY, ${types.map((ty, i) => `c${i} ${ty}`).join(', ')})`)
  const values: unknown[] = [Buffer.from([0]), Buffer.from([0x0c, 0x31]), Buffer.alloc(0), 0.1 + 0.2, 1e20 + 0.5, 2 ** 60, '7', ' 7 ', 'texto', null]
  const insert = setup.prepare(`INSERT INTO v (${types.map((_, i) => `c${i}`).join(', ')}) VALUES (${types.map(() => '?').join(', ')})`)
  values.forEach((_, r) => insert.run(...types.map((_, i) => values[(r + i) % values.length])))
  // A compound SELECT's column reports one arm's declared type (a statement's: the first arm's;
  // a view's: the last arm's), TEXT here, while the other arm gives REALs.
  setup.exec('CREATE VIEW u AS SELECT id, c8 AS x FROM v UNION ALL SELECT id + 100, c0 FROM v')
  setup.exec('CREATE VIEW w AS SELECT id, c0 AS x FROM v UNION ALL SELECT id + 100, c8 FROM v')
  const reads = [
    stmt('SELECT * FROM v ORDER BY id'),
    stmt('SELECT id, x FROM u ORDER BY id'),
    stmt('SELECT id, x FROM w ORDER BY id'),
    stmt('SELECT id, c0 AS x FROM v UNION ALL SELECT id + 100, c8 FROM v ORDER BY 1')
  ]
  const wants = reads.map((read) => setup.prepare(read.sql).all())
  for (const i of [1, 2, 3]) t.ok(wants[i].some((r) => (r as { x: unknown }).x === 0.1 + 0.2), `${reads[i].sql}: a 17-digit REAL among the rows`)
  t.equal(setup.prepare(reads[1].sql).columns()[1].type, 'TEXT', 'the view u says TEXT')
  setup.close()
  const db = openSqlite(file)
  t.teardown(db.close)
  for (const [i, read] of reads.entries()) {
    t.strictSame(await db.query(read), wants[i], `${read.sql}: read whole`)
    const streamed: unknown[] = []
    for await (const block of db.stream!(read)) streamed.push(...block)
    t.strictSame(streamed, wants[i], `${read.sql}: streamed`)
  }
})

tap.test('read-only: reads answer, writes are 503', async (t) => {
  const db = openSqlite(scratch(t), { readonly: true })
  t.teardown(db.close)
  t.equal((await db.query(ALL)).length, 3, 'reads')
  t.ok(await failure(db.query(INSERT, { id: 20, name: 'Vinte' })) instanceof DatabaseUnavailableError, 'a write: database unavailable')
  await db.ping()
})

tap.test('a long read streamed in blocks; the connection is free when the loop is left', async (t) => {
  const db = openSqlite(scratch(t, 2345))
  t.teardown(db.close)
  const sizes: number[] = []
  let names = 0
  for await (const block of db.stream!(ALL)) {
    sizes.push(block.length)
    names += block.filter((r) => typeof r.name === 'string').length
  }
  t.same(sizes, [1000, 1000, 345], 'blocks of 1,000 rows')
  t.equal(names, 2345, 'every row, as objects')

  // eslint-disable-next-line no-unreachable-loop -- leaving the loop early is what is tested
  for await (const block of db.stream!(ALL)) {
    t.equal(block.length, 1000, 'the first block')
    break
  }
  t.same((await db.query(COUNT))[0], { n: 2345 }, 'after a loop left early, the next query runs')
  await db.transaction(async (tx) => { await tx.query(INSERT, { id: 5000, name: 'Depois' }) })
  t.same((await db.query(COUNT))[0], { n: 2346 }, 'and a write')
})

tap.test('no thread keeps a process alive, closed or not; close during a statement ends it', async (t) => {
  const file = scratch(t, 10)
  const driver = new URL('../../../../src/sql/sqlite/driver.ts', import.meta.url).href
  for (const [what, tail] of [['closed', 'await db.close()'], ['never closed', ''], ['closed with a query in flight', 'const q = db.query(s).catch(() => {}); await db.close(); await q']]) {
    const script = `
      const { openSqlite } = await import(${JSON.stringify(driver)})
      const db = openSqlite(${JSON.stringify(file)})
      const s = { name: 'n', sql: 'SELECT COUNT(*) AS n FROM person', params: [] }
      console.log(JSON.stringify(await db.query(s)))
      ${tail}`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: childEnv()
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => { out += c.toString() })
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    const [code, signal] = await once(child, 'exit') as [number | null, string | null]
    clearTimeout(timer)
    t.equal(signal, null, `${what}: the process ended by itself`)
    t.equal(code, 0, `${what}: exit code 0`)
    t.match(out, /\{"n":10\}/, `${what}: after answering`)
  }
})
