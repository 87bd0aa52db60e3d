// Everything a request handler may use, built once per process from config, database and mapping.
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import type { CompiledMapping } from './mapping/compile/index.js'
import { Appointments } from './services/appointments.js'
import { Catalog } from './services/catalog.js'
import { Clients } from './services/clients.js'
import { Lookups } from './services/lookups.js'

export interface Ponte {
  config: Config
  db: Database
  compiled: CompiledMapping
  catalog: Catalog
  lookups: Lookups
  appointments: Appointments
  clients: Clients
}

export function createPonte (config: Config, db: Database, compiled: CompiledMapping): Ponte {
  const catalog = new Catalog(compiled, db)
  const lookups = new Lookups(compiled, db, catalog)
  return {
    config,
    db,
    compiled,
    catalog,
    lookups,
    appointments: new Appointments(compiled, db, catalog, lookups, { maxRangeDays: config.maxRangeDays }),
    clients: new Clients(compiled, db)
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ponte: Ponte
  }
}
