// The write side of the mapping: which columns an interface field is stored in, how a value
// is encoded back into the legacy format, the constant columns an insert must fill, and how
// the installation makes keys. Every statement is compiled once; values only bind.
import { randomUUID } from 'node:crypto'
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { LiteralValue, SqlTypeName, WriteSpecDoc } from '../schema.js'
import type { MappingModel, TableModel, Value } from '../model.js'
import { literalType } from './condition.js'
import { CompileError, Scope } from './scope.js'
import { isTextType, templateParts } from './value.js'
import { toStoredDate, toStoredHour, type NowParts } from '../../normalise/datetime.js'
import { keyMatch } from './key.js'
import { derivedValue, isDerived, type SelfKey, type WriteContext, type WrittenValue } from './derived.js'
import { identifierMaker } from './identifier.js'
import { segment, reference } from './references.js'
import { storedClock, storedNow } from './stored-clock.js'
import { nameLayout, splitInto } from './name-split.js'
import { bookedValue, isBookedCopy } from './booked-values.js'
import { hoursValue, isHoursCopy } from './hours-copy.js'
import { isPhoneLine } from './phone-line.js'
import { isPhoneCopy } from './phone-copy.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]

/** Column values to bind, by column name. */
export type ColumnValues = Record<string, unknown>

/** What the mapping itself says about a written column; the live schema fills the rest. */
export interface ColumnDeclaration { type?: SqlTypeName, length?: number }

export interface WrittenColumn {
  column: string
  /** The type it binds with (the mapping's, else the field's usual one). */
  type: SqlTypeName
  declared: ColumnDeclaration
  /** The table it is in, where the writer records it (a client's rows): a colliding key is told by table and column. */
  table?: string
  /** The mapping place naming the column (where the record of references puts its write). */
  path?: string
}

/** How one interface field is written: its columns and the encoder into them. */
export interface FieldWriter {
  columns: WrittenColumn[]
  /** undefined → the field is cleared (the mapping's first `null` sentinel, else NULL). */
  encode: (value: unknown) => ColumnValues
}

/** undefined when the value cannot be written (an expression, rules, a joined column). */
export function fieldWriter (v: Value | undefined, type: SqlTypeName, convert: (x: unknown) => unknown = (x) => x): FieldWriter | undefined {
  // Part of a text (`extract`) cannot be written without the rest of it.
  if (!v || v.extract !== undefined) return undefined
  const none = v.nullIf?.find((s) => s !== undefined) ?? null
  const finalType = v.type ?? type
  const declared: ColumnDeclaration = { type: v.type, length: v.length }
  const single = (column: string, path: string): FieldWriter => ({
    columns: [{ column, type: finalType, declared, path }],
    encode: (value) => ({ [column]: value === undefined || value === null ? none : storedFromMap(v, convert(value)) })
  })
  if (v.column !== undefined && !v.column.includes('.')) return single(v.column, `${v.path}/column`)
  // A social name over the registered one: the caller's name is the registered one. When
  // the last item is itself composed (a template, rules) there is no one obvious column.
  if (v.coalesce) {
    const last = v.coalesce[v.coalesce.length - 1]
    return typeof last !== 'string' || last.includes('.') ? undefined : single(last, `${v.path}/coalesce/${v.coalesce.length - 1}/column`)
  }
  if (v.template !== undefined) return templateWriter(v, finalType, declared, convert)
  return undefined
}

function storedFromMap (v: Value, value: unknown): unknown {
  if (!v.map) return value
  const stored = Object.entries(v.map).find(([, out]) => out === value)?.[0]
  if (stored === undefined) return value
  return v.type && !isTextType(v.type) ? Number(stored) : stored
}

// `{first_name} {last_name}`: the name cut where the mapping's `split` says (name-split.ts),
// into the template's columns and a write-only `split.middle`. Templates with other separators
// (an address) are read-only. The template's `type` and `length` describe each of its columns.
function templateWriter (v: Value, type: SqlTypeName, declared: ColumnDeclaration, convert: (x: unknown) => unknown): FieldWriter | undefined {
  const parts = templateParts(v.template as string, v.path)
  const columns = parts.filter((p) => p.column !== undefined).map((p) => p.column as string)
  const separators = parts.filter((p) => p.text !== undefined).map((p) => p.text as string)
  if (columns.some((c) => c.includes('.')) || separators.some((s) => s.trim() !== '') || parts[0].text !== undefined) return undefined
  const layout = nameLayout(columns, v.split)
  const middle = typeof v.split === 'object' ? v.split.middle : undefined
  const written = middle === undefined ? columns : [...columns, middle]
  return {
    columns: written.map((column) => ({ column, type, declared, path: column === middle ? `${v.path}/split/middle` : `${v.path}/template` })),
    encode: (value) => splitInto(value === undefined || value === null ? '' : String(convert(value)), layout, v.split)
  }
}

