// Opening an installation: mapping file + database → a compiled, connected Ponte.
// Shared by the server, the CLI and the tests, so all three start the same way.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { readMappingFile } from './mapping/load.js'
import { buildModel, type MappingModel } from './mapping/model.js'
import { compileMapping, type CompiledMapping } from './mapping/compile/index.js'
import { connect } from './db/connect.js'
import type { Database } from './db/database.js'
import { createSqliteFromFixture } from './sql/sqlite/load.js'
import { ConfigError, PACKAGE_ROOT } from './config.js'
import { MappingError } from './mapping/errors.js'
import { readCatalog, type LiveCatalog } from './db/columns.js'
import { structuralFindings, type Finding } from './check/index.js'
import { notReady } from './check/not-ready.js'

/** What the structural check compares with the database: the mapping and the compiler's record of what it names. */
type StructuralInput = Pick<CompiledMapping, 'model' | 'references'>

export function loadMapping (file: string): MappingModel {
  return buildModel(readMappingFile(file))
}

/**
 * `refuse` (the server's default): a mapping that names a table or column the database does
 * not have, or a converter that cannot fit its column, stops the start with every place to
 * fix — never a 500 on the first request. `not-ready` (STRUCTURAL_CHECK=not-ready): the
 * installation opens, but its database answers every statement with a 503 (not ready) and
 * `/ready` lists the places to fix — for orchestrators that restart a process that exits.
 * `skip`: `ponte check`, which reports them itself.
 */
export interface OpenOptions { structural?: 'refuse' | 'not-ready' | 'skip' }

/** The structural check failed: the mapping does not fit this database. */
export class MappingMismatchError extends MappingError {
  constructor (readonly findings: Finding[], file: string) {
    super(findings.map((f) => ({ file, path: f.path, line: f.line, column: f.column, message: `${f.subject}: ${f.message}` })))
    const name = relative(process.cwd(), file) || file
    this.message = ['The mapping does not fit the database (run `ponte check` for the full report):',
      ...findings.map((f) => `  ${f.line !== undefined ? `${name}:${f.line}:${f.column ?? 1}: ` : ''}${f.subject}: ${f.message}`)].join('\n')
  }
}

export interface Installation {
  model: MappingModel
  db: Database
  compiled: CompiledMapping
  close: () => Promise<void>
  /** Opened `not-ready`: why the mapping does not fit (its db refuses every statement). */
  mismatch?: Finding[]
  /** The live catalogue the structural check read (none when skipped or unreadable): what the server fits writes to. */
  catalog?: LiveCatalog
}

export async function openInstallation (mappingFile: string, databaseUrl: string, onClose?: () => void, options: OpenOptions = {}): Promise<Installation> {
  return await openModel(loadMapping(mappingFile), databaseUrl, onClose, options)
}

async function openModel (model: MappingModel, databaseUrl: string, onClose?: () => void, options: OpenOptions = {}): Promise<Installation> {
  const db = await connect(databaseUrl)
  try {
    const compiled = compileMapping(model, db.dialect)
    const close = async () => { await db.close(); onClose?.() }
    if (options.structural === 'skip') return { model, db, compiled, close }
    if (options.structural === 'not-ready') {
      const { findings: mismatch, catalog } = await mismatchOf(compiled, db)
      if (mismatch.length > 0) return { model, db: notReady(db, mismatch), compiled, close, mismatch }
      return { model, db, compiled, close, catalog }
    }
    return { model, db, compiled, close, catalog: await refuseMismatch(compiled, db) }
  } catch (err) {
    await db.close()
    onClose?.()
    throw err
  }
}

/**
 * Throws when the catalog shows mistakes; a database that cannot be read now does not stop
 * the start. The catalog read, when it could be: the one the server then works against.
 */
export async function refuseMismatch (compiled: StructuralInput, db: Database): Promise<LiveCatalog | undefined> {
  const { findings, catalog } = await mismatchOf(compiled, db)
  if (findings.length > 0) throw new MappingMismatchError(findings, compiled.model.file)
  return catalog
}

/** The structural problems, and the catalog they were found in; none and none when it cannot be read now (down: /ready says so). */
export async function mismatchOf (compiled: StructuralInput, db: Database): Promise<{ findings: Finding[], catalog?: LiveCatalog }> {
  let catalog: LiveCatalog
  try {
    catalog = await readCatalog(db)
  } catch {
    return { findings: [] } // down or unreadable: /ready says so, the check runs on the next start, and the first write reads it
  }
  return { findings: (await structuralFindings(compiled, db, catalog)).filter((f) => f.severity === 'problem'), catalog }
}

/** The fixture of a sample installation: `mappings/<name>.yaml` ↔ `fixtures/<name>/fixture.json`. */
export function sampleFixture (mappingFile: string): string {
  const name = mappingFile.replace(/\\/g, '/').split('/').pop()?.replace(/\.(ya?ml|json)$/, '') ?? ''
  return resolve(PACKAGE_ROOT, 'fixtures', name, 'fixture.json')
}

/**
 * A fresh SQLite copy of a sample fixture in a temporary folder, removed on close: the
 * repository never gets dirty, and every start begins from the same data.
 */
export async function openSample (mappingFile: string, options: OpenOptions = {}): Promise<Installation & { file: string }> {
  // The mapping first: a mistake in it is said before anything about the database.
  const model = loadMapping(mappingFile)
  const fixture = sampleFixture(mappingFile)
  if (!existsSync(fixture)) {
    throw new ConfigError([`DATABASE_URL is not set and ${mappingFile} is not a bundled sample (it has no ${relative(PACKAGE_ROOT, fixture)}): set DATABASE_URL to the clinic's database`])
  }
  const dir = mkdtempSync(join(tmpdir(), 'ponte-'))
  const file = join(dir, 'sample.db')
  createSqliteFromFixture(fixture, file)
  const inst = await openModel(model, `sqlite:${file}`, () => rmSync(dir, { recursive: true, force: true }), options)
  return { ...inst, file }
}
