// Clients: never cached (the clinic's desk registers them all day), read by page, by id,
// by exact search, and joined into appointment lists in the same statement.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import { digitsOnly } from '../../sql/dialect.js'
import type { ClientT } from '../../schemas/resources.js'
import type { ClientModel, MappingModel } from '../model.js'
import { normaliseCpf } from '../../normalise/cpf.js'
import { LRUCache } from 'lru-cache'
import { cpfProbes, CPF_PREFIX_SLOTS } from '../../normalise/cpf.js'
import { phoneKeys, phoneProbes, phoneSearchFragment, toE164, PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS, type PhoneOptions, type Probes } from '../../normalise/phone.js'
import type { SqlTypeName } from '../schema.js'
import type { Value } from '../model.js'
import { prefixArgs, type PrefixPart } from '../../sql/dialect.js'
import type { SearchKind, TermReading } from '../../normalise/search-term.js'
import { dateOf, textOf, type Decoder } from './decode.js'
import { keyMatch, keyReader, keyRefs, keyArgs } from './key.js'
import type { Bound } from './bind.js'
import { objectFiller, type Row } from './entity.js'
import { Scope } from './scope.js'
import { Columns, valueReader, valueSql, valuesReader } from './value.js'
import { conditionSql } from './condition.js'

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

/** Distinct stored phone texts remembered per mapping (a clinic's patients' phones, bounded). */
const PHONE_CACHE_SIZE = 10_000

// One per mapping's phone options, shared by every statement that reads clients (a list shape,
// a search, by id): one bound on memory, not one per statement. A reload builds a new model
// and with it a new cache; the old one goes with the old model.
const phoneReaders = new WeakMap<PhoneOptions, (raw: unknown) => PhoneRead | undefined>()

/** toE164 of a stored value, worked out once per distinct stored text (libphonenumber is the costly part of a row). */
function phoneReader (opts: PhoneOptions): (raw: unknown) => PhoneRead | undefined {
  let reader = phoneReaders.get(opts)
  if (reader === undefined) {
    reader = newPhoneReader(opts)
    phoneReaders.set(opts, reader)
  }
  return reader
}

