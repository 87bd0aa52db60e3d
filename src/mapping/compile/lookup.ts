// Lookup resources (professionals, locations, services, health insurances, specialties):
// read whole, once per cache refresh, and served from memory.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { LookupModel, LookupName, Value } from '../model.js'
import { booleanOf, idOf, minutesOf, numberOf, textOf, type Decoder } from './decode.js'
import { keyArgs, keyMatch, keyReader, keyRefs } from './key.js'
import { columnGetter, objectReader, type Row } from './entity.js'
import { Scope } from './scope.js'
import { Columns, valueReader, type Reader } from './value.js'
import { spelledOtherwise, type DecimalMark } from '../../normalise/decimal.js'

export interface LookupRecord {
  id: string
  enabled: boolean
  entity: Record<string, unknown> & { id: string }
  /** The required field read blank on this row and answered with a stand-in (for `ponte check` to count). */
  stoodIn?: string
  /** The `enabled` column as stored, as text (for `ponte check` to tell a flag read one way whatever it holds). */
  flag?: string
  /** Columns of the row a booking copies as stored (`{ service: { column: Pattern } }`), read by `byId` alone. */
  columns?: Record<string, unknown>
  /** Number fields stored but unreadable under their `decimal` mark: left out of `entity` (check counts them, serving logs them). */
  unreadable?: string[]
  /** Number fields whose stored text is spelt in the other decimal convention (check warns). */
  otherMark?: string[]
}

/** A column of a lookup's row a booking copies, and the mapping place naming it. */
export interface CopiedColumn { column: string, path: string }

export interface CompiledLookup {
  name: LookupName
  all: Statement
  read: (row: Row) => LookupRecord | undefined
  /** One record by its id, read where a write needs it as it is now (inside the write's transaction), not as the catalogue cached it. */
  byId: LookupById
}

export interface LookupById {
  statement: Statement
  /** undefined when no row can have that id. */
  bind: (id: string) => { statement: Statement, args: Record<string, unknown> } | undefined
  read: (row: Row) => LookupRecord | undefined
}

type FieldKind = 'text' | 'number' | 'minutes'
const KINDS: Partial<Record<string, FieldKind>> = { lat: 'number', long: 'number', price: 'number', duration: 'minutes' }
/** Fields the interface requires: a row without them still appears, with a stand-in or empty text. */
const REQUIRED: Record<LookupName, string> = {
  professional: 'name', location: 'address', service: 'name', healthInsurance: 'name', specialty: 'name'
}
/**
 * The one home of a location's stand-in address: one read blank (a NULL column, a blank row)
 * is answered with its name, which callers show first anyway, else its id, as is a location
 * no resource reads (/availability's): the interface requires a non-empty address.
 */
export function standInAddress (location: { id: string, name?: unknown }): string {
  return typeof location.name === 'string' && location.name !== '' ? location.name : location.id
}

const STAND_INS: Partial<Record<LookupName, (e: Record<string, unknown> & { id: string }) => string>> = {
  location: standInAddress
}

