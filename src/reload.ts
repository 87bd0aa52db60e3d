// Hot reload (SIGHUP, server.ts): the mapping file is read again, compiled, checked against
// the live database (the same structural check as at start) and its catalogue loaded; only
// then is the new Ponte swapped in, in one assignment (app.ts: `app.ponte` is a getter). A
// request in flight keeps the Ponte it started with; a mapping that fails at any step leaves
// the old one serving and says why in the log.
import type { FastifyInstance } from 'fastify'
import { createPonte } from './context.js'
import { loadMapping, refuseMismatch } from './installation.js'
import { compileMapping } from './mapping/compile/index.js'
import { safeError } from './logging.js'
import { MappingError } from './mapping/errors.js'

export type ReloadOutcome = { ok: true, hash: string | undefined, changed: boolean } | { ok: false, reason: string }

export async function reloadMapping (app: FastifyInstance): Promise<ReloadOutcome> {
  const current = app.ponte
  const file = current.compiled.model.file
  try {
    const model = loadMapping(file)
    const compiled = compileMapping(model, current.db.dialect)
    await refuseMismatch(model, current.db)
    const next = createPonte(current.config, current.db, compiled, current.metrics)
    // Every lookup statement runs once before the swap: a mapping the database cannot answer
    // (or a database that is down right now) keeps the old one.
    await next.catalog.snapshot()
    app.swapPonte(next)
    current.metrics.reloads.inc({ outcome: 'ok' })
    const changed = next.mappingHash !== current.mappingHash
    app.log.info({ mappingHash: next.mappingHash, changed }, 'mapping reloaded')
    return { ok: true, hash: next.mappingHash, changed }
  } catch (err) {
    current.metrics.reloads.inc({ outcome: 'failed' })
    // A MappingError names the file, the place in it and what was expected: what clinic IT
    // needs, and no patient data. Anything else is logged through the allow-list.
    const reason = err instanceof MappingError ? err.message : 'the new mapping could not be used against the database (see err)'
    app.log.error({ err: safeError(err), mappingHash: current.mappingHash }, `mapping reload failed; still serving the previous mapping: ${reason}`)
    return { ok: false, reason }
  }
}
