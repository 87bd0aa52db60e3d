// Clients: never cached (the clinic's desk registers them all day), read by page, by id,
// by exact search, and joined into appointment lists in the same statement.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import { digitsOnly } from '../../sql/dialect.js'
import type { ClientT } from '../../schemas/resources.js'
import type { ClientModel, MappingModel } from '../model.js'
import { normaliseCpf } from '../../normalise/cpf.js'
import { LRUCache } from 'lru-cache'
import { phoneKeys, phoneSearchFragment, toE164, type PhoneOptions } from '../../normalise/phone.js'
import type { SearchKind, TermReading } from '../../normalise/search-term.js'
import { dateOf, textOf, type Decoder } from './decode.js'
import { keyMatch, keyReader, keyRefs, keyArgs } from './key.js'
import type { Bound } from './bind.js'
import { objectFiller, type Row } from './entity.js'
import { Scope } from './scope.js'
import { Columns, valueReader, valueSql, valuesReader } from './value.js'

export type ClientReader = (row: Row) => ClientT | undefined

/** Adds what a client needs to `cols` and returns its reader; used alone or inside a join. */
export function clientReader (model: ClientModel, scope: Scope, cols: Columns, phone: PhoneOptions, params: ParamList): ClientReader {
  const id = keyReader(model.key, scope, cols, `${model.path}/key`)
  const f = model.fields
  const text = (name: string): Decoder<unknown> | undefined => f[name] ? textOf(valueReader(f[name], scope, cols, params)) : undefined
  const decoders: Record<string, Decoder<unknown>> = {}
  for (const name of ['name', 'description', 'image', 'email', 'externalId']) {
    const d = text(name)
    if (d) decoders[name] = d
  }
  if (f.cpf) {
    const read = valueReader(f.cpf, scope, cols, params)
    decoders.cpf = (row) => normaliseCpf(read(row))
  }
  if (f.birthday) decoders.birthday = dateOf(f.birthday, valueReader(f.birthday, scope, cols, params))
  // Built in its final key order (id, name, the other fields, phones), with no copy per row.
  const name = decoders.name
  const fields = objectFiller(Object.entries(decoders).filter(([field]) => field !== 'name'))
  const phones = model.phones.map((p) => valuesReader(p, scope, cols, params))
  const e164 = phoneReader(phone)
  return (row) => {
    const clientId = id(row)
    if (clientId === undefined) return undefined
    const client = { id: clientId, name: (name ? name(row) : undefined) ?? '' } as ClientT
    fields(client as unknown as Row, row)
    let all: PhoneRead[] | undefined
    for (const read of phones) {
      for (const raw of read(row)) {
        const p = e164(raw)
        if (p === undefined) continue
        if (all === undefined) all = [p]
        else if (!all.some((q) => samePhoneRead(q, p))) all.push(p)
      }
    }
    if (all !== undefined) {
      client.phone = all[0].e164
      client.allPhones = all.map((p) => p.e164)
    }
    return client
  }
}

/** A stored phone read: its E.164 form and the keys samePhone compares (normalise/phone.ts). */
interface PhoneRead { e164: string, keys: string[] }

function samePhoneRead (a: PhoneRead, b: PhoneRead): boolean {
  return b.keys.some((k) => a.keys.includes(k))
}

/** Distinct stored phone texts remembered per reader (a clinic's patients' phones, bounded). */
const PHONE_CACHE_SIZE = 20_000

/** toE164 of a stored value, worked out once per distinct stored text (libphonenumber is the costly part of a row). */
function phoneReader (opts: PhoneOptions): (raw: unknown) => PhoneRead | undefined {
  const read = (raw: unknown): PhoneRead | undefined => {
    const e164 = toE164(raw, opts)
    return e164 === undefined ? undefined : { e164, keys: phoneKeys(e164) }
  }
  const cache = new LRUCache<string, PhoneRead | false>({ max: PHONE_CACHE_SIZE })
  return (raw) => {
    if (typeof raw !== 'string') return read(raw)
    const hit = cache.get(raw)
    if (hit !== undefined) return hit === false ? undefined : hit
    const p = read(raw)
    cache.set(raw, p ?? false)
    return p
  }
}