/**
 * Records each column a field writer fills as a `write` of the table `tableOf` gives for it
 * (`alias.column` and `phones/<i>.column` name a row written with the resource's), at the
 * field's place: what a field writes is checked as what it reads is.
 */
export function recordWrites (w: FieldWriter | undefined, tableOf: (column: string) => string | undefined): void {
  for (const c of w?.columns ?? []) {
    const table = tableOf(c.column)
    if (table !== undefined && c.path !== undefined) reference({ table, column: c.column.slice(c.column.lastIndexOf('.') + 1), use: 'write', path: c.path })
  }
}

/** `set`, `states.X`, `reschedule` and `update` entries: constants, `now` (on the clock the database stores), settings, copies of what a booking names. */
export function writeValues (model: MappingModel, table: string, entries: Record<string, WriteValueDoc> | undefined, path: string): WrittenValue[] {
  const clock = storedClock(model)
  return Object.entries(entries ?? {}).map(([column, w]): WrittenValue => {
    reference({ table, column, use: 'write', path: `${path}/${segment(column)}`, written: w })
    // From the slot or the new row's key (derived.ts).
    if (isDerived(w)) return derivedValue(w, column, `${path}/${column}`, (path.startsWith(model.client.path) ? model.client : model.appointment).key.type, clock)
    if ('now' in w) {
      // A column keeping its stamps on a clock of its own (`now.storedIn`), else the installation's.
      const own = w.storedIn === undefined ? clock : storedClock({ timezone: model.timezone, storedIn: w.storedIn })
      const stamp = stampOf(w, `${path}/${segment(column)}`)
      return { column, type: stamp.type, value: (now: NowParts) => stamp.value(storedNow(now, own)) }
    }
    if (isBookedCopy(w)) return bookedValue(model, w, column)
    if (isHoursCopy(w)) return hoursValue(w, column)
    if ('uuid' in w) return { column, type: 'text' as const, value: () => randomUUID() }
    // Only a phone row knows its number (rows.ts takes these entries out before this).
    if (isPhoneLine(w)) throw new CompileError(`${path}/${segment(column)}/phoneLine`, '`phoneLine` is written only in an `after` row of `phones` (`- phones: 0`), whose phone it follows')
    if (isPhoneCopy(w)) throw new CompileError(`${path}/${segment(column)}/phone`, '`phone` is written only in an `after` row of `phones` (`- phones: 0`), whose phone it copies; the booked client\'s phone in an appointment column is `{ client: phone }`')
    if ('identifier' in w) {
      const make = identifierMaker(w.identifier, `${path}/${column}/identifier`)
      return { column, type: 'text' as const, value: (_now: NowParts, c?: WriteContext) => c?.key === undefined || c.key === null ? null : make(String(c.key)) }
    }
    // The appointment row as a change found it is read by the statement itself (history-left.ts).
    if ('before' in w) throw new CompileError(`${path}/${segment(column)}/before`, '`before` is the appointment row as a change found it: only under write.history.left')
    if ('after' in w) throw new CompileError(`${path}/${segment(column)}/after`, '`after` is the appointment row as a change left it: only under write.history.after')
    if ('event' in w) {
      const codes: Partial<Record<string, LiteralValue>> = w.event
      return { column, type: codesType(codes as Record<string, LiteralValue>), value: (_now: NowParts, c?: WriteContext) => c?.event === undefined ? null : codes[c.event] ?? null }
    }
    if ('state' in w) {
      const codes = w.state
      if (codes === true) return { column, type: 'text' as const, value: (_now: NowParts, c?: WriteContext) => c?.state ?? null }
      if (codes === 'left') {
        const left = w.codes
        if (left === undefined) return { column, type: 'text' as const, value: (_now: NowParts, c?: WriteContext) => c?.left ?? null }
        return { column, type: codesType(left), value: (_now: NowParts, c?: WriteContext) => c?.leaving === undefined ? null : left[c.leaving] ?? null }
      }
      return { column, type: codesType(codes), value: (_now: NowParts, c?: WriteContext) => c?.entering === undefined ? null : codes[c.entering] ?? null }
    }
    if ('setting' in w) {
      const setting = model.settings[w.setting]
      if (setting === undefined) throw new CompileError(`${path}/${column}/setting`, `no setting called \`${w.setting}\` under settings`)
      return { column, type: literalType(setting), value: () => setting }
    }
    const value = (w as { value: LiteralValue | null }).value
    return { column, type: value === null ? 'text' as const : literalType(value), value: () => value }
  })
}

