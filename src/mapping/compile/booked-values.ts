// Appointment columns copied from the records a booking names: the client's name in the form
// the clinic's day sheet shows it (OSCAR's `appointment.name`, `SMITH,MARY ANN`), and the
// booked service's, professional's, location's or health insurance's name or id (OpenEMR's
// `pc_title`) or a column of its row as stored (Open Dental's `Pattern`), and the client's phone in a format of its own (a Delphi agenda's FONEPACIENTE).
// The client's name and phone are read through the mapping by one statement compiled here,
// formatted in JS and bound as a parameter like every other written value.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { MappingModel, Value } from '../model.js'
import type { WriteSpecDoc } from '../schema.js'
import { upperName } from '../../normalise/text.js'
import { Scope } from './scope.js'
import { Columns, templateParts, valueReader, valuesReader, type Row } from './value.js'
import { keyArgs, keyMatch } from './key.js'
import { splitName } from './name-split.js'
import type { WriteContext, WrittenValue } from './derived.js'
import { phoneCopier } from './phone-copy.js'
import { toE164 } from '../../normalise/phone.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]
export type ClientCopyDoc = Extract<WriteValueDoc, { client: unknown }>
export type LookupCopyDoc = Extract<WriteValueDoc, { service: unknown } | { professional: unknown } | { location: unknown } | { healthInsurance: unknown }>
export type BookedLookup = 'service' | 'professional' | 'location' | 'healthInsurance'

/** The booked client's name, whole and in its parts, and (where a copy needs it) its phone in E.164. */
export interface ClientName { name: string, given: string, family: string, phone?: string }

/** What a booking names, as the copies need it: the client's name, and each lookup's id and name. */
export interface Booked {
  client?: ClientName
  lookups?: Partial<Record<BookedLookup, { id: string, name?: string, columns?: Record<string, unknown> }>>
}

const LOOKUPS: BookedLookup[] = ['service', 'professional', 'location', 'healthInsurance']

export const isBookedCopy = (w: WriteValueDoc): w is ClientCopyDoc | LookupCopyDoc => 'client' in w || LOOKUPS.some((l) => l in w)

export function bookedValue (model: MappingModel, w: ClientCopyDoc | LookupCopyDoc, column: string): WrittenValue {
  const upper = (x: string | undefined): string | undefined => x !== undefined && w.case === 'upper' ? upperName(x) : x
  if ('client' in w && w.client === 'phone') {
    const copy = phoneCopier(model, w.format)
    const otherwise = w.otherwise ?? null
    return {
      column,
      type: 'text',
      copies: 'client',
      value: (_now, c?: WriteContext) => {
        // No client at all (a free row reopened) is NULL; a client without a phone, `otherwise`.
        const client = c?.booked?.client
        if (!client) return null
        return client.phone === undefined ? otherwise : copy(client.phone)
      }
    }
  }
  if ('client' in w) {
    const part = w.client as Exclude<ClientCopyDoc['client'], 'phone'>
    return {
      column,
      type: 'ntext',
      copies: 'client',
      value: (_now, c?: WriteContext) => {
        const n = c?.booked?.client
        if (!n) return null
        const text = part === 'familyFirst'
          ? [n.family, n.given].filter((s) => s !== '').join(w.separator ?? ', ')
          : n[part]
        return upper(text) ?? null
      }
    }
  }
  const ref = LOOKUPS.find((l) => l in w) as BookedLookup
  const part = (w as Record<BookedLookup, 'name' | 'id' | { column: string }>)[ref]
  const otherwise = w.otherwise ?? null
  if (typeof part === 'object') {
    return {
      column,
      type: typeof otherwise === 'number' ? 'int' : 'ntext',
      copies: ref,
      value: (_now, c?: WriteContext) => {
        const stored = c?.booked?.lookups?.[ref]?.columns?.[part.column]
        if (stored === undefined || stored === null) return otherwise
        return typeof stored === 'string' ? upper(stored) : stored
      }
    }
  }
  return {
    column,
    type: part === 'id' && typeof otherwise === 'number' ? 'int' : 'ntext',
    copies: ref,
    value: (_now, c?: WriteContext) => {
      const record = c?.booked?.lookups?.[ref]
      return record === undefined ? otherwise : upper(part === 'id' ? record.id : record.name) ?? otherwise
    }
  }
}

/** Reads a client's name for the copies: one statement by key. */
export interface ClientNameRead {
  statement: Statement
  /** undefined when no row can have that id. */
  bind: (id: string) => { statement: Statement, args: Record<string, unknown> } | undefined
  read: (row: Row) => ClientName
}

/**
 * The client's name as the mapping reads it, and its parts: the columns of a `{given} {family}`
 * template as stored (the last one the family), so a compound given name the clinic typed
 * stays whole; a name in one column is cut by the mapping's `split` rule.
 */
export function compileClientNameRead (model: MappingModel, dialect: Dialect, withPhone = false): ClientNameRead | undefined {
  const c = model.client
  const name = c.fields.name
  if (!name) return undefined
  const scope = new Scope(dialect, c, 't')
  const params = new ParamList(dialect)
  const cols = new Columns()
  const whole = valueReader(name, scope, cols, params)
  const columns = name.template !== undefined ? templateParts(name.template, `${name.path}/template`).flatMap((p) => p.column === undefined ? [] : [p.column]) : []
  // The family from its prefix column on (`split.familyPrefix`), else from its own.
  const declared = typeof name.split === 'object' ? columns.indexOf(name.split.familyPrefix ?? name.split.family ?? '') : -1
  const familyAt = declared > 0 ? declared : columns.length - 1
  const parts = columns.length >= 2 ? columns.map((column) => valueReader({ column, path: name.path } satisfies Value, scope, cols, params)) : []
  // The phone GET /clients/{id} answers: the first stored number the mapping can read.
  const phones = withPhone ? c.phones.map((p) => valuesReader(p, scope, cols, params)) : []
  const phone = (row: Row): string | undefined => {
    for (const read of phones) {
      for (const raw of read(row)) {
        const e164 = toE164(raw, model.phone)
        if (e164 !== undefined) return e164
      }
    }
    return undefined
  }
  const where = [...scope.where(params), keyMatch(c.key, scope, params, `${c.path}/key`)]
  const statement: Statement = {
    name: 'appointment.write.clientName',
    sql: dialect.select({ columns: cols.list, from: { table: dialect.table(c.table), alias: 't' }, joins: scope.joins(params), where, orderBy: [] }),
    params: params.params
  }
  const text = (x: unknown): string => x === undefined || x === null ? '' : String(x).trim()
  return {
    statement,
    bind: (id) => {
      const args = keyArgs(c.key, id)
      return args && { statement, args }
    },
    read (row) {
      const full = text(whole(row))
      const number = withPhone ? { phone: phone(row) } : {}
      if (parts.length > 0) {
        const values = parts.map((p) => text(p(row)))
        // The family from its column on (`split.family`, else the last, or its prefix's), the given names before it.
        const join = (from: number, to?: number): string => values.slice(from, to).filter((v) => v !== '').join(' ')
        return { name: full, given: join(0, familyAt), family: join(familyAt), ...number }
      }
      const [given, family] = splitName(full, 2, name.split)
      return { name: full, given, family, ...number }
    }
  }
}