/** `copied`: columns of the row `byId` also reads, as stored, for a booking's copies of them. */
export function compileLookup (model: LookupModel, dialect: Dialect, copied: CopiedColumn[] = []): CompiledLookup {
  if (model.valuesOf) return compileValuesOf(model, model.valuesOf, dialect)
  const scope = new Scope(dialect, model, 't')
  const params = new ParamList(dialect)
  const cols = new Columns()
  const id = keyReader(model.key, scope, cols, `${model.path}/key`)
  const decoders: Record<string, Decoder<unknown>> = {}
  const numbers: NumberSpelling[] = []
  for (const [field, value] of Object.entries(model.fields)) {
    const reader = valueReader(value, scope, cols, params)
    const kind = KINDS[field] ?? 'text'
    decoders[field] = fieldDecoder(kind, value, reader)
    if (kind !== 'text' && value.pattern === undefined) numbers.push({ field, read: reader, number: numberOf(value, reader), mark: value.decimal ?? '.' })
  }
  const flag = model.enabled ? valueReader(model.enabled, scope, cols, params) : undefined
  const enabled = model.enabled && flag ? booleanOf(model.enabled, flag) : () => true
  const entity = objectReader<Record<string, unknown>>(decoders)
  const where = scope.where(params)
  const all: Statement = {
    name: `${model.name}.all`,
    sql: dialect.select({ columns: cols.list, from: { table: dialect.table(model.table), alias: 't' }, joins: scope.joins(params), where, orderBy: keyRefs(model.key, scope, `${model.path}/key`) }),
    params: params.params
  }
  const required = REQUIRED[model.name]
  const standIn = STAND_INS[model.name]
  const read = (row: Row): LookupRecord | undefined => {
    const rowId = id(row)
    if (rowId === undefined) return undefined
    const e: Record<string, unknown> & { id: string } = { id: rowId, ...entity(row) }
    const blank = e[required] === undefined || e[required] === ''
    if (blank) e[required] = standIn ? standIn(e) : ''
    const stored = flag?.(row)
    return { id: rowId, enabled: enabled(row) ?? true, entity: e, ...blank && standIn ? { stoodIn: required } : {}, ...stored !== undefined && stored !== null ? { flag: String(stored).trim() } : {}, ...numberSpellings(numbers, row) }
  }
  // The same columns and rows, one key: its own parameter list, the key's input added last.
  const byIdParams = new ParamList(dialect)
  const byIdScope = new Scope(dialect, model, 't')
  const byIdCols = new Columns()
  keyReader(model.key, byIdScope, byIdCols, `${model.path}/key`)
  for (const value of Object.values(model.fields)) valueReader(value, byIdScope, byIdCols, byIdParams)
  if (model.enabled) valueReader(model.enabled, byIdScope, byIdCols, byIdParams)
  const copies = copied.map((c) => ({ column: c.column, read: columnGetter(byIdCols.add(byIdScope.ref(c.column, c.path, 'read'))) }))
  const readCopies = (row: Row): LookupRecord | undefined => {
    const record = read(row)
    return record && { ...record, columns: Object.fromEntries(copies.map((c) => [c.column, c.read(row)])) }
  }
  const readById = copies.length === 0 ? read : readCopies
  const byIdWhere = [...byIdScope.where(byIdParams), keyMatch(model.key, byIdScope, byIdParams, `${model.path}/key`)]
  const byIdStatement: Statement = {
    // Another statement under another name: PostgreSQL prepares each by its name.
    name: copies.length === 0 ? `${model.name}.byId` : `${model.name}.byIdCopied`,
    sql: dialect.select({ columns: byIdCols.list, from: { table: dialect.table(model.table), alias: 't' }, joins: byIdScope.joins(byIdParams), where: byIdWhere, orderBy: [] }),
    params: byIdParams.params
  }
  return {
    name: model.name,
    all,
    read,
    byId: {
      statement: byIdStatement,
      bind: (key) => {
        const args = keyArgs(model.key, key)
        return args && { statement: byIdStatement, args }
      },
      read: readById
    }
  }
}

/**
 * A lookup kept as the values of another lookup's column (`valuesOf`): each distinct value,
 * compared case and all (`cardiology` is not `Cardiology`), is one record, its id the value and
 * its name the value trimmed. The whole table is read once per cache refresh, as its own lookup is.
 */
function compileValuesOf (model: LookupModel, valuesOf: NonNullable<LookupModel['valuesOf']>, dialect: Dialect): CompiledLookup {
  const statement = (name: string, byId: boolean): { statement: Statement, read: (row: Row) => LookupRecord | undefined } => {
    const scope = new Scope(dialect, model, 't')
    const params = new ParamList(dialect)
    const value = dialect.exact(scope.ref(valuesOf.column, `${valuesOf.path}/column`, byId ? 'filter' : 'read'))
    const where = scope.where(params)
    if (byId) where.push(`${dialect.exact(dialect.trim(scope.ref(valuesOf.column, `${valuesOf.path}/column`, 'filter')))} = ${params.input('id', 'text')}`)
    const cols = new Columns()
    const read = idOf(columnGetter(cols.add(value)))
    return {
      statement: {
        name,
        sql: dialect.select({ distinct: true, columns: cols.list, from: { table: dialect.table(model.table), alias: 't' }, joins: scope.joins(params), where, orderBy: byId ? [] : [value] }),
        params: params.params
      },
      read: (row) => {
        const id = read(row)
        if (id === undefined) return undefined
        const name = valuesOf.names?.[id] ?? id
        return { id, enabled: true, entity: { id, name, ...model.name === 'location' ? { address: name } : {} } }
      }
    }
  }
  const all = statement(`${model.name}.all`, false)
  const byId = statement(`${model.name}.byId`, true)
  return {
    name: model.name,
    all: all.statement,
    read: all.read,
    byId: {
      statement: byId.statement,
      bind: (key) => ({ statement: byId.statement, args: { id: key } }),
      read: byId.read
    }
  }
}

interface NumberSpelling { field: string, read: Reader, number: Decoder<number>, mark: DecimalMark }

/** Which number fields of a row hold a value that does not read, or is spelt the other way. */
function numberSpellings (numbers: NumberSpelling[], row: Row): Pick<LookupRecord, 'unreadable' | 'otherMark'> {
  let unreadable: string[] | undefined
  let otherMark: string[] | undefined
  for (const n of numbers) {
    const raw = n.read(row)
    if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) continue
    if (n.number(row) === undefined) (unreadable ??= []).push(n.field)
    if (spelledOtherwise(raw, n.mark)) (otherMark ??= []).push(n.field)
  }
  return { ...unreadable ? { unreadable } : {}, ...otherMark ? { otherMark } : {} }
}

function fieldDecoder (kind: FieldKind, value: Value, read: Reader): Decoder<unknown> {
  if (kind === 'number') return numberOf(value, read)
  if (kind === 'minutes') return minutesOf(value, read)
  return textOf(read)
}
