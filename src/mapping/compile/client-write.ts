// POST /clients and PATCH /clients/{id}: interface fields → legacy columns, in the
// installation's stored formats (phone mask, CPF punctuation, date format).
import type { Dialect } from '../../sql/dialect.js'
import type { Statement } from '../../sql/statement.js'
import { formatCpf } from '../../normalise/cpf.js'
import { toStoredPhone } from '../../normalise/phone.js'
import { toStoredDate, type DateFormat } from '../../normalise/datetime.js'
import type { MappingModel } from '../model.js'
import type { SqlTypeName } from '../schema.js'
import { idType } from './key.js'
import { fieldWriter, insertPlan, updatePlan, writeValues, uniqueColumns, type FieldWriter, type InsertPlan } from './write.js'
import type { NowParts } from '../../normalise/datetime.js'
import { withSelfKey } from './derived.js'

export const PATCHABLE = ['name', 'email', 'cpf', 'birthday'] as const
export type ClientField = typeof PATCHABLE[number] | 'phone' | 'healthInsurance' | 'location'

export interface CompiledClientWrites {
  writers: Partial<Record<ClientField, FieldWriter>>
  /** Compiled on first use: a table whose key Ponte cannot generate can still be corrected. */
  insert: () => InsertPlan
  /** UPDATE for exactly these fields (built on first use). */
  update: (fields: ClientField[]) => Statement
  /** Values of the `set` columns for an insert at `now`. */
  constants: (now: NowParts) => Record<string, unknown>
}

export function compileClientWrites (model: MappingModel, dialect: Dialect): CompiledClientWrites {
  const c = model.client
  const write = c.write
  const format = c.fields.birthday?.format ?? 'date'
  const dateFormat = (format === 'dmy' ? 'text' : format) as DateFormat
  const dateType: SqlTypeName = dateFormat === 'int' ? 'int' : dateFormat === 'text' ? 'text' : dateFormat === 'datetime' ? 'datetime' : 'date'
  const writers: Partial<Record<ClientField, FieldWriter>> = {
    name: fieldWriter(c.fields.name, 'ntext'),
    email: fieldWriter(c.fields.email, 'ntext'),
    cpf: fieldWriter(c.fields.cpf, 'text', (x) => formatCpf(String(x), write?.cpfFormat ?? 'digits')),
    birthday: fieldWriter(c.fields.birthday, dateType, (x) => toStoredDate(String(x), dateFormat, format === 'dmy' ? 'dmy' : 'iso')),
    phone: fieldWriter(c.phones[0], 'text', (x) => toStoredPhone(String(x), write?.phoneFormat ?? 'digits'))
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
  const set = writeValues(model, write?.set, `${c.path}/write/set`)
  const fieldColumns = Object.values(writers).flatMap((w) => w?.columns ?? [])
  let insertCompiled: InsertPlan | undefined
  const insert = () => (insertCompiled ??= withSelfKey(insertPlan('client.insert', c, write, uniqueColumns([...fieldColumns, ...set]), dialect), c, set, dialect))
  const updates = new Map<string, Statement>()
  return {
    writers,
    insert,
    constants: (now) => Object.fromEntries(set.map((s) => [s.column, s.value(now)])),
    update (fields) {
      const key = [...fields].sort().join(',')
      let s = updates.get(key)
      if (!s) {
        const cols = fields.flatMap((f) => writers[f]?.columns ?? [])
        s = updatePlan(`client.update[${key}]`, c, cols, dialect)
        updates.set(key, s)
      }
      return s
    }
  }
}
