// POST /clients and PATCH /clients/{id}: interface fields → legacy columns, in the
// installation's stored formats (phone mask, CPF punctuation, date format).
import type { Dialect } from '../../sql/dialect.js'
import type { Statement } from '../../sql/statement.js'
import { formatCpf } from '../../normalise/cpf.js'
import { PHONES_JOINED, toStoredPhone } from '../../normalise/phone.js'
import { toStoredDate, type DateFormat } from '../../normalise/datetime.js'
import type { MappingModel, Value } from '../model.js'
import { CompileError } from './scope.js'
import type { SqlTypeName } from '../schema.js'
import { idType } from './key.js'
import { fieldWriter, insertPlan, recordWrites, updatePlan, writeValues, uniqueColumns, type FieldWriter, type InsertPlan } from './write-columns.js'
import type { NowParts } from '../../normalise/datetime.js'
import { withSelfKey } from './derived.js'
import { datePartsWriter } from './date-parts.js'
import { upperName } from '../../normalise/text.js'
import { phoneLineColumns } from './phone-line.js'
import { phoneCopyColumns } from './phone-copy.js'
import { literalType } from './condition.js'
import { compileRows, joinedFieldWriter, joinedRowUpdates, sharedKeyInsert, writtenRows, type JoinedRowWrite, type RowsPlan } from './rows.js'

export const PATCHABLE = ['name', 'email', 'cpf', 'birthday'] as const
export type ClientField = typeof PATCHABLE[number] | 'phone' | 'allPhones' | 'healthInsurance' | 'location'

export interface CompiledClientWrites {
  /** Fields in the client's own table: written on insert and PATCH. */
  writers: Partial<Record<ClientField, FieldWriter>>
  /** Fields in rows written with the client's (columns `alias.column`): on insert only. */
  rowWriters: Partial<Record<ClientField, FieldWriter>>
  /** The rows written before and after the client's own (rows.ts). */
  rows?: RowsPlan
  /** Compiled on first use: a table whose key Ponte cannot generate can still be corrected. */
  insert: () => InsertPlan
  /** UPDATE for exactly these fields (built on first use). */
  update: (fields: ClientField[]) => Statement
  /** UPDATEs of the joined rows holding these `rowWriters` fields, one per row (built on first use). */
  rowUpdates: (fields: ClientField[]) => JoinedRowWrite[]
  /** Values of the `set` columns for an insert at `now`. */
  constants: (now: NowParts) => Record<string, unknown>
  /** Values of the `update` columns a correction at `now` writes (a last-change stamp). */
  touched: (now: NowParts) => Record<string, unknown>
}

