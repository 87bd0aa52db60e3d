// Reading clients: pages, details and the exact search the caller uses to recognise who
// is writing (design notes §1: phone, CPF, e-mail, name on normalised values).
import type { Arrival, Database, Querier } from '../db/database.js'
import type { CompiledMapping, IndexedColumns } from '../mapping/compile/index.js'
import { SEARCH_CANDIDATES } from '../mapping/compile/index.js'
import type { ClientT } from '../schemas/resources.js'
import { classifyTerm, type TermReading } from '../normalise/search-term.js'
import { samePhone } from '../normalise/phone.js'
import { foldName, normaliseEmail } from '../normalise/text.js'
import { ConflictError, DatabaseTimeoutError, InvalidInputError, NotFoundError, unknownId } from '../errors.js'
import { carryingId } from './ids.js'
import { indexLeaders } from '../db/columns.js'
import { KnownCatalog } from '../db/known-catalog.js'

export interface Page { limit: number, offset: number }

/**
 * At most this many blocks of SEARCH_CANDIDATES candidates (20,000 rows) are read for one
 * search, each one statement under the statement timeout. A phone or CPF probe brings a handful
 * of rows; a name prefilter ('maria%silva') can bring thousands that the exact check then drops.
 * Past the bound the search is answered 504 rather than cut short: a partial answer could
 * leave out the client asked for (search is exact).
 */
export const MAX_SEARCH_BLOCKS = 20

export class Clients {
  private indexed?: Promise<IndexedColumns>

  /** `live`: the served mapping's catalogue (ponte.ts); its own read of the database's without one. */
  constructor (private readonly compiled: CompiledMapping, private readonly db: Database, private readonly live = new KnownCatalog(db)) {}

  async list (page: Page, at: Arrival): Promise<ClientT[]> {
    const { statement, args } = this.compiled.clients.bindPage(page)
    return this.readAll(await this.db.query(statement, args, at))
  }

  /** `via`: a transaction to read in (a write reading back what it stored). */
  async get (id: string, at: Arrival, via: Querier = this.db): Promise<ClientT> {
    const bound = this.compiled.clients.bindId(id)
    const rows = bound ? await via.query(bound.statement, bound.args, at) : []
    const [client] = carryingId(this.readAll(rows), id, (c) => c.id)
    if (!client) throw unknownId('client', id)
    return client
  }

  async exists (id: string, at: Arrival): Promise<boolean> {
    try {
      await this.get(id, at)
      return true
    } catch (err) {
      if (err instanceof NotFoundError) return false
      throw err
    }
  }

  /**
   * Refuses a new appointment for a client the mapping's `bookable` leaves out (an inactive or
   * deceased patient), read on `via`, the booking's transaction: a status the desk changed
   * meanwhile counts.
   */
  async refuseUnbookable (id: string, at: Arrival, via: Querier): Promise<void> {
    if (await this.bookable(id, at, via)) return
    throw new ConflictError(`Client "${id}" takes no new appointments: the clinic's record of them fails the mapping's \`resources.client.bookable\` (an inactive or deceased patient). Their existing appointments are kept. Nothing was written.`,
      [{ path: '/body/client', message: 'takes no new appointments (resources.client.bookable)' }])
  }

  /** Whether the mapping's `bookable` allows new appointments for this client (it does where it says nothing). */
  async bookable (id: string, at: Arrival, via: Querier = this.db): Promise<boolean> {
    const bound = this.compiled.clients.bindBookable(id)
    if (bound === undefined) return true
    return carryingId(this.readAll(await via.query(bound.statement, bound.args, at)), id, (c) => c.id).length > 0
  }

  async search (term: string, page: Page, at: Arrival): Promise<ClientT[]> {
    const { search, phone } = this.compiled.model
    if (term.trim() === '') throw new InvalidInputError('The search term is empty.', [{ path: '/querystring/term', message: 'must not be blank' }])
    // Search is exact: a term no enabled kind can read (a phone with a digit missing) is a
    // term nobody holds, an answer the caller acts on ("no such client, create one").
    const readings = classifyTerm(term, search, phone)
    if (readings.length === 0) return []
    // Probes find a phone or CPF by the spellings it can be stored in, with an index seek. A
    // number they find nobody holding is looked for again in every stored value's digits: a
    // spelling nobody foresaw must not make the caller register a duplicate patient. So an
    // unknown number costs the old scan; a known one, a seek (docs/decisions/search-probes.md).
    const found = await this.candidates(readings, page, false, at)
    if (found.length > 0 || !this.compiled.clients.probed(readings)) return found
    return await this.candidates(readings, page, true, at)
  }

  // Candidates come a block at a time (in key order) until the page is full or they run
  // out: one statement for any ordinary term, and no exact match lost behind a cap.
  private async candidates (readings: TermReading[], page: Page, scan: boolean, at: Arrival): Promise<ClientT[]> {
    const indexed = scan ? undefined : await this.indexedColumns(at)
    const exact: ClientT[] = []
    for (let offset = 0; ; offset += SEARCH_CANDIDATES) {
      if (offset >= MAX_SEARCH_BLOCKS * SEARCH_CANDIDATES) throw new DatabaseTimeoutError(`The search term matches more than ${MAX_SEARCH_BLOCKS * SEARCH_CANDIDATES} stored values before the exact check; search by a phone, a CPF or the whole name.`)
      const { statement, args } = this.compiled.clients.bindSearch(readings, offset, scan, indexed)
      const rows = await this.db.query(statement, args, at)
      exact.push(...this.readAll(rows).filter((client) => readings.some((r) => matches(client, r))))
      if (rows.length < SEARCH_CANDIDATES || exact.length >= page.offset + page.limit) break
    }
    return exact.slice(page.offset, page.offset + page.limit)
  }

  // From the served mapping's catalogue (read at start-up or reload, or on first need when the
  // database was down then). Unknown (the read failed) is no index: the probes every column
  // serves, and read again on the next search.
  private async indexedColumns (at: Arrival): Promise<IndexedColumns> {
    if (!this.compiled.clients.seeksIndexed) return new Set()
    if (this.indexed === undefined) {
      const read = this.live.get(at).then((catalog) => indexLeaders(catalog.table(this.compiled.model.client.table)))
      this.indexed = read
      read.catch(() => { if (this.indexed === read) this.indexed = undefined })
    }
    return await this.indexed.catch(() => new Set<string>())
  }

  private readAll (rows: Record<string, unknown>[]): ClientT[] {
    const read = this.compiled.clients.read
    return rows.flatMap((row) => read(row) ?? [])
  }
}

function matches (client: ClientT, r: TermReading): boolean {
  switch (r.kind) {
    case 'phone': return (client.allPhones ?? []).some((p) => samePhone(p, r.value))
    case 'cpf': return client.cpf === r.value
    case 'email': return normaliseEmail(client.email) === r.value
    case 'name': return foldName(client.name) === r.value
  }
}
