// Running a compiled insert inside the caller's transaction: key generation, the INSERT, the
// columns holding the row's own key, and (for a multi-table record, rows.ts) the `before`
// rows, the resource's own row, then the `after` rows, each taking the keys and columns the
// rows before it were written with. Inputs are column values; their statement names stay here.
import { randomUUID } from 'node:crypto'
import type { Querier, Row } from '../../db/database.js'
import { OWN_KEY_TO_COME } from '../../db/column-values.js'
import { KeyGenerationError } from '../../errors.js'
import type { NowParts } from '../../normalise/datetime.js'
import { columnInputs, columnOf, type Bound } from './bind.js'
import { isIntegerType } from './ids.js'
import { OWN_ROW, type RowPlan, type RowsPlan } from './rows.js'
import type { ColumnValues, InsertPlan, KeyPlan } from './write-columns.js'

/** A bound statement, and where its row's key is made by Ponte, how. */
export type KeyedBound = Bound & { key?: KeyPlan }

/**
 * The key a row is inserted with, made before the INSERT (uuid, max, sequence, keyTable) and
 * bound into `args`; undefined for an identity key, which the INSERT itself makes.
 */
async function newKey (tx: Querier, key: KeyPlan, args: Record<string, unknown>): Promise<unknown> {
  let id: unknown
  if (key.uuid) {
    // Lower-case with hyphens, as OpenMRS stores it: ids sent back compare exactly.
    id = randomUUID()
    Object.assign(args, columnInputs({ [key.keyColumn]: id }))
  }
  for (const statement of key.before) {
    // A key counted per parent binds the parent from the row's own inputs.
    const rows = await tx.query(statement, args)
    if (rows.length > 0) id = key.counted ? largestCounted(rows, key.counted) : rows[0].id
  }
  if (key.before.length > 0) {
    // SQL Server says a bumped key through a text table variable (dialect updateReturning): an integer key binds as a number, as it was read before.
    if (key.increment) {
      const counted = key.counted
      const read = counted && typeof id === 'string' ? id.trim().slice(counted.prefix.length) : id
      const largest = Number(read ?? 0)
      if (!Number.isSafeInteger(largest) || (counted && typeof read === 'string' && !/^\d+$/.test(read))) throw new KeyGenerationError(`key generation (${key.before.at(-1)?.name}): the largest key is not a whole number, so the next cannot be made from it (use a keyTable or identity key)`)
      id = counted ? counted.prefix + String(largest + 1).padStart(counted.digits, '0') : largest + 1
    } else if (typeof id === 'string' && isIntegerType(key.keyType) && /^-?\d{1,15}$/.test(id.trim())) id = Number(id)
    if (id === undefined || id === null) throw new KeyGenerationError(`key generation (${key.before.at(-1)?.name}) returned no value: is the key table row there?`)
    // A text key takes the generated number as its digits: bound as a number, SQLite stores '8.0'.
    if (typeof id === 'number' && !isIntegerType(key.keyType)) id = String(id)
    Object.assign(args, columnInputs({ [key.keyColumn]: id }))
  }
  return id
}

/** A bound INSERT whose row's key is made first, in the same transaction (a history row's `rowKey`). */
export async function runKeyed (tx: Querier, bound: KeyedBound): Promise<void> {
  if (bound.key) await newKey(tx, bound.key, bound.args)
  await tx.query(bound.statement, bound.args)
}

/** Key generation and the INSERT of `columns`; returns the new id as text. */
export async function runInsert (tx: Querier, plan: InsertPlan, columns: ColumnValues): Promise<string> {
  return await insertRow(tx, plan, columnInputs(columns))
}

async function insertRow (tx: Querier, plan: InsertPlan, args: Record<string, unknown>): Promise<string> {
  let id = await newKey(tx, plan.key, args)
  if (plan.key.before.length > 0) {
    // Columns holding the row's own key (a patient who is their own guarantor) bind it at once…
    Object.assign(args, columnInputs(Object.fromEntries((plan.selfKey?.columns ?? []).map((c) => [c, id]))))
  }
  // An identity key is not known before the INSERT: its columns hold a stand-in until the UPDATE below.
  if (plan.selfKey?.update) Object.assign(args, columnInputs(Object.fromEntries(plan.selfKey.columns.map((c) => [c, OWN_KEY_TO_COME]))))
  const rows = await tx.query(plan.statement, args)
  if (plan.key.returning) id = rows[0]?.id
  if (id === undefined || id === null) throw new Error(`${plan.statement.name} returned no key`)
  // … or, for an identity key, get it right after the insert, in the same transaction.
  if (plan.selfKey?.update) {
    const ownKey = columnInputs(Object.fromEntries(plan.selfKey.columns.map((c) => [c, id])))
    await tx.query(plan.selfKey.update, { id, ...ownKey })
    // Rows written after this one read its columns from `args`: the key, not the stand-in.
    Object.assign(args, ownKey)
  }
  return String(id).trim()
}