export function compileClientWrites (model: MappingModel, dialect: Dialect): CompiledClientWrites {
  const c = model.client
  const write = c.write
  const format = c.fields.birthday?.format ?? 'date'
  const dateFormat = (format === 'dmy' || format === 'ymd' ? 'text' : format) as DateFormat
  const textStyle = format === 'dmy' || format === 'ymd' ? format : 'iso'
  const dateType: SqlTypeName = dateFormat === 'int' ? 'int' : dateFormat === 'text' ? 'text' : dateFormat === 'datetime' ? 'datetime' : 'date'
  // A name the clinic's system keeps in upper case is written so (`case: upper`).
  const nameCase = c.fields.name?.case === 'upper' ? (x: unknown) => upperName(String(x)) : undefined
  const storePhone = (x: unknown) => toStoredPhone(String(x), write?.phoneFormat ?? 'digits', model.phone.defaultCountry, write?.foreignPhoneFormat)
  // `write.phone` names the column a new client's phone goes to (model.ts checks it is a plain one of `phones`).
  const phoneAt = write?.phone === undefined ? 0 : Math.max(0, c.phones.findIndex((p) => p.column === write.phone))
  const writers: Partial<Record<ClientField, FieldWriter>> = {
    name: fieldWriter(c.fields.name, 'ntext', nameCase),
    email: fieldWriter(c.fields.email, 'ntext'),
    cpf: fieldWriter(c.fields.cpf, 'text', (x) => formatCpf(String(x), write?.cpfFormat ?? 'digits')),
    // Day, month and year in columns of their own (a template) are written part by part.
    birthday: c.fields.birthday?.template !== undefined
      ? datePartsWriter(c.fields.birthday)
      : fieldWriter(c.fields.birthday, dateType, (x) => toStoredDate(String(x), dateFormat, textStyle, c.fields.birthday?.separator)),
    phone: fieldWriter(c.phones[phoneAt], 'text', storePhone)
  }
  // With `write.phone`, the other plain phone columns take `allPhones`, in the order of `phones`.
  if (write?.phone !== undefined) {
    const others = c.phones.filter((p, i) => i !== phoneAt && p.column !== undefined && !p.column.includes('.'))
    const each = others.map((p) => fieldWriter(p, 'text', storePhone)).filter((w): w is FieldWriter => w !== undefined)
    if (each.length > 0) {
      writers.allPhones = {
        columns: each.flatMap((w) => w.columns),
        encode: (value) => {
          const numbers = value === undefined || value === null ? [] : String(value).split(PHONES_JOINED).filter((n) => n !== '')
          return Object.assign({}, ...each.map((w, i) => w.encode(numbers[i])))
        }
      }
    }
  }
  // A client-side relation held in the client's own table (e.g. PACIENTE.ID_CONVENIO) is writable.
  for (const rel of model.relations) {
    if (rel.kind !== 'table' || rel.table !== c.table || !rel.between.includes('client')) continue
    const clientSide = rel.between.indexOf('client')
    const other = rel.between[1 - clientSide]
    if (other !== 'healthInsurance' && other !== 'location') continue
    if (rel.columns[clientSide].column !== c.key.column) continue
    const lookup = model.lookups[other]
    const type = rel.columns[1 - clientSide].type ?? (lookup ? idType(lookup.key) : 'int')
    writers[other] = fieldWriter(rel.columns[1 - clientSide], type)
  }
  // Fields kept in rows of other tables written with the client's (rows.ts): inserts only.
  const written = writtenRows(write)
  const rowWriters: Partial<Record<ClientField, FieldWriter>> = {}
  const joined = (f: ClientField, v: Value | undefined, type: SqlTypeName, convert?: (x: unknown) => unknown) => {
    const w = writers[f] ? undefined : joinedFieldWriter(v, type, written, convert)
    if (w) rowWriters[f] = w
  }
  joined('name', c.fields.name, 'ntext', nameCase)
  joined('email', c.fields.email, 'ntext')
  // A CPF kept in an identifier row (Tryton's `party_identifier`), as an e-mail is in a contact row.
  joined('cpf', c.fields.cpf, 'text', (x) => formatCpf(String(x), write?.cpfFormat ?? 'digits'))
  joined('birthday', c.fields.birthday, dateType, (x) => toStoredDate(String(x), dateFormat, textStyle, c.fields.birthday?.separator))
  const phoneRow = c.phones.findIndex((p, i) => p.collect !== undefined && written.has(`phones/${i}`))
  if (!writers.phone && phoneRow >= 0) {
    const collect = c.phones[phoneRow].collect as NonNullable<Value['collect']>
    const w = fieldWriter({ column: collect.column, path: `${c.phones[phoneRow].path}/collect/column` }, 'text', storePhone)
    // The row's kind code following the number (`phoneLine`), written beside it.
    const after = (write?.after ?? []).findIndex((r) => r.join === undefined && (r.phones ?? 0) === phoneRow)
    const rowSet = after < 0 ? undefined : write?.after?.[after].set
    const lines = after < 0 ? [] : phoneLineColumns(rowSet, collect, `${c.path}/write/after/${after}/set`, `${c.phones[phoneRow].path}/collect/where`)
    // The same number again in another format (`{ phone: e164 }`), in a column of the same row.
    const copies = phoneCopyColumns(model, rowSet, collect.table, `${c.path}/write/after/${after}/set`)
    const lineColumns = [
      ...lines.map((l) => ({ column: l.column, type: literalType(l.code('+0')), declared: {}, path: l.path })),
      ...copies.map((p) => ({ column: p.column, type: 'text' as SqlTypeName, declared: {}, path: p.path }))
    ]
    const inRow = (column: string) => `phones/${phoneRow}.${column}`
    if (w) {
      rowWriters.phone = {
        columns: [...w.columns, ...lineColumns].map((x) => ({ ...x, column: inRow(x.column) })),
        encode: (v) => Object.fromEntries([
          ...Object.entries(w.encode(v)),
          ...lines.map((l) => [l.column, v === undefined || v === null ? null : l.code(String(v))]),
          ...copies.map((p) => [p.column, v === undefined || v === null ? null : p.copy(String(v))])
        ].map(([k, x]) => [inRow(k as string), x]))
      }
    }
  }
  // Each field's table: `alias.column` in the join's table, `phones/<i>.column` in the table its
  // phones are collected from. A key the database says collided names the field writing it
  // there, and check reads each column as a write of that table.
  const tableOf = (column: string): string | undefined => {
    const alias = column.includes('.') ? column.slice(0, column.indexOf('.')) : undefined
    if (alias === undefined) return c.table
    return alias.startsWith('phones/') ? c.phones[Number(alias.slice('phones/'.length))]?.collect?.table : c.joins[alias]?.table
  }
  for (const list of [writers, rowWriters]) {
    for (const w of Object.values(list)) {
      if (!w) continue
      w.columns = w.columns.map((x) => ({ ...x, table: tableOf(x.column) }))
      recordWrites(w, tableOf)
    }
  }
  const set = writeValues(model, c.table, write?.set, `${c.path}/write/set`)
  // Every correction (PATCH) also writes `update` (a last-change stamp); the fields' own columns win.
  const touched = writeValues(model, c.table, write?.update, `${c.path}/write/update`)
  const fieldColumns = Object.values(writers).flatMap((w) => w?.columns ?? [])
  const rows = compileRows(model, c, write, Object.values(rowWriters).flatMap((w) => w?.columns ?? []), dialect)
  const ownColumns = uniqueColumns([...fieldColumns, ...set, ...(rows?.ownLinks ?? []).map((l) => ({ column: l.column, type: c.key.type }))])
  const sharesKey = rows?.ownLinks.some((l) => l.column === c.key.column) === true
  let insertCompiled: InsertPlan | undefined
  const insert = () => {
    if (!writers.name && !rowWriters.name) throw unwritableName(c.fields.name)
    const through = c.key.through
    if (through) {
      // The key is a column of the joined row a `before` row writes (the person's uuid).
      if (rows?.before.some((r) => r.name === through.alias) !== true) throw new CompileError(`${c.path}/key`, `the key \`${c.key.column}\` is kept in the row of join \`${through.alias}\`: a new client needs that row written first (\`write.before: [{ join: ${through.alias} }]\`, its \`${through.column}\` under its \`set\` or \`key\`)`)
      const statement = sharedKeyInsert('client.insert', c, ownColumns, dialect)
      return (insertCompiled ??= { statement, columns: ownColumns, key: { before: [], increment: false, keyColumn: c.key.column, keyType: c.key.type, fromRow: { row: through.alias, column: through.column, own: through.own } } })
    }
    if (sharesKey) {
      // The key is the one a `before` row got (a patient is a person): nothing to generate.
      const statement = sharedKeyInsert('client.insert', c, ownColumns, dialect)
      return (insertCompiled ??= { statement, columns: ownColumns, key: { before: [], increment: false, keyColumn: c.key.column, keyType: c.key.type } })
    }
    return (insertCompiled ??= withSelfKey(insertPlan('client.insert', c, write, ownColumns, dialect), c, set, dialect))
  }
  // Each joined row's own stamps (`update` of its entry), written when a PATCH changes the row.
  const stamps = Object.fromEntries([...rows?.before ?? [], ...rows?.after ?? []].map((r) => [r.name, r.update]))
  const updates = new Map<string, Statement>()
  const rowUpdateCache = new Map<string, JoinedRowWrite[]>()
  return {
    writers,
    rowWriters,
    rows,
    insert,
    constants: (now) => Object.fromEntries(set.map((s) => [s.column, s.value(now)])),
    touched: (now) => Object.fromEntries(touched.map((s) => [s.column, s.value(now)])),
    rowUpdates (fields) {
      const key = [...fields].sort().join(',')
      let list = rowUpdateCache.get(key)
      if (!list) {
        list = joinedRowUpdates(c, fields.flatMap((f) => rowWriters[f]?.columns ?? []), dialect, stamps)
        rowUpdateCache.set(key, list)
      }
      return list
    },
    update (fields) {
      const key = [...fields].sort().join(',')
      let s = updates.get(key)
      if (!s) {
        const cols = fields.flatMap((f) => writers[f]?.columns ?? [])
        s = updatePlan(`client.update[${key}]`, c, uniqueColumns([...cols, ...touched]), dialect)
        updates.set(key, s)
      }
      return s
    }
  }
}

// A client the interface could not read back by name is not created (nor an empty row
// inserted): the name must land in a column of the client's own table.
function unwritableName (name: Value | undefined): CompileError {
  return new CompileError(name?.path ?? '/resources/client/fields/name',
    'the client\'s name is not held in a plain column of the client table (it is read from a join, rules or an expression), so there is no column to register a new client\'s name in')
}
