// `ponte check`: the mapping against the live database, in three passes — the catalog (every
// table and column named exists, converters fit the types, writes can fill every required
// column), then every statement the server can run, probed inside rolled-back transactions,
// then the stored data (repeated keys, multiplying joins, unmapped codes, unreadable values).
// A mistake is reported once, at its line in the mapping; "passed" only when no pass found any.
import { relative } from 'node:path'
import type { Installation } from '../installation.js'
import type { MappingModel } from '../mapping/model.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import type { Database } from '../db/database.js'
import { readCatalog, type LiveCatalog } from '../db/columns.js'
import { todayIn } from '../normalise/datetime.js'
import { Findings, formatFinding, type Finding } from './findings.js'
import { checkStructure } from './structure.js'
import { checkSqliteCodePage } from './sqlite-code-page.js'
import { checkWrites } from './write-shape.js'
import { checkColumnValues, checkCountedKeys } from './values.js'
import { checkHistoryKey } from './history-key.js'
import { checkIndexes } from './indexes.js'
import { checkFoldedSearch } from './folded-search.js'
import { checkWrittenConstants } from './literals.js'
import { checkCopiedColumns } from './copied-columns.js'
import { checkOldSpellings } from './old-spellings.js'
import { probeStatements } from './probes.js'
import { checkData } from './data.js'
import { probeWrites } from './write-probe.js'
import { checkOwnedJoins, declaredReferences } from './owned-joins.js'
import { checkClientOwned } from './client-owned.js'
import { checkNonTransactional } from './non-transactional.js'
import { checkChanges } from './changes.js'
import { checkStampSpellings } from './stamp-spellings.js'
import { checkHoursOverlap } from './hours-overlap.js'

export { type Finding } from './findings.js'

export interface CheckReport {
  ok: boolean
  findings: Finding[]
  /** The report as printed: one line per finding, then the verdict. */
  lines: string[]
}

export interface CheckOptions {
  today?: string
  /** Time for the whole-table scans (ms); default 30 s (`--scan-seconds`). */
  budgetMs?: number
  progress?: (what: string) => void
  /** How far a long scan is (`scanning appointments: 40,000 of 120,000 rows`), and where one was cut short. */
  scanProgress?: (line: string) => void
  /** Rows per scan batch (default 1000). */
  batchRows?: number
  /** How often a long scan reports how far it is (ms; default 2000). */
  progressEveryMs?: number
  /** The clock scans are timed by (default Date.now). */
  now?: () => number
  /** Perform each write path in a rolled-back transaction and compare the stored rows (default true; `--no-write-probe`). */
  writeProbe?: boolean
}

/**
 * The catalog pass alone: what the server runs before it listens. Names and converters only:
 * a write that leaves a required column empty is refused per request (a 4xx naming it), so
 * `check` reports it but it does not keep a read-only deployment from starting.
 */
export async function structuralFindings (compiled: Pick<CompiledMapping, 'model' | 'references'>, db: Database, catalog?: LiveCatalog): Promise<Finding[]> {
  const model = compiled.model
  const out = new Findings(model)
  const live = catalog ?? await readCatalog(db)
  checkStructure(compiled, live, out)
  checkWrittenConstants(model, live, out)
  checkCopiedColumns(model, live, out)
  return out.list
}

export async function checkInstallation (inst: Installation, todayOrOptions: string | CheckOptions = {}): Promise<CheckReport> {
  const opts = typeof todayOrOptions === 'string' ? { today: todayOrOptions } : todayOrOptions
  const { model, compiled, db } = inst
  const today = opts.today ?? todayIn(model.timezone)
  const out = new Findings(model)
  opts.progress?.('reading the database catalog')
  const catalog = await readCatalog(db)
  checkStructure(compiled, catalog, out)
  checkWrittenConstants(model, catalog, out)
  checkCopiedColumns(model, catalog, out)
  checkOldSpellings(model, out)
  checkIndexes(compiled, catalog, out, db.dialect)
  await checkFoldedSearch(compiled, catalog, db, out)
  checkWrites(model, compiled.writes, catalog, out)
  checkSqliteCodePage(model, catalog, db.dialect, out)
  await checkStampSpellings(compiled, db, catalog, out)
  checkColumnValues(compiled, catalog, out)
  const references = await declaredReferences(db)
  checkOwnedJoins(compiled, catalog, references, out)
  checkClientOwned(compiled, out)
  opts.progress?.('running every statement (rolled back)')
  const probed = await probeStatements(compiled, db, today, out, opts.writeProbe !== false, catalog)
  out.ok('', opts.writeProbe === false
    ? `${probed.ran} statements ran (reads only: ${probed.skipped} write statements not run, --no-write-probe)`
    : `${probed.ran} statements ran (writes rolled back${probed.skipped > 0 ? `; ${probed.skipped} writing tables that cannot roll back not run` : ''})`)
  await checkChanges(compiled, db, catalog, today, out, opts.writeProbe !== false)
  await checkCountedKeys(model, compiled.writes, db, out)
  await checkHistoryKey(model, db, catalog, out)
  await checkHoursOverlap(compiled, db, catalog, today, out)
  if (opts.writeProbe === false) out.notProven('', 'writes not proven: the write probe was turned off (--no-write-probe)')
  else {
    opts.progress?.('performing every write path (rolled back)')
    await probeWrites(compiled, db, catalog, today, out, references)
  }
  checkNonTransactional(compiled, catalog, out)
  await checkData(compiled, db, out, {
    budgetMs: opts.budgetMs ?? 30_000, progress: opts.progress, scanProgress: opts.scanProgress, catalog, batchRows: opts.batchRows, progressEveryMs: opts.progressEveryMs, now: opts.now, today
  })
  return report(model, out)
}

const unproven = (n: number): string => n === 1 ? 'one write path' : `${n} write paths`

export function report (model: MappingModel, out: Findings): CheckReport {
  const file = relative(process.cwd(), model.file) || model.file
  const order = { problem: 0, warning: 1, ok: 2 }
  const findings = [...out.list].sort((a, b) => order[a.severity] - order[b.severity] || (a.line ?? 0) - (b.line ?? 0))
  const problems = out.problems.length
  const lines = [
    `mapping ${file}: valid (installation ${model.installation})`,
    ...findings.map((f) => formatFinding(file, f)),
    problems > 0
      ? `check found ${problems} problem${problems === 1 ? '' : 's'}`
      // A path not performed is not passed: the verdict says so, so nobody reads it as proven.
      : out.unproven > 0 ? `check passed, but ${unproven(out.unproven)} not proven: see the ! lines above` : 'check passed'
  ]
  return { ok: problems === 0, findings, lines }
}
