// The live catalogue one served mapping works against (fitting written values, a key's
// columns, search's indexes). Start-up and each reload read it whole for the structural check
// and hand it on here, so a process reads it once per mapping it serves and a reload after a
// column change sees the change. Read on first need only when that read failed (the database
// was down), and again after a failed read.
import { DatabaseUnavailableError, PonteError } from '../errors.js'
import type { Arrival, Database } from './database.js'
import type { LiveCatalog } from './columns.js'

export class KnownCatalog {
  private read: Promise<LiveCatalog> | undefined

  constructor (private readonly db: Pick<Database, 'introspect'>, known?: LiveCatalog) {
    if (known !== undefined) this.read = Promise.resolve(known)
  }

  /** `at`: the arrival of the request that needs it. Unreadable: the database's own 503/504, or a 503 (a login refused the catalogue). */
  async get (at: Arrival): Promise<LiveCatalog> {
    const read = (this.read ??= this.db.introspect.catalog(at))
    try {
      return await read
    } catch (err) {
      if (this.read === read) this.read = undefined
      throw err instanceof PonteError ? err : new DatabaseUnavailableError('The clinic database\'s catalogue cannot be read right now.', err)
    }
  }
}