function newPhoneReader (opts: PhoneOptions): (raw: unknown) => PhoneRead | undefined {
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

/**
 * The client table's columns that lead an index, lower-cased, as the live database declares
 * them: a probed column among them may be probed by the dialect's `inRanges`. Empty (or left
 * out) when unknown: the ranges `equalsAny` and `startsWith` write serve any column.
 */
export type IndexedColumns = ReadonlySet<string>

const NONE: IndexedColumns = new Set()

export interface CompiledClients {
  page: Statement
  byId: Statement
  /** The by-id read kept to the clients `bookable` allows, where the mapping says who. */
  bookable?: Statement
  /** The by-id read of one client; undefined when no row can have that id. */
  bindId: (id: string) => Bound | undefined
  bindPage: (page: { limit: number, offset: number }) => Bound
  /** The by-id read of one client the mapping's `bookable` allows; undefined when it says nothing (or no row can have that id). */
  bindBookable: (id: string) => Bound | undefined
  /**
   * One statement per combination of search kinds a term can be; built on first use. `scan`:
   * phones and CPF by every stored value's digits, not by probes of their spellings.
   */
  search: (kinds: SearchKind[], scan?: boolean, indexed?: IndexedColumns) => Statement
  /** The block of search candidates starting at `offset`, for every reading of a term. */
  bindSearch: (readings: TermReading[], offset: number, scan?: boolean, indexed?: IndexedColumns) => Bound
  /** Whether the search statement can use what `indexed` says (the dialect has `inRanges`). */
  seeksIndexed: boolean
  /** Whether any of these readings is looked up by probes (so a scan could find more). */
  probed: (readings: TermReading[]) => boolean
  read: ClientReader
}

/** How many candidates a search prefilter may return before the exact check in JS. */
export const SEARCH_CANDIDATES = 1000

export function compileClients (mapping: MappingModel, dialect: Dialect): CompiledClients {
  const model = mapping.client
  const build = (name: string, extra: (scope: Scope, params: ParamList) => { where: string[], page?: boolean | number, sortOnly?: boolean }) => {
    const scope = new Scope(dialect, model, 't')
    const params = new ParamList(dialect)
    const cols = new Columns()
    const read = clientReader(model, scope, cols, mapping.phone, params)
    const where = scope.where(params)
    const more = extra(scope, params)
    const limit = typeof more.page === 'number' && dialect.constantLimit === true ? String(more.page) : undefined
    const page = more.page !== undefined && more.page !== false ? { limit: limit ?? params.input('limit', 'int'), offset: params.input('offset', 'int') } : undefined
    const statement: Statement = {
      name,
      sql: dialect.select({ columns: cols.list, from: { table: dialect.table(model.table), alias: 't' }, joins: scope.joins(params), where: [...where, ...more.where], orderBy: keyRefs(model.key, scope, `${model.path}/key`).map((k) => more.sortOnly ? dialect.sortOnly(k) : k), page }),
      params: params.params
    }
    return { statement, read }
  }
  const page = build('client.page', () => ({ where: [], page: true }))
  const byId = build('client.byId', (scope, params) => ({
    where: [keyMatch(model.key, scope, params, `${model.path}/key`)]
  }))
  const bookable = model.bookable.length === 0
    ? undefined
    : build('client.bookable', (scope, params) => ({
      where: [keyMatch(model.key, scope, params, `${model.path}/key`), ...model.bookable.map((b) => conditionSql(b.condition, scope, params, b.path))]
    })).statement
  const searches = new Map<string, Statement>()
  const clients: CompiledClients = {
    page: page.statement,
    byId: byId.statement,
    bookable,
    bindBookable (id) {
      const args = bookable && keyArgs(model.key, id)
      return bookable && args && { statement: bookable, args }
    },
    bindId (id) {
      const args = keyArgs(model.key, id)
      return args && { statement: byId.statement, args }
    },
    bindPage: ({ limit, offset }) => ({ statement: page.statement, args: { limit, offset } }),
    bindSearch (readings, offset, scan = false, indexed = NONE) {
      const args: Record<string, unknown> = { limit: SEARCH_CANDIDATES, offset }
      for (const r of readings) prefilterArgs(args, r, mapping.phone)
      return { statement: clients.search(readings.map((r) => r.kind), scan, indexed), args }
    },
    seeksIndexed: dialect.inRanges !== undefined,
    probed: (readings) => readings.some((r) => (r.kind === 'phone' && model.phones.some((p) => probes(mapping, 'phone', p))) ||
      (r.kind === 'cpf' && model.fields.cpf !== undefined && probes(mapping, 'cpf', model.fields.cpf))),
    read: page.read,
    search (kinds, scan = false, indexed = NONE) {
      const seek = dialect.inRanges === undefined ? [] : [...indexed].sort()
      const cacheKey = [...kinds].sort().join(',') + (scan ? ';scan' : '') + (seek.length > 0 ? `;indexed:${seek.join(',')}` : '')
      let s = searches.get(cacheKey)
      if (!s) {
        const built = build(`client.search[${cacheKey}]`, (scope, params) => ({
          where: [`(${scope.dialect.or(kinds.map((k) => searchPredicate(k, mapping, scope, params, scan, indexed)))})`],
          page: SEARCH_CANDIDATES,
          sortOnly: true
        })).statement
        // Planned per run: the probes' prefixes are patterns a generic plan cannot seek by.
        s = { ...built, planEachRun: true }
        searches.set(cacheKey, s)
      }
      return s
    }
  }
  return clients
}

/** Writes the prefilter's inputs for one reading into `args` (a search binds about a hundred: written once, not copied). */
function prefilterArgs (args: Record<string, unknown>, r: TermReading, phone: PhoneOptions): void {
  switch (r.kind) {
    case 'phone':
      args.phoneFragment = `%${phoneSearchFragment(r.value)}%`
      probeArgs(args, PHONE_INPUTS, phoneProbes(r.value, phone))
      return
    case 'cpf':
      args.cpfFragment = `%${r.value.replace(/^0+/, '')}%`
      args.cpfNumber = Number(r.value)
      probeArgs(args, CPF_INPUTS, cpfProbes(r.value))
      return
    case 'email': args.email = r.value; return
    // Anchored at both ends: the whole name, spacing aside; a first name alone finds no one.
    case 'name': args.namePattern = escapeLike(r.value).split(' ').join('%')
  }
}

/** The input names of a kind's probe placeholders, spelt once rather than on every search. */
interface ProbeInputs {
  exact: { value: string, padded: string }[]
  prefix: Record<PrefixPart, string>[]
}

function probeInputs (kind: 'phone' | 'cpf', exactSlots: number, prefixSlots: number): ProbeInputs {
  return {
    exact: Array.from({ length: exactSlots }, (_, i) => ({ value: `${kind}Exact${i}value`, padded: `${kind}Exact${i}padded` })),
    prefix: Array.from({ length: prefixSlots }, (_, i) => ({ like: `${kind}Prefix${i}like`, low: `${kind}Prefix${i}low`, high: `${kind}Prefix${i}high` }))
  }
}

const PHONE_INPUTS = probeInputs('phone', PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS)
const CPF_INPUTS = probeInputs('cpf', 0, CPF_PREFIX_SLOTS)

// A statement has a fixed number of probe placeholders; a number with fewer spellings repeats
// its first one (a repeated value finds nothing more).
function probeArgs (args: Record<string, unknown>, inputs: ProbeInputs, probes: Probes): void {
  const exact = probes.exact.length > 0 ? probes.exact : probes.prefixes
  for (let i = 0; i < inputs.exact.length; i++) {
    const value = exact[i] ?? exact[0]
    args[inputs.exact[i].value] = value
    args[inputs.exact[i].padded] = `${value}!`
  }
  const prefixes = probes.prefixes.length > 0 ? probes.prefixes : probes.exact
  for (let i = 0; i < inputs.prefix.length; i++) {
    const forms = prefixArgs(prefixes[i] ?? prefixes[0])
    const names = inputs.prefix[i]
    args[names.like] = forms.like
    args[names.low] = forms.low
    args[names.high] = forms.high
  }
}

// LIKE wildcards typed by a caller are literal text in a name, not patterns.
function escapeLike (s: string): string {
  return s.replace(/[%_[\]]/g, '')
}

const NUMERIC: readonly SqlTypeName[] = ['int', 'bigint', 'smallint', 'decimal']
const TEXTUAL: readonly SqlTypeName[] = ['text', 'ntext', 'char', 'nchar']

/**
 * Whether a phone or CPF value can be probed: a stored column read as it is (a `collect`, a
 * template, rules or SQL have no stored spelling to look up; a `map` changes it). A phone
 * column the mapping types as a number is scanned: its spellings are not text.
 */
export function probeable (v: Value, kind: 'phone' | 'cpf'): boolean {
  if (v.column === undefined || v.map !== undefined || v.sql !== undefined) return false
  return kind === 'cpf' || v.type === undefined || TEXTUAL.includes(v.type)
}

/** Whether the search of this kind probes (else scans) the value, per the mapping's choice. */
export function probes (mapping: Pick<MappingModel, 'searchBy'>, kind: 'phone' | 'cpf', v: Value): boolean {
  return mapping.searchBy[kind] === 'probe' && probeable(v, kind)
}

// Probes (issue 13): the stored column compared with the spellings the term can take, as
// `IN (…)` and prefix matches an index on the column seeks. Scans (`search: [{ phone: scan }]`,
// or values that are no plain column): every stored value's digits, read through the table.
function probeSql (kind: 'phone' | 'cpf', v: Value, scope: Scope, params: ParamList, table: string, indexed: IndexedColumns): string {
  const d = scope.dialect
  const column = v.column as string
  const numeric = kind === 'cpf' && v.type !== undefined && NUMERIC.includes(v.type)
  const col = scope.ref(column, `${v.path}/column`, 'filter', { value: v, probe: kind, lookup: numeric ? 'equal' : 'prefix' })
  if (numeric) return `${col} = ${params.input('cpfNumber', 'bigint')}`
  const type: SqlTypeName = v.type !== undefined && TEXTUAL.includes(v.type) ? v.type : 'text'
  const exactSlots = kind === 'phone' ? PHONE_EXACT_SLOTS : 0
  const prefixSlots = kind === 'phone' ? PHONE_PREFIX_SLOTS : CPF_PREFIX_SLOTS
  // A column of the client's own table (a joined one is not `table`'s).
  if (d.inRanges !== undefined && !column.includes('.') && indexed.has(column.toLowerCase())) {
    const input = (name: string): string => params.input(name, type)
    return d.inRanges(col, table, column, Array.from({ length: exactSlots }, (_, i) => input(`${kind}Exact${i}value`)),
      Array.from({ length: prefixSlots }, (_, i) => [input(`${kind}Prefix${i}low`), input(`${kind}Prefix${i}high`)]))
  }
  const terms: string[] = []
  if (exactSlots > 0) terms.push(d.equalsAny(col, Array.from({ length: exactSlots }, (_, i) => (part: 'value' | 'padded') => params.input(`${kind}Exact${i}${part}`, type))))
  for (let i = 0; i < prefixSlots; i++) terms.push(d.startsWith(col, (part) => params.input(`${kind}Prefix${i}${part}`, type)))
  return `(${d.or(terms)})`
}

// Prefilters: each keeps every client the exact JS check could accept (the check in JS after
// them stays: search is exact).
function searchPredicate (kind: SearchKind, mapping: MappingModel, scope: Scope, params: ParamList, scan: boolean, indexed: IndexedColumns): string {
  const model = mapping.client
  const d = scope.dialect
  const f = model.fields
  const none = d.never
  switch (kind) {
    case 'phone':
      if (model.phones.length === 0) return none
      return d.or(model.phones.map((p) => !scan && probes(mapping, 'phone', p)
        ? probeSql('phone', p, scope, params, d.table(model.table), indexed)
        : d.like(digitsOnly(d, valueSql(p, scope, params)), params.input('phoneFragment', 'text'))))
    case 'cpf':
      if (!f.cpf) return none
      return !scan && probes(mapping, 'cpf', f.cpf) ? probeSql('cpf', f.cpf, scope, params, d.table(model.table), indexed) : d.like(digitsOnly(d, valueSql(f.cpf, scope, params)), params.input('cpfFragment', 'text'))
    case 'email':
      return f.email ? `${d.lower(d.trim(valueSql(f.email, scope, params, false, 'folded')))} = ${params.input('email', 'ntext')}` : none
    case 'name':
      return f.name ? d.foldedLike(valueSql(f.name, scope, params), params.input('namePattern', 'ntext')) : none
  }
}