/** The type a code per state binds with: the codes' own where they agree, else text. */
function codesType (codes: Record<string, LiteralValue>): SqlTypeName {
  const types = new Set(Object.values(codes).map(literalType))
  return types.size === 1 ? [...types][0] : 'text'
}

// ---- statements ----

/** Prefixed keys read to find the largest of the clinic's form among a desk's odd ones. */
const COUNTED_ROWS = 50

export interface KeyPlan {
  /** Statements run before the insert; the last yields a row with `id` (absent for identity). */
  before: Statement[]
  /** `max`: the id is the value read plus one. */
  increment: boolean
  /** `max` over text keys written as `prefix` + the number padded to `digits`. */
  counted?: { prefix: string, digits: number }
  /**
   * A key kept in a joined row: the value its `before` row was written with (`person.uuid`);
   * `own`, the row's link column, is the record's key to `newKey` and `identifier` (an integer).
   */
  fromRow?: { row: string, column: string, own: string }
  /** `uuid`: a new v4 UUID is bound into the key column (insert-run). */
  uuid?: true
  /** identity: the insert returns the new key. */
  returning?: string
  keyColumn: string
  keyType: SqlTypeName
}

/**
 * `per`: the column (and type) of a child row's parent that a `max` key with `per` counts
 * within (rows.ts checks the mapping's spelling); the key is then `table.key`, counted per parent.
 */
