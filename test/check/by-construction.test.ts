// Issue 25 item 5: check's structural pass reads the compiler's record of references, so every
// column the compiled statements name is checked by construction. For both samples and the
// normalised schema generated here, each referenced column is renamed in turn in a scratch
// SQLite copy: check must report a missing column at the place of every reference to it.
import t from 'tap'
import type { Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openInstallation, openSample, type Installation } from '../../src/installation.js'
import { structuralFindings } from '../../src/check/index.js'
import { canonical } from '../../src/check/structure.js'
import { NORMALISED_MAPPING, normalisedSql } from '../helpers/normalised-installation.js'

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

for (const sample of ['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml']) {
  t.test(`${sample}: every referenced column, renamed, is reported at each place naming it`, async (t) => {
    const inst = await openSample(sample, { structural: 'skip' })
    t.teardown(inst.close)
    const n = await everyColumnChecked(t, inst, inst.file)
    t.ok(n > 60, `${n} references checked`)
    t.comment(`${sample}: ${n} column references`)
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
})
