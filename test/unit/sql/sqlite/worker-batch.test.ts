// Plain reads asked for in one turn of the event loop cross to the SQLite worker as one message
// and come back in one (driver.ts read, worker.ts): each still runs in the order asked, gets its
// own rows or its own error, and a batch the thread never answers fails instead of hanging.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import tap, { type Test } from 'tap'
import { openSqlite, TERMINATE_WORKER } from '../../../../src/sql/sqlite/driver.js'
import type { Statement } from '../../../../src/sql/statement.js'
import { DatabaseUnavailableError } from '../../../../src/errors.js'

const stmt = (sql: string, ...inputs: string[]): Statement => ({ name: 'test', sql, params: inputs.map((input) => ({ type: 'text' as const, source: { input } })) })
const BY_ID = stmt('SELECT id, name FROM person WHERE id = @p1', 'id')
const INSERT = stmt('INSERT INTO person (id, name) VALUES (@p1, @p2)', 'id', 'name')
const COUNT = stmt('SELECT COUNT(*) AS n FROM person')
const BROKEN = stmt('SELECT name FROM nowhere')

const failure = async (p: Promise<unknown>): Promise<unknown> => await p.then(() => undefined, (err: unknown) => err)

function scratch (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-batch-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'x.db')
  const db = new BetterSqlite3(file)
  db.exec('CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')
  db.prepare('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8) INSERT INTO person (id, name) SELECT i, \'Pessoa \' || i FROM n').run()
  db.close()
  return file
}

/** Messages the main thread posts to any worker while `fn` runs. */
async function messagesDuring (fn: () => Promise<unknown>): Promise<unknown[]> {
  const posted: unknown[] = []
  const post = Worker.prototype.postMessage
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: any[]) {
    posted.push(message)
    return post.call(this, message, ...rest)
  }
  try {
    await fn()
  } finally {
    Worker.prototype.postMessage = post
  }
  return posted
}

tap.test('reads asked for together: one message, each its own rows, in order', async (t) => {
  const db = openSqlite(scratch(t))
  t.teardown(db.close)
  await db.query(COUNT)
  let rows: unknown[] = []
  const posted = await messagesDuring(async () => {
    rows = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(async (id) => await db.query(BY_ID, { id })))
  })
  t.equal(posted.length, 1, 'eight reads, one message to the thread')
  t.same(rows, [1, 2, 3, 4, 5, 6, 7, 8].map((id) => [{ id, name: `Pessoa ${id}` }]), 'each read its own row')

  const asked = await messagesDuring(async () => { await db.query(BY_ID, { id: 1 }) })
  t.equal(asked.length, 1, 'a read alone is sent alone')
})

tap.test('a failing statement in a batch fails alone; a write in it is seen by the reads after it', async (t) => {
  const db = openSqlite(scratch(t))
  t.teardown(db.close)
  await db.query(COUNT)
  let before: unknown, broken: unknown, inserted: unknown, after: unknown
  const posted = await messagesDuring(async () => {
    [before, broken, inserted, after] = await Promise.all([
      db.query(COUNT),
      failure(db.query(BROKEN)),
      db.query(INSERT, { id: 9, name: 'Nove' }),
      db.query(COUNT)
    ])
  })
  t.equal(posted.length, 1, 'asked together, sent together')
  t.same(before, [{ n: 8 }], 'the read before the write: eight rows')
  t.match(String(broken), /no such table: nowhere/, 'the broken statement rejects with its own error')
  t.same(inserted, [], 'the write ran')
  t.same(after, [{ n: 9 }], 'the read after it sees its row')
})

tap.test('a transaction asked for after a batch waits for it; reads after it wait for its end', async (t) => {
  const db = openSqlite(scratch(t))
  t.teardown(db.close)
  // The thread's start outlasts the file check's second: the second read takes a fresh one, so
  // the reads below enter their turns as they are asked for (a due check defers a read).
  await db.query(COUNT)
  await db.query(COUNT)
  const order: string[] = []
  const early = db.query(COUNT).then((r) => { order.push(`early ${String(r[0].n)}`) })
  const tx = db.transaction(async (q) => {
    await q.query(INSERT, { id: 10, name: 'Dez' })
    order.push('transaction')
  })
  const late = db.query(COUNT).then((r) => { order.push(`late ${String(r[0].n)}`) })
  await Promise.all([early, tx, late])
  t.same(order, ['early 8', 'transaction', 'late 9'], 'in the order asked')
})

tap.test('the thread ends with a batch queued: its reads fail as unavailable, later ones answer', async (t) => {
  const db = openSqlite(scratch(t))
  t.teardown(db.close)
  await db.query(COUNT)
  const ending = db[TERMINATE_WORKER]()
  const queued = [1, 2, 3].map(async (id) => await failure(db.query(BY_ID, { id })))
  await ending
  const outcomes = await Promise.race([
    Promise.all(queued),
    new Promise((resolve) => setTimeout(() => { resolve('hung') }, 5000).unref())
  ])
  t.not(outcomes, 'hung', 'every queued read settles')
  for (const o of outcomes as unknown[]) t.ok(o === undefined || o instanceof DatabaseUnavailableError, `answered, or a 503 (${String(o)})`)
  t.same(await db.query(BY_ID, { id: 4 }), [{ id: 4, name: 'Pessoa 4' }], 'a fresh thread answers the next read')
})