export function keyPlan (table: TableModel, write: WriteSpecDoc | undefined, dialect: Dialect, path = `${table.path}/write/key`, per?: { column: string, type: SqlTypeName }): KeyPlan {
  const gen = write?.key ?? { generate: 'identity' as const }
  if (table.key.parts.length > 1) throw new CompileError(`${table.path}/key`, 'rows with a composite key cannot be created through Ponte (their key is not generated)')
  const base = { keyColumn: table.key.column, keyType: table.key.type, increment: false, before: [] as Statement[] }
  const name = `${table.path.split('/').pop() ?? 'table'}.key`
  switch (gen.generate) {
    case 'identity':
      return { ...base, returning: table.key.column }
    case 'uuid':
      if (!isTextType(table.key.type)) throw new CompileError(path, `a UUID is text: key \`${table.key.column}\` is declared ${table.key.type}; give it \`type: text\``)
      return { ...base, uuid: true }
    case 'max': {
      if (gen.per !== undefined || gen.column !== undefined) {
        if (per === undefined) throw new CompileError(`${path}/${gen.per !== undefined ? 'per' : 'column'}`, '`per` and `column` count a child row\'s number per parent: only in an `after` row, both given')
        return perParentMax(table, per, dialect, name)
      }
      const params = new ParamList(dialect)
      const key = dialect.column('t', table.key.column)
      const from = { table: dialect.table(table.table), alias: 't' }
      const text = isTextType(table.key.type)
      if (!text && (gen.prefix !== undefined || gen.digits !== undefined)) throw new CompileError(`${path}/${gen.prefix !== undefined ? 'prefix' : 'digits'}`, 'only a text key has a prefix or padded digits: this key is a number')
      const prefix = gen.prefix ?? ''
      // The prefix is the mapping's letters and digits (the schema's pattern), never a LIKE wildcard.
      const where = prefix === '' ? [] : [dialect.like(key, params.constant(`${prefix}%`, 'text'))]
      // Text keys compare as text ('9' > '10'): the largest number is the longest, then the largest, of them.
      // With a prefix, the first few: a desk's odd key (`MA0001`, `M0001204`) is passed over in insert-run.
      const counting = text && (gen.prefix !== undefined || gen.digits !== undefined)
      const sql = text
        ? dialect.select({ columns: [{ expr: key, alias: 'id' }], from, joins: [], where, orderBy: [dialect.descending(dialect.charLength(key)), dialect.descending(key)], ...counting ? { page: { limit: params.constant(COUNTED_ROWS, 'int'), offset: params.constant(0, 'int') } } : { first: true }, lock: true })
        : dialect.select({ columns: [{ expr: dialect.max(key), alias: 'id' }], from, joins: [], where: [], orderBy: [], lock: true })
      const counted = counting ? { prefix, digits: gen.digits ?? 1 } : undefined
      return { ...base, increment: true, ...counted ? { counted } : {}, before: [{ name: `${name}.max`, sql, params: params.params }] }
    }
    case 'keyTable': {
      reference({ table: gen.table, use: 'key', path: `${path}/table` })
      reference({ table: gen.table, column: gen.nameColumn, use: 'filter', path: `${path}/nameColumn` })
      reference({ table: gen.table, column: gen.valueColumn, use: 'key', path: `${path}/valueColumn` })
      const bump = new ParamList(dialect)
      const col = (c: string) => dialect.column('k', c)
      const sets = [{ column: gen.valueColumn, value: `${col(gen.valueColumn)} + 1` }]
      const where = [`${col(gen.nameColumn)} = ${bump.constant(gen.name, 'text')}`]
      // Bumped and read in one statement where the database can say the new value (the row stays locked either way).
      if (dialect.updateReturning) {
        return { ...base, before: [{ name: `${name}.bump`, sql: dialect.updateReturning(gen.table, 'k', sets, where, gen.valueColumn), params: bump.params, writes: gen.table }] }
      }
      if (dialect.bumpSaying) {
        return { ...base, before: [{ name: `${name}.bump`, sql: dialect.bumpSaying(gen.table, 'k', gen.valueColumn, where), params: bump.params, writes: gen.table }] }
      }
      const update = dialect.update(gen.table, 'k', sets, where)
      const read = new ParamList(dialect)
      const select = dialect.select({
        columns: [{ expr: col(gen.valueColumn), alias: 'id' }],
        from: { table: dialect.table(gen.table), alias: 'k' },
        joins: [],
        where: [`${col(gen.nameColumn)} = ${read.constant(gen.name, 'text')}`],
        orderBy: []
      })
      return { ...base, before: [{ name: `${name}.bump`, sql: update, params: bump.params, writes: gen.table }, { name: `${name}.read`, sql: select, params: read.params }] }
    }
    case 'sequence': {
      let sql: string
      try {
        sql = dialect.nextSequenceValue(gen.sequence)
      } catch (err) {
        throw new CompileError(path, (err as Error).message)
      }
      return { ...base, before: [{ name: `${name}.next`, sql, params: [] }] }
    }
  }
}

// The largest number among the parent's rows plus one (1 for its first), read under the same
// lock as any `max` key in the insert's transaction, the parent bound from the row's own input
// and fitted to its column as the insert's copy is (`writes`), or a UUID parent never matches.
function perParentMax (table: TableModel, per: { column: string, type: SqlTypeName }, dialect: Dialect, name: string): KeyPlan {
  const params = new ParamList(dialect)
  const key = dialect.column('t', table.key.column)
  const where = [`${dialect.column('t', per.column)} = ${params.input(`col:${per.column}`, per.type)}`]
  const sql = dialect.select({ columns: [{ expr: dialect.max(key), alias: 'id' }], from: { table: dialect.table(table.table), alias: 't' }, joins: [], where, orderBy: [], lock: true })
  return { keyColumn: table.key.column, keyType: table.key.type, increment: true, before: [{ name: `${name}.max`, sql, params: params.params, writes: table.table }] }
}

export interface InsertPlan {
  statement: Statement
  key: KeyPlan
  /** Columns that hold the new row's own key (derived.ts), filled by insertRow. */
  selfKey?: SelfKey
  /** Columns bound as inputs, `col:<name>` → type. */
  columns: { column: string, type: SqlTypeName }[]
}

