// Opening an installation: mapping file + database → a compiled, connected Ponte.
// Shared by the server, the CLI and the tests, so all three start the same way.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { readMappingFile } from './mapping/load.js'
import { buildModel, type MappingModel } from './mapping/model.js'
import { compileMapping, type CompiledMapping } from './mapping/compile/index.js'
import { connect } from './db/connect.js'
import type { Database } from './db/database.js'
import { createSqliteFromFixture } from './sql/sqlite/load.js'
import { PACKAGE_ROOT } from './config.js'
import { MappingError } from './mapping/errors.js'
import { readCatalog, type LiveCatalog } from './db/columns.js'
import { structuralFindings, type Finding } from './check/index.js'

export function loadMapping (file: string): MappingModel {
  return buildModel(readMappingFile(file))
}

/**
 * `refuse` (the server's default): a mapping that names a table or column the database does
 * not have, or a converter that cannot fit its column, stops the start with every place to
 * fix — never a 500 on the first request. `skip`: `ponte check`, which reports them itself.
 */
export interface OpenOptions { structural?: 'refuse' | 'skip' }

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
}

export async function openInstallation (mappingFile: string, databaseUrl: string, onClose?: () => void, options: OpenOptions = {}): Promise<Installation> {
  const model = loadMapping(mappingFile)
  const db = await connect(databaseUrl)
  try {
    const compiled = compileMapping(model, db.dialect)
    if (options.structural !== 'skip') await refuseMismatch(model, db)
    return { model, db, compiled, close: async () => { await db.close(); onClose?.() } }
  } catch (err) {
    await db.close()
    onClose?.()
    throw err
  }
}

/** Throws when the catalog shows mistakes; a database that cannot be read now does not stop the start. */
export async function refuseMismatch (model: MappingModel, db: Database): Promise<void> {
  let catalog: LiveCatalog
  try {
    catalog = await readCatalog(db)
  } catch {
    return // down or unreadable: /ready says so, and the check runs on the next start
  }
  const problems = (await structuralFindings(model, db, catalog)).filter((f) => f.severity === 'problem')
  if (problems.length > 0) throw new MappingMismatchError(problems, model.file)
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
  const dir = mkdtempSync(join(tmpdir(), 'ponte-'))
  const file = join(dir, 'sample.db')
  createSqliteFromFixture(sampleFixture(mappingFile), file)
  const inst = await openInstallation(mappingFile, `sqlite:${file}`, () => rmSync(dir, { recursive: true, force: true }), options)
  return { ...inst, file }
}