export interface CompiledClients {
  page: Statement
  byId: Statement
  /** The by-id read of one client; undefined when no row can have that id. */
  bindId: (id: string) => Bound | undefined
  bindPage: (page: { limit: number, offset: number }) => Bound
  /** One statement per combination of search kinds a term can be; built on first use. */
  search: (kinds: SearchKind[]) => Statement
  /** The block of search candidates starting at `offset`, for every reading of a term. */
  bindSearch: (readings: TermReading[], offset: number) => Bound
  read: ClientReader
}

/** How many candidates a search prefilter may return before the exact check in JS. */
export const SEARCH_CANDIDATES = 1000

export function compileClients (mapping: MappingModel, dialect: Dialect): CompiledClients {
  const model = mapping.client
  const build = (name: string, extra: (scope: Scope, params: ParamList) => { where: string[], page?: boolean }) => {
    const scope = new Scope(dialect, model, 't')
    const params = new ParamList(dialect)
    const cols = new Columns()
    const read = clientReader(model, scope, cols, mapping.phone, params)
    const where = scope.where(params)
    const more = extra(scope, params)
    const page = more.page ? { limit: params.input('limit', 'int'), offset: params.input('offset', 'int') } : undefined
    const statement: Statement = {
      name,
      sql: dialect.select({ columns: cols.list, from: { table: dialect.table(model.table), alias: 't' }, joins: scope.joins(params), where: [...where, ...more.where], orderBy: keyRefs(model.key, scope, `${model.path}/key`), page }),
      params: params.params
    }
    return { statement, read }
  }
  const page = build('client.page', () => ({ where: [], page: true }))
  const byId = build('client.byId', (scope, params) => ({
    where: [keyMatch(model.key, scope, params, `${model.path}/key`)]
  }))
  const searches = new Map<string, Statement>()
  const clients: CompiledClients = {
    page: page.statement,
    byId: byId.statement,
    bindId (id) {
      const args = keyArgs(model.key, id)
      return args && { statement: byId.statement, args }
    },
    bindPage: ({ limit, offset }) => ({ statement: page.statement, args: { limit, offset } }),
    bindSearch (readings, offset) {
      const args: Record<string, unknown> = { limit: SEARCH_CANDIDATES, offset }
      for (const r of readings) Object.assign(args, prefilterArgs(r))
      return { statement: clients.search(readings.map((r) => r.kind)), args }
    },
    read: page.read,
    search (kinds) {
      const cacheKey = [...kinds].sort().join(',')
      let s = searches.get(cacheKey)
      if (!s) {
        s = build(`client.search[${cacheKey}]`, (scope, params) => ({
          where: [`(${scope.dialect.or(kinds.map((k) => searchPredicate(k, model, scope, params)))})`],
          page: true
        })).statement
        searches.set(cacheKey, s)
      }
      return s
    }
  }
  return clients
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

// Prefilters: each keeps every client the exact JS check could accept, and as few others
// as the legacy column formats allow (stored values are not normalised, so no index helps).
function searchPredicate (kind: SearchKind, model: ClientModel, scope: Scope, params: ParamList): string {
  const d = scope.dialect
  const f = model.fields
  const none = d.never
  switch (kind) {
    case 'phone':
      if (model.phones.length === 0) return none
      return d.or(model.phones.map((p) => d.like(digitsOnly(d, valueSql(p, scope, params)), params.input('phoneFragment', 'text'))))
    case 'cpf':
      return f.cpf ? d.like(digitsOnly(d, valueSql(f.cpf, scope, params)), params.input('cpfFragment', 'text')) : none
    case 'email':
      return f.email ? `${d.lower(d.trim(valueSql(f.email, scope, params)))} = ${params.input('email', 'ntext')}` : none
    case 'name':
      return f.name ? d.foldedLike(valueSql(f.name, scope, params), params.input('namePattern', 'ntext')) : none
  }
}
