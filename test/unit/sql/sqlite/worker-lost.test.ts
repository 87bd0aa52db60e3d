// The SQLite worker thread ending while a transaction is open (between two of its statements,
// while fn awaits something else) must not leave part of the transaction written: the rest of
// it fails with a 503 without running on a fresh connection, and the table is as before. And
// close() resolves within its bound even while SQLite runs a statement it cannot interrupt.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import tap, { type Test } from 'tap'
import { openSqlite, TERMINATE_WORKER } from '../../../../src/sql/sqlite/driver.js'
import type { Statement } from '../../../../src/sql/statement.js'
import { DatabaseUnavailableError } from '../../../../src/errors.js'
import { childEnv } from '../../../helpers/child-env.js'

const stmt = (sql: string, ...inputs: string[]): Statement => ({ name: 'test', sql, params: inputs.map((input) => ({ type: 'text' as const, source: { input } })) })
const INSERT = stmt('INSERT INTO person (id, name) VALUES (@p1, @p2)', 'id', 'name')
const COUNT = stmt('SELECT COUNT(*) AS n FROM person')
const failure = async (p: Promise<unknown>): Promise<unknown> => await p.then(() => undefined, (err: unknown) => err)

function scratch (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-lost-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'x.db')
  const db = new BetterSqlite3(file)
  db.exec("CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO person VALUES (1, 'Pessoa 1')")
  db.close()
  return file
}

tap.test('the worker ends between two statements of a transaction: nothing of it is kept', async (t) => {
  const file = scratch(t)
  const db = openSqlite(file)
  t.teardown(db.close)
  t.same((await db.query(COUNT))[0], { n: 1 }, 'one row before')

  let second: unknown
  const err = await failure(db.transaction(async (tx) => {
    await tx.query(INSERT, { id: 2, name: 'Primeira metade' })
    // fn awaits something else; meanwhile the thread ends (a crash, an out-of-memory kill).
    await db[TERMINATE_WORKER]()
    second = await failure(tx.query(INSERT, { id: 3, name: 'Segunda metade' }))
    if (second !== undefined) throw second
  }))
  t.ok(second instanceof DatabaseUnavailableError, `the next statement of the transaction is a 503 (${String(second)})`)
  t.ok(err instanceof DatabaseUnavailableError, 'and so is the transaction')
  t.equal((err as DatabaseUnavailableError).status, 503, 'status 503')

  // Read beside Ponte, on a connection of its own: what the file holds.
  const check = new BetterSqlite3(file, { readonly: true })
  t.same(check.prepare('SELECT id FROM person ORDER BY id').all(), [{ id: 1 }], 'neither half of the transaction is in the file')
  check.close()
  t.same((await db.query(COUNT))[0], { n: 1 }, 'and Ponte, on a fresh thread, reads the same')

  // A transaction that catches the 503 and goes on is not committed either.
  await failure(db.transaction(async (tx) => {
    await tx.query(INSERT, { id: 4, name: 'Quatro' })
    await db[TERMINATE_WORKER]()
    await tx.query(INSERT, { id: 5, name: 'Cinco' }).catch(() => {})
  }))
  t.same((await db.query(COUNT))[0], { n: 1 }, 'a transaction that swallowed the 503 is not committed')
  await db.transaction(async (tx) => { await tx.query(INSERT, { id: 6, name: 'Seis' }) })
  t.same((await db.query(COUNT))[0], { n: 2 }, 'the next transaction commits as usual')
})

// In a child process: Node waits for a worker thread at exit, and this one runs for minutes.
tap.test('close() resolves within 2 s while a statement it cannot interrupt runs', async (t) => {
  const file = scratch(t)
  const driver = new URL('../../../../src/sql/sqlite/driver.ts', import.meta.url).href
  const script = `
    const { openSqlite } = await import(${JSON.stringify(driver)})
    const db = openSqlite(${JSON.stringify(file)})
    const s = (sql) => ({ name: 'n', sql, params: [] })
    await db.query(s('SELECT 1'))
    // Counts to 10^10: minutes of sqlite3_step, which worker.terminate() cannot interrupt.
    const long = db.query(s('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000000000) SELECT count(*) AS c FROM n')).then(() => 'answered', (e) => e.constructor.name)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const started = performance.now()
    await db.close()
    const ms = performance.now() - started
    const after = await db.query(s('SELECT 1')).then(() => 'answered', (e) => e.constructor.name + ': ' + e.message)
    console.log(JSON.stringify({ ms, long: await long, after }))`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env: childEnv() })
  t.teardown(() => { child.kill('SIGKILL') })
  let out = ''
  const line = new Promise<string>((resolve) => { child.stdout.on('data', (c: Buffer) => { out += c.toString(); if (out.includes('\n')) resolve(out) }) })
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  const got = JSON.parse(await line) as { ms: number, long: string, after: string }
  clearTimeout(timer)
  t.ok(got.ms < 2500, `close() resolved in ${Math.round(got.ms)} ms`)
  t.equal(got.long, 'DatabaseUnavailableError', 'the running statement\'s caller hears 503 at close')
  t.match(got.after, /^DatabaseUnavailableError: .*closed/, 'a later call fails as closed')
})

tap.test('the worker ends between two blocks of a streamed read: the read fails, it does not end early', async (t) => {
  const file = scratch(t)
  const raw = new BetterSqlite3(file)
  raw.exec("WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO person SELECT i, 'Pessoa ' || i FROM n")
  raw.close()
  const db = openSqlite(file)
  t.teardown(db.close)
  const stream = db.stream?.(stmt('SELECT id FROM person ORDER BY id'), {})
  t.ok(stream, 'SQLite streams')
  let rows = 0
  const err = await failure((async () => {
    for await (const block of stream as AsyncIterable<unknown[]>) {
      rows += block.length
      if (rows === block.length) await db[TERMINATE_WORKER]()
    }
  })())
  t.ok(rows > 0 && rows < 3000, `some rows came before the thread ended (${rows})`)
  t.ok(err instanceof DatabaseUnavailableError, `the next block is a 503, not the end of the list (${String(err)})`)
  t.same((await db.query(COUNT))[0], { n: 3000 }, 'the next read is served by a fresh thread')
})
