// How should rows cross from the SQLite worker thread (src/sql/sqlite/worker.ts) to the event
// loop? Measures four ways over the same statement, for answers of 1 to 20,000 rows of 27
// columns (an appointment list row's width): per answer, the wall time of the round trip, the
// event loop's busy time (what /health waits behind) and the whole process's CPU time.
//
//   objects  stmt.all() as objects, structured clone (keys written again for every row)
//   arrays   stmt.raw(true) arrays + the column names once; objects rebuilt on the main thread
//   json     objects JSON.stringify'd in the worker, JSON.parse'd on the main thread
//   jsonArr  arrays as JSON + rebuilt on the main thread
//   shaped   as arrays, rebuilt by a function made once per column list (one object literal)
//
// node --import tsx scripts/measure-sqlite-rows.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'

const COLUMNS = 27
const dir = mkdtempSync(join(tmpdir(), 'ponte-rows-'))
const file = join(dir, 'rows.db')
const setup = new BetterSqlite3(file)
const cols = Array.from({ length: COLUMNS }, (_, i) => `c${i}`)
setup.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, ${cols.map((c, i) => `${c} ${i % 3 === 0 ? 'INTEGER' : 'TEXT'}`).join(', ')})`)
const insert = setup.prepare(`INSERT INTO t (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
setup.transaction(() => {
  for (let r = 0; r < 20_000; r++) insert.run(cols.map((_, i) => i % 3 === 0 ? r * i : i % 3 === 1 ? `Texto ${r} coluna ${i}` : (r % 7 === 0 ? null : '2026-11-25 09:30')))
})()
setup.close()

const worker = new Worker(`
  const { parentPort, workerData } = require('node:worker_threads')
  const db = new (require('better-sqlite3'))(workerData)
  const objects = db.prepare('SELECT * FROM t LIMIT ?')
  const arrays = db.prepare('SELECT * FROM t LIMIT ?').raw(true)
  const names = arrays.columns().map((c) => c.name)
  parentPort.on('message', ({ how, n }) => {
    if (how === 'objects') parentPort.postMessage(objects.all(n))
    else if (how === 'arrays') parentPort.postMessage({ columns: names, rows: arrays.all(n) })
    else if (how === 'json') parentPort.postMessage(JSON.stringify(objects.all(n)))
    else parentPort.postMessage(JSON.stringify({ columns: names, rows: arrays.all(n) }))
  })
`, { eval: true, workerData: file })

const rebuild = (columns: string[], arrays: unknown[][]): Array<Record<string, unknown>> => arrays.map((a) => {
  const row: Record<string, unknown> = {}
  for (let i = 0; i < columns.length; i++) row[columns[i]] = a[i]
  return row
})

const makers = new Map<string, (a: unknown[]) => Record<string, unknown>>()
const shaped = (columns: string[], arrays: unknown[][]): Array<Record<string, unknown>> => {
  const key = columns.join('\u0000')
  let make = makers.get(key)
  if (!make) {
    // eslint-disable-next-line no-new-func
    make = new Function('a', `return { ${columns.map((c, i) => `${JSON.stringify(c)}: a[${i}]`).join(', ')} }`) as (a: unknown[]) => Record<string, unknown>
    makers.set(key, make)
  }
  const out = new Array(arrays.length)
  for (let r = 0; r < arrays.length; r++) out[r] = make(arrays[r])
  return out
}

async function once (how: string, n: number): Promise<Array<Record<string, unknown>>> {
  const reply = await new Promise<any>((resolve) => { worker.once('message', resolve); worker.postMessage({ how: how === 'shaped' ? 'arrays' : how, n }) })
  if (how === 'shaped') return shaped(reply.columns, reply.rows)
  if (how === 'objects') return reply
  if (how === 'arrays') return rebuild(reply.columns, reply.rows)
  if (how === 'json') return JSON.parse(reply)
  const parsed = JSON.parse(reply)
  return rebuild(parsed.columns, parsed.rows)
}

const WAYS = ['objects', 'arrays', 'shaped', 'json', 'jsonArr']
console.log('rows    way      wall ms/answer  event-loop busy ms/answer  process CPU ms/answer')
for (const n of [1, 50, 1000, 20_000]) {
  const reps = Math.max(5, Math.min(2000, Math.round(200_000 / (n * 4))))
  for (const how of WAYS) for (let i = 0; i < 3; i++) await once(how, n) // warm
  for (const how of WAYS) {
    const rows = await once(how, n)
    if (rows.length !== n || Object.keys(rows[0]).length !== COLUMNS + 1) throw new Error(`${how}: wrong rows`)
    const elu0 = performance.eventLoopUtilization()
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < reps; i++) await once(how, n)
    const wall = (performance.now() - t0) / reps
    const busy = performance.eventLoopUtilization(elu0).active / reps
    const cpu = process.cpuUsage(cpu0)
    console.log(`${String(n).padEnd(7)} ${how.padEnd(8)} ${wall.toFixed(3).padStart(14)}  ${busy.toFixed(3).padStart(25)}  ${((cpu.user + cpu.system) / 1000 / reps).toFixed(3).padStart(21)}`)
  }
}
await worker.terminate()
rmSync(dir, { recursive: true, force: true })
