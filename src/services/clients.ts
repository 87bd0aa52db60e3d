// Reading clients: pages, details and the exact search the caller uses to recognise who
// is writing (design notes §1: phone, CPF, e-mail, name on normalised values).
import type { Database } from '../db/database.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import { SEARCH_CANDIDATES } from '../mapping/compile/client.js'
import type { ClientT } from '../schemas/resources.js'
import { classifyTerm, type TermReading } from '../normalise/search-term.js'
import { phoneSearchFragment, samePhone } from '../normalise/phone.js'
import { foldName, normaliseEmail } from '../normalise/text.js'
import { InvalidInputError, NotFoundError } from '../errors.js'
import { keyArgs } from '../mapping/compile/key.js'
import { carryingId } from './ids.js'

export interface Page { limit: number, offset: number }

export class Clients {
  constructor (private readonly compiled: CompiledMapping, private readonly db: Database) {}

  async list (page: Page): Promise<ClientT[]> {
    const c = this.compiled.clients
    return this.readAll(await this.db.query(c.page, { limit: page.limit, offset: page.offset }))
  }

  async get (id: string): Promise<ClientT> {
    const args = keyArgs(this.compiled.model.client.key, id)
    const rows = args ? await this.db.query(this.compiled.clients.byId, args) : []
    const [client] = carryingId(this.readAll(rows), id, (c) => c.id)
    if (!client) throw new NotFoundError(`No client with id "${id}".`)
    return client
  }

  async exists (id: string): Promise<boolean> {
    try {
      await this.get(id)
      return true
    } catch (err) {
      if (err instanceof NotFoundError) return false
      throw err
    }
  }

  async search (term: string, page: Page): Promise<ClientT[]> {
    const { search, phone } = this.compiled.model
    if (term.trim() === '') throw new InvalidInputError('The search term is empty.', [{ path: '/querystring/term', message: 'must not be blank' }])
    // Search is exact: a term no enabled kind can read (a phone with a digit missing) is a
    // term nobody holds, an answer the caller acts on ("no such client, create one").
    const readings = classifyTerm(term, search, phone)
    if (readings.length === 0) return []
    const statement = this.compiled.clients.search(readings.map((r) => r.kind))
    const args: Record<string, unknown> = { limit: SEARCH_CANDIDATES, offset: 0 }
    for (const r of readings) Object.assign(args, prefilterArgs(r))
    // Candidates come a block at a time (in key order) until the page is full or they run
    // out: one statement for any ordinary term, and no exact match lost behind a cap.
    const exact: ClientT[] = []
    for (;;) {
      const rows = await this.db.query(statement, args)
      exact.push(...this.readAll(rows).filter((client) => readings.some((r) => matches(client, r))))
      if (rows.length < SEARCH_CANDIDATES || exact.length >= page.offset + page.limit) break
      args.offset = (args.offset as number) + SEARCH_CANDIDATES
    }
    return exact.slice(page.offset, page.offset + page.limit)
  }

  private readAll (rows: Record<string, unknown>[]): ClientT[] {
    const read = this.compiled.clients.read
    return rows.flatMap((row) => read(row) ?? [])
  }
}

function prefilterArgs (r: TermReading): Record<string, unknown> {
  switch (r.kind) {
    case 'phone': return { phoneFragment: `%${phoneSearchFragment(r.value)}%` }
    case 'cpf': return { cpfFragment: `%${r.value.replace(/^0+/, '')}%` }
    case 'email': return { email: r.value }
    // Anchored at both ends: the whole name, spacing aside; a first name alone finds no one.
    case 'name': return { namePattern: escapeLike(r.value).split(' ').join('%') }
  }
}

// LIKE wildcards typed by a caller are literal text in a name, not patterns.
function escapeLike (s: string): string {
  return s.replace(/[%_[\]]/g, '')
}

function matches (client: ClientT, r: TermReading): boolean {
  switch (r.kind) {
    case 'phone': return (client.allPhones ?? []).some((p) => samePhone(p, r.value))
    case 'cpf': return client.cpf === r.value
    case 'email': return normaliseEmail(client.email) === r.value
    case 'name': return foldName(client.name) === r.value
  }
}