/** One INSERT with every column the mapping writes; values come as `col:<name>` inputs. */
export function insertPlan (name: string, table: TableModel, write: WriteSpecDoc | undefined, columns: { column: string, type: SqlTypeName }[], dialect: Dialect, keyPath?: string,
  per?: { column: string, type: SqlTypeName }): InsertPlan {
  const key = keyPlan(table, write, dialect, keyPath, per)
  const all = key.returning ? columns.filter((c) => c.column !== key.keyColumn) : uniqueColumns([{ column: key.keyColumn, type: key.keyType }, ...columns])
  if (all.length === 0) throw new CompileError(`${table.path}/write`, `nothing to insert into ${table.table}: no mapped field is a plain column of it and \`write.set\` names none`)
  const params = new ParamList(dialect)
  const values = all.map((c) => params.input(`col:${c.column}`, c.type))
  return {
    key,
    columns: all,
    statement: { name, sql: dialect.insert(table.table, all.map((c) => c.column), values, key.returning), params: params.params, ...writesTo(table.table, all) }
  }
}

/** UPDATE of one row by key (and base filter) setting the given columns from `col:<name>` inputs. */
export function updatePlan (name: string, table: TableModel, columns: { column: string, type: SqlTypeName }[], dialect: Dialect): Statement {
  const scope = new Scope(dialect, { ...table, joins: {} }, 't')
  const params = new ParamList(dialect)
  const sets = uniqueColumns(columns).map((c) => ({ column: c.column, value: params.input(`col:${c.column}`, c.type) }))
  // Conditions on joins cannot be said in an UPDATE of the table alone; the caller has just
  // read the row through the whole filter (a 404 otherwise), so its own columns' part is kept.
  const where = [keyMatch(table.key, scope, params, `${table.path}/key`), ...scope.ownWhere(params)]
  return { name, sql: dialect.update(table.table, 't', sets, where), params: params.params, ...writesTo(table.table, columns) }
}

/** What a write statement tells the value fitting (db/column-values.ts): its table, and the lengths the mapping declares. */
export function writesTo (table: string, columns: { column: string }[]): Pick<Statement, 'writes' | 'lengths'> {
  const lengths = Object.fromEntries(columns.flatMap((c) => {
    const length = (c as Partial<WrittenColumn>).declared?.length
    return length === undefined ? [] : [[c.column.slice(c.column.lastIndexOf('.') + 1), length]]
  }))
  return Object.keys(lengths).length > 0 ? { writes: table, lengths } : { writes: table }
}

export function uniqueColumns<T extends { column: string }> (columns: T[]): T[] {
  const seen = new Set<string>()
  return columns.filter((c) => !seen.has(c.column) && seen.add(c.column))
}

type NowDoc = Extract<WriteValueDoc, { now: unknown }>

/**
 * A `now:` stamp in the form the column keeps (`format`, `separator`): `now: date` with
 * `format: dmy` is '15/03/2026', as the clinic's own rows have it. Refused at its key where
 * the form cannot hold that part of now (a date as `hhmm`).
 */
export function stampOf (w: NowDoc, path: string): { type: SqlTypeName, value: (now: NowParts) => string | number } {
  const format = w.format ?? w.now
  const allowed = { date: ['date', 'text', 'dmy', 'ymd', 'int'], datetime: ['datetime', 'text', 'dmy'], time: ['time', 'text', 'hhmm', 'minutes'] }[w.now]
  if (!allowed.includes(format)) throw new CompileError(`${path}/format`, `\`now: ${w.now}\` is written as ${allowed.map((f) => `\`${f}\``).join(', ')}, not \`${format}\``)
  if (w.separator !== undefined && format !== 'dmy') throw new CompileError(`${path}/separator`, '`separator` goes with `format: dmy`')
  const dmy = (date: string): string => toStoredDate(date, 'text', 'dmy', w.separator)
  switch (format) {
    case 'int': return { type: 'int', value: (n) => toStoredDate(n.date, 'int') }
    case 'hhmm': case 'minutes': return { type: 'int', value: (n) => toStoredHour(n.time.slice(0, 5), format) }
    case 'dmy': return { type: 'text', value: (n) => w.now === 'date' ? dmy(n.date) : `${dmy(n.date)} ${n.time}` }
    case 'ymd': return { type: 'text', value: (n) => toStoredDate(n.date, 'text', 'ymd') }
    case 'text': return { type: 'text', value: (n) => w.now === 'time' ? n.time.slice(0, 5) : n[w.now] }
    default: return { type: format as SqlTypeName, value: (n) => n[w.now] }
  }
}
