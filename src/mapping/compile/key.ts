// Keys of one or several columns. An id always travels as one string: the values of a
// composite key joined by the mapping's `idSeparator` ('3-1205' for unit 3, number 1205).
import type { ParamList } from '../../sql/statement.js'
import type { KeyModel } from '../model.js'
import type { SqlTypeName } from '../schema.js'
import { bindId, matchesType } from './ids.js'
import { idOf } from './decode.js'
import { throughMatch } from './joined-key.js'
import { columnGetter } from './entity.js'
import type { Scope } from './scope.js'
import type { Columns } from './value.js'

/** The type a reference to this key binds with: a composite id is text. */
export function idType (key: KeyModel): SqlTypeName {
  return key.parts.length > 1 ? 'text' : key.type
}

/** `seek`: rows are looked up by the key, which an index leading with its first column serves. */
export function keyRefs (key: KeyModel, scope: Scope, path: string, seek = false): string[] {
  // A composite key is a list in the mapping: each column at its own place.
  return key.parts.map((p, i) => scope.ref(p.column, key.parts.length > 1 ? `${path}/${i}` : path, 'key', seek && i === 0 ? { lookup: 'equal' } : {}))
}

/** Selects the key columns into `cols`; the reader gives the id. */
export function keyReader (key: KeyModel, scope: Scope, cols: Columns, path: string): (row: Record<string, unknown>) => string | undefined {
  const readers = keyRefs(key, scope, path).map((ref) => idOf(columnGetter(cols.add(ref))))
  if (readers.length === 1) return readers[0]
  return (row) => {
    const values = readers.map((r) => r(row))
    return values.every((v) => v !== undefined) ? values.join(key.separator) : undefined
  }
}

/** `key = @id` over every key column, bound from the `input` (see keyArgs). */
export function keyMatch (key: KeyModel, scope: Scope, params: ParamList, path: string, input = 'id'): string {
  if (key.through) return throughMatch(key.through, scope, params.input(input, key.type))
  const refs = keyRefs(key, scope, path, true)
  return scope.dialect.and(refs.map((ref, i) => `${ref} = ${params.input(refs.length === 1 ? input : `${input}#${i}`, key.parts[i].type)}`))
}

/** The inputs of keyMatch for an id, or undefined when no row can have it (not canonical for its column types: ids.ts). */
export function keyArgs (key: KeyModel, id: string, input = 'id'): Record<string, unknown> | undefined {
  const values = key.parts.length === 1 ? [id] : id.split(key.separator)
  if (values.length !== key.parts.length || !values.every((v, i) => matchesType(v, key.parts[i].type))) return undefined
  if (values.length === 1) return { [input]: bindId(id, key.type) }
  return Object.fromEntries(values.map((v, i) => [`${input}#${i}`, bindId(v, key.parts[i].type)]))
}

/** The key as one text expression equal to its id, for comparing with a reference held elsewhere. */
export function keyText (key: KeyModel, scope: Scope, params: ParamList, path: string): string {
  const d = scope.dialect
  const refs = keyRefs(key, scope, path)
  if (refs.length === 1) return d.asText(refs[0])
  return d.concat(refs.flatMap((ref, i) => i === 0 ? [d.trim(d.asText(ref))] : [params.constant(key.separator, 'text'), d.trim(d.asText(ref))]))
}
