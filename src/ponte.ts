// Everything a request handler may use, built once per process from config, database and mapping.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import type { CompiledMapping } from './mapping/compile/index.js'
import { Appointments } from './services/appointments.js'
import { Catalog } from './services/catalog.js'
import { Clients } from './services/clients.js'
import { Lookups } from './services/lookups.js'
import { Availability } from './services/availability.js'
import { ClientWrites } from './services/client-writes.js'
import { Booking } from './services/booking.js'
import { PonteMetrics } from './metrics/registry.js'
import { instrumentDatabase } from './metrics/database.js'
import { fittingWrites } from './db/column-values.js'
import { KnownCatalog } from './db/known-catalog.js'
import type { LiveCatalog } from './db/columns.js'

export interface Ponte {
  config: Config
  /** The database as opened (or guarded when not ready): what a reload builds the next Ponte on. */
  raw: Database
  /** The database as services see it: every statement timed (metrics/database.ts), written values fitted (db/column-values.ts). */
  db: Database
  /** Outlives a mapping reload: counters keep counting across swaps. */
  metrics: PonteMetrics
  /** SHA-256 (hex) of the mapping file this Ponte was compiled from: /ready shows which one is served. */
  mappingHash: string | undefined
  compiled: CompiledMapping
  catalog: Catalog
  lookups: Lookups
  appointments: Appointments
  clients: Clients
  /** Free slots and working hours (answers "not mapped" itself when the mapping has no availability). */
  availability: Availability
  clientWrites: ClientWrites
  booking: Booking
}

/** `schema`: the live catalogue start-up or the reload read for this mapping (read on first need without it). */
export function createPonte (config: Config, raw: Database, compiled: CompiledMapping, metrics = new PonteMetrics(), schema?: LiveCatalog): Ponte {
  // Written values in their live columns' kinds, against this mapping's catalogue (db/column-values.ts).
  const live = new KnownCatalog(raw, schema)
  const timed = instrumentDatabase(raw, metrics)
  // Each writer writes tables that cannot roll back only where its resource's mapping accepts it (db/non-transactional.ts).
  const fitted = (accept: boolean): Database => fittingWrites(timed, async (at) => await live.get(at), accept)
  const db = fitted(false)
  const accepts = (write: { nonTransactional?: string } | undefined): boolean => write?.nonTransactional === 'accept'
  let mappingHash: string | undefined
  try { mappingHash = createHash('sha256').update(readFileSync(compiled.model.file)).digest('hex') } catch { mappingHash = undefined }
  const catalog = new Catalog(compiled, db)
  const clients = new Clients(compiled, db, live)
  const lookups = new Lookups(compiled, db, catalog, clients)
  const appointments = new Appointments(compiled, db, catalog, lookups, { maxRangeDays: config.maxRangeDays, streamHoldMs: config.streamHoldMs })
  const free = compiled.model.states.free
  const availability = new Availability(compiled, db, catalog, { freeing: free })
  metrics.observe({
    catalogue: () => ({ loadedAt: catalog.loadedAt, failures: catalog.failures, hits: catalog.hits, misses: catalog.misses }),
    ping: async () => { await raw.ping() },
    pool: () => raw.pool?.()
  })
  return {
    config,
    raw,
    db,
    metrics,
    mappingHash,
    compiled,
    catalog,
    lookups,
    appointments,
    clients,
    availability,
    clientWrites: new ClientWrites(compiled, accepts(compiled.model.client.write) ? fitted(true) : db, catalog, clients, live),
    booking: new Booking(compiled, accepts(compiled.model.appointment.write) ? fitted(true) : db, catalog, clients, appointments, availability, { refusePast: !config.allowPastBookings, freeing: free })
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ponte: Ponte
  }
}
