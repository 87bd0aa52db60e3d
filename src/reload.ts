// Hot reload (SIGHUP, server.ts): the mapping file is read again, compiled, checked against
// the live database (the same structural check as at start, whose catalogue read replaces the
// old one for fitting writes) and its lookup catalogue loaded; only
// then is the new Ponte swapped in, in one assignment (app.ts: `app.ponte` is a getter). A
// request in flight keeps the Ponte it started with; a mapping that fails at any step leaves
// the old one serving and says why in the log. A server started not ready
// (STRUCTURAL_CHECK=not-ready) is what a reload is for: a corrected mapping makes it ready, a
// still-broken one keeps it not ready with the new findings on /ready.
import type { FastifyInstance } from 'fastify'
import { createPonte, type Ponte } from './ponte.js'
import { loadMapping, mismatchOf, refuseMismatch } from './installation.js'
import { compileMapping } from './mapping/compile/index.js'
import { safeError } from './logging.js'
import { MappingError } from './mapping/errors.js'
import { guardedBy, notReady } from './check/not-ready.js'

export type ReloadOutcome = { ok: true, hash: string | undefined, changed: boolean, ready: boolean } | { ok: false, reason: string }

export async function reloadMapping (app: FastifyInstance): Promise<ReloadOutcome> {
  const current = app.ponte
  const file = current.compiled.model.file
  try {
    const model = loadMapping(file)
    const compiled = compileMapping(model, current.db.dialect)
    // Not ready: the database behind the refusals, checked against the new mapping.
    const guarded = await guardedBy(current.raw)
    // A reload often follows a change to the schema: statements are prepared afresh.
    const served = guarded ?? current.raw
    served.forgetPrepared?.()
    let next: Ponte
    if (guarded) {
      const { findings, catalog } = await mismatchOf(compiled, guarded)
      if (findings.length > 0) {
        swap(app, current, createPonte(current.config, notReady(guarded, findings), compiled, current.metrics))
        app.log.error({ mappingHash: app.ponte.mappingHash, problems: findings.length }, 'mapping reloaded; it still does not fit the database: not ready (GET /ready lists the places to fix)')
        return { ok: true, hash: app.ponte.mappingHash, changed: app.ponte.mappingHash !== current.mappingHash, ready: false }
      }
      next = createPonte(current.config, guarded, compiled, current.metrics, catalog)
    } else {
      // The catalogue just read replaces the old one: writes are fitted to columns as they are now.
      next = createPonte(current.config, current.raw, compiled, current.metrics, await refuseMismatch(compiled, current.raw))
    }
    // Every lookup statement runs once before the swap: a mapping the database cannot answer
    // (or a database that is down right now) keeps the old one.
    await next.catalog.snapshot(undefined)
    swap(app, current, next)
    const changed = next.mappingHash !== current.mappingHash
    app.log.info({ mappingHash: next.mappingHash, changed, ...(guarded ? { ready: true } : {}) }, guarded ? 'mapping reloaded; it fits the database: ready' : 'mapping reloaded')
    return { ok: true, hash: next.mappingHash, changed, ready: true }
  } catch (err) {
    current.metrics.reloads.inc({ outcome: 'failed' })
    // A MappingError names the file, the place in it and what was expected: what clinic IT
    // needs, and no patient data. Anything else is logged through the allow-list.
    const reason = err instanceof MappingError ? err.message : 'the new mapping could not be used against the database (see err)'
    app.log.error({ err: safeError(err), mappingHash: current.mappingHash }, `mapping reload failed; still serving the previous mapping: ${reason}`)
    return { ok: false, reason }
  }
}

function swap (app: FastifyInstance, current: Ponte, next: Ponte): void {
  app.swapPonte(next)
  current.metrics.reloads.inc({ outcome: 'ok' })
}
