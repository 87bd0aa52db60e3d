// Issue 25 item 5: check's structural pass reads the compiler's record of references, so every
// column the compiled statements name is checked by construction. For both samples and the
// normalised schema generated here, each referenced column is renamed in turn in a scratch
// SQLite copy: check must report a missing column at the place of every reference to it; the
// record also marks the columns statements write (use `write`, renamed and reported alike)
// and the columns they seek rows by, each of which, left without its index, is advised on.
import t from 'tap'
import type { Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openInstallation, openSample, type Installation } from '../../../src/installation.js'
import { structuralFindings, type Finding } from '../../../src/check/index.js'
import { canonical } from '../../../src/check/structure.js'
import { checkIndexes, seeks, type Seek } from '../../../src/check/indexes.js'
import { Findings } from '../../../src/check/findings.js'
import { NORMALISED_MAPPING, normalisedSql } from '../../helpers/normalised-installation.js'

t.setTimeout(600_000)

const dir = mkdtempSync(join(tmpdir(), 'ponte-by-construction-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

async function everyColumnChecked (t: Test, inst: Installation, file: string): Promise<number> {
  t.same((await structuralFindings(inst.compiled, inst.db)).filter((f) => f.severity === 'problem').map((f) => f.message), [], 'the mapping as written fits')
  const { model, references } = inst.compiled
  const columns = new Map<string, { table: string, column: string, paths: string[] }>()
  for (const r of references.list) {
    if (r.column === undefined) continue
    const key = `${r.table.split('.').pop()?.toLowerCase() ?? ''}|${r.column.toLowerCase()}`
    const c = columns.get(key) ?? { table: r.table.split('.').pop() ?? r.table, column: r.column, paths: [] }
    c.paths.push(canonical(model.doc, r.path))
    columns.set(key, c)
  }
  const raw = new BetterSqlite3(file)
  t.teardown(() => raw.close())
  let checked = 0
  for (const { table, column, paths } of columns.values()) {
    const gone = `${column}_gone`
    raw.exec(`ALTER TABLE "${table}" RENAME COLUMN "${column}" TO "${gone}"`)
    try {
      const problems = (await structuralFindings(inst.compiled, inst.db)).filter((f) => f.severity === 'problem' && f.message.startsWith(`column \`${column}\` does not exist in table`))
      for (const path of new Set(paths)) {
        // A place holding a more precise place naming the same column is said there.
        const at = problems.filter((f) => f.path === path || f.path.startsWith(`${path}/`))
        t.ok(at.length > 0 && at.every((f) => f.line !== undefined), `${table}.${column} at ${path}`)
        checked++
      }
    } finally {
      raw.exec(`ALTER TABLE "${table}" RENAME COLUMN "${gone}" TO "${column}"`)
    }
  }
  return checked
}

/**
 * Index advice reads the same record: for every seek it holds (a key read by id, dates, a
 * join's `on`, a search probe, …), with each index leading with its columns dropped from the
 * scratch copy, check advises one at the seek's place naming its table and column; the
 * printed statement then runs and answers it. A rowid or primary key cannot be dropped: such
 * seeks are counted apart.
 */
async function everySeekAdvised (t: Test, inst: Installation, file: string): Promise<{ advised: number, keys: number }> {
  const raw = new BetterSqlite3(file)
  t.teardown(() => raw.close())
  const advice = async (): Promise<Finding[]> => {
    const out = new Findings(inst.model)
    checkIndexes(inst.compiled, await inst.db.introspect.catalog(), out, inst.db.dialect)
    return out.list
  }
  let advised = 0
  let keys = 0
  const all = seeks(inst.compiled).filter((s) => s.lookup !== 'folded')
  const same = (a: Seek, b: Seek): boolean => a.table.toLowerCase() === b.table.toLowerCase() && a.columns.join().toLowerCase() === b.columns.join().toLowerCase()
  for (const seek of all) {
    // One index serves every place seeking the same columns: it is advised at the first of them.
    const places = new Set(all.filter((other) => same(other, seek)).map((other) => other.path))
    const table = seek.table.split('.').pop() ?? seek.table
    const wanted = new Set(seek.columns.map((c) => c.toLowerCase()))
    const leading = raw.prepare('SELECT il.name AS name, il.origin AS origin, m.sql AS sql FROM pragma_index_list(?) AS il JOIN pragma_index_info(il.name) AS ii ON ii.seqno = 0 LEFT JOIN sqlite_master AS m ON m.name = il.name')
      .all(table) as { name: string, origin: string, sql: string | null }[]
    const mine = leading.filter((ix) => wanted.has(String(raw.prepare('SELECT name FROM pragma_index_info(?) WHERE seqno = 0').pluck().get(ix.name)).toLowerCase()))
    const rowid = (raw.prepare('SELECT name FROM pragma_table_info(?) WHERE pk = 1 AND upper(type) = \'INTEGER\'').pluck().all(table) as string[]).some((c) => wanted.has(c.toLowerCase()))
    if (rowid || mine.some((ix) => ix.sql === null)) { keys++; continue }
    for (const ix of mine) raw.exec(`DROP INDEX "${ix.name}"`)
    try {
      const said = (await advice()).filter((f) => places.has(f.path) && seek.columns.some((c) => f.message.startsWith(`column \`${c}\` of table \`${seek.table}\` has no index`)))
      t.equal(said.length, 1, `${seek.table}.${seek.columns.join('|')} advised at ${seek.path}${places.size > 1 ? ` (or another place seeking it: ${places.size})` : ''}`)
      const create = /create one: (CREATE INDEX .*)$/.exec(said[0]?.message ?? '')?.[1]
      if (create) {
        raw.exec(create)
        t.notOk((await advice()).some((f) => f.path === said[0].path && f.message === said[0].message), 'the printed statement answers it')
        raw.exec(`DROP INDEX ${/^CREATE INDEX ("[^"]+")/.exec(create)?.[1] ?? ''}`)
      }
      advised++
    } finally {
      for (const ix of mine) raw.exec(ix.sql as string)
    }
  }
  return { advised, keys }
}

for (const sample of ['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml']) {
  t.test(`${sample}: every referenced column, renamed, is reported at each place naming it`, async (t) => {
    const inst = await openSample(sample, { structural: 'skip' })
    t.teardown(inst.close)
    const n = await everyColumnChecked(t, inst, inst.file)
    t.ok(n > 60, `${n} references checked`)
    t.comment(`${sample}: ${n} column references`)
    const { advised, keys } = await everySeekAdvised(t, inst, inst.file)
    t.ok(advised > 3, `${advised} seeks advised on, ${keys} served by a key that cannot be dropped`)
    t.comment(`${sample}: ${advised} seeks advised on, ${keys} by keys`)
  })
}

t.test('the normalised schema: every referenced column, renamed, is reported at each place naming it', async (t) => {
  const db = join(dir, 'normalised.db')
  const raw = new BetterSqlite3(db)
  raw.exec(normalisedSql())
  raw.close()
  const mapping = join(dir, 'normalised.yaml')
  writeFileSync(mapping, NORMALISED_MAPPING)
  const inst = await openInstallation(mapping, `sqlite:${db}`, undefined, { structural: 'skip' })
  t.teardown(inst.close)
  const n = await everyColumnChecked(t, inst, db)
  t.ok(n > 60, `${n} references checked`)
  t.comment(`normalised: ${n} column references`)
  const { advised, keys } = await everySeekAdvised(t, inst, db)
  t.ok(advised > 3, `${advised} seeks advised on, ${keys} served by a key that cannot be dropped`)
  t.comment(`normalised: ${advised} seeks advised on, ${keys} by keys`)
})