/** Among keys read longest first, the largest of the form prefix + digits; the first read when none is (then refused as not a number). */
export function largestCounted (rows: Row[], counted: { prefix: string }): unknown {
  let best: { id: string, n: number } | undefined
  for (const row of rows) {
    const id = String(row.id).trim()
    const digits = id.startsWith(counted.prefix) ? id.slice(counted.prefix.length) : ''
    const n = /^\d{1,15}$/.test(digits) ? Number(digits) : undefined
    if (n !== undefined && (best === undefined || n > best.n)) best = { id, n }
  }
  return best?.id ?? rows[0].id
}

/** Values by row name ('' = the resource's own row) and column, as written. */
type Known = Map<string, Record<string, unknown>>

/**
 * `own`: the resource row's column values; `fields`: the field values of the extra rows,
 * by `alias.column`. Returns the new record's key.
 */
export async function runInsertWithRows (tx: Querier, rows: RowsPlan, insert: InsertPlan, own: ColumnValues,
  fields: Record<string, unknown>, now: NowParts): Promise<string> {
  const known: Known = new Map()
  // Rows others take a key or column from are written whatever the fields given.
  const needed = new Set([...rows.ownLinks, ...[...rows.before, ...rows.after].flatMap((r) => r.links)].map((l) => l.from))
  for (const row of rows.before) await insertExtra(tx, row, fields, known, now, undefined, needed)
  const values: ColumnValues = { ...own }
  for (const l of rows.ownLinks) values[l.column] = known.get(l.from)?.[l.fromColumn] ?? null
  const args = columnInputs(values)
  const keyColumn = insert.key.keyColumn
  let id: unknown
  const fromRow = insert.key.fromRow
  if (fromRow) {
    // The key was written in a `before` row (the person's uuid): the own row takes its link.
    await tx.query(insert.statement, args)
    id = known.get(fromRow.row)?.[fromRow.column]
  } else if (insert.key.before.length === 0 && insert.key.returning === undefined && insert.key.uuid === undefined) {
    // The key is shared with a `before` row: it is already among the inputs.
    await tx.query(insert.statement, args)
    id = values[keyColumn]
  } else {
    id = await insertRow(tx, insert, args)
  }
  if (id === undefined || id === null) throw new Error(`${insert.statement.name}: no key for the new row`)
  known.set(OWN_ROW, { ...columnsIn(args), [keyColumn]: asKey(id) })
  // A uuid kept in a joined row is the id; the record's own key is its integer link.
  const recordKey = fromRow ? asKey(values[fromRow.own]) : asKey(id)
  for (const row of rows.after) await insertExtra(tx, row, fields, known, now, recordKey, needed)
  return String(id).trim()
}

async function insertExtra (tx: Querier, row: RowPlan, fields: Record<string, unknown>, known: Known, now: NowParts, key: unknown, needed: Set<string>): Promise<void> {
  const values: ColumnValues = {}
  const prefix = `${row.name}.`
  for (const [column, value] of Object.entries(fields)) if (column.startsWith(prefix)) values[column.slice(prefix.length)] = value
  // An optional value's row (an e-mail attribute, a CPF identifier) exists only when the value does.
  if (row.fieldColumns.length > 0 && Object.keys(values).length === 0 && !needed.has(row.name)) return
  for (const l of row.links) values[l.column] = known.get(l.from)?.[l.fromColumn] ?? null
  for (const w of row.set) values[w.column] = w.value(now, { key })
  const args = columnInputs(values)
  const written = columnsIn(args)
  if (row.keyed) written[row.keyed.column] = asKey(await insertRow(tx, row.keyed.plan, args))
  else if (row.statement) await tx.query(row.statement, args)
  known.set(row.name, written)
}

// The column values an insert bound, read back (a key the generator added among them).
function columnsIn (args: Record<string, unknown>): ColumnValues {
  return Object.fromEntries(Object.entries(args).flatMap(([k, v]) => { const c = columnOf(k); return c === undefined ? [] : [[c, v]] }))
}

// Generated keys come back as text (insertRow); integer ones bind as numbers again.
function asKey (id: unknown): unknown {
  return typeof id === 'string' && /^-?\d{1,15}$/.test(id) ? Number(id) : id
}

/**
 * One joined row of an existing record (a PATCH adding the e-mail row a client lacked):
 * `fields` by `alias.column`, `own` the record's columns its links take (its key).
 */
export async function insertJoinedRow (tx: Querier, row: RowPlan, fields: Record<string, unknown>, own: Record<string, unknown>, now: NowParts): Promise<void> {
  const key = Object.values(own)[0]
  const known: Known = new Map([[OWN_ROW, Object.fromEntries(Object.entries(own).map(([c, v]) => [c, asKey(v)]))]])
  await insertExtra(tx, row, fields, known, now, asKey(key), new Set([row.name]))
}
