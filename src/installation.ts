// Opening an installation: mapping file + database → a compiled, connected Ponte.
// Shared by the server, the CLI and the tests, so all three start the same way.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { readMappingFile } from './mapping/load.js'
import { buildModel, type MappingModel } from './mapping/model.js'
import { compileMapping, type CompiledMapping } from './mapping/compile/index.js'
import { connect } from './db/connect.js'
import type { Database } from './db/database.js'
import { createSqliteFromFixture } from './fixtures/load.js'

export function loadMapping (file: string): MappingModel {
  return buildModel(readMappingFile(file))
}

export interface Installation {
  model: MappingModel
  db: Database
  compiled: CompiledMapping
  close: () => Promise<void>
}

export async function openInstallation (mappingFile: string, databaseUrl: string, onClose?: () => void): Promise<Installation> {
  const model = loadMapping(mappingFile)
  const db = await connect(databaseUrl)
  try {
    const compiled = compileMapping(model, db.dialect)
    return { model, db, compiled, close: async () => { await db.close(); onClose?.() } }
  } catch (err) {
    await db.close()
    onClose?.()
    throw err
  }
}

/** The fixture of a sample installation: `mappings/<name>.yaml` ↔ `fixtures/<name>/fixture.json`. */
export function sampleFixture (mappingFile: string): string {
  const name = mappingFile.replace(/\\/g, '/').split('/').pop()?.replace(/\.(ya?ml|json)$/, '') ?? ''
  return resolve('fixtures', name, 'fixture.json')
}

/**
 * A fresh SQLite copy of a sample fixture in a temporary folder, removed on close: the
 * repository never gets dirty, and every start begins from the same data.
 */
export async function openSample (mappingFile: string): Promise<Installation & { file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-'))
  const file = join(dir, 'sample.db')
  createSqliteFromFixture(sampleFixture(mappingFile), file)
  const inst = await openInstallation(mappingFile, `sqlite:${file}`, () => rmSync(dir, { recursive: true, force: true }))
  return { ...inst, file }
}
