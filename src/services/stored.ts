// The write invariant (design notes §5): an accepted write stores exactly what was sent,
// against the right rows, or is refused naming the field and changes nothing. Each write
// service reads its record back inside its own transaction and compares; these are the
// shared pieces of that rule.
import { ConflictError, DuplicateKeyError, InvalidInputError, MisfitMappingValueError, MissingValueError, NotWritableError, ValueMisfitError, type FieldIssue } from '../errors.js'

/** A written record and the request fields accepted without being stored (the `Ponte-Ignored-Fields` header). */
export interface Stored<T> {
  record: T
  ignored: string[]
  /** Those of `ignored` the mapping lists under `write.ignore`; the others it does not map for writing. */
  declared?: string[]
}

/** The answer header naming what a write accepted but did not store. */
export const IGNORED_FIELDS_HEADER = 'ponte-ignored-fields'
/** Of those, the ones the mapping declares ignored (`write.ignore`), so a tool can say why each was not stored. */
export const IGNORED_DECLARED_HEADER = 'ponte-ignored-declared'
/** The refusal of a field the clinic database holds NOT NULL without a default (what `check` tells apart from a mistake). */
export const REQUIRED_BY_INSTALLATION = 'is required by this installation'

/** Fields a request sends that the installation reads but cannot write: a 501 naming each, before anything is written. */
export function refuseUnstorable (issues: FieldIssue[]): void {
  if (issues.length === 0) return
  const names = issues.map((i) => i.path.replace('/body/', ''))
  throw new NotWritableError(`This installation cannot store ${names.join(', ')}: ${issues.map((i) => i.message).join('; ')}. Nothing was written.`, issues)
}

/** The issue of a field that read back differently (`check` says it in its own words). */
export const MISSTORED = 'would not read back as sent with this mapping'

/**
 * What was read back differs from what was sent: the mapping stores these fields so that
 * they read as something else. Thrown inside the write's transaction, so it rolls back.
 */
export function refuseMisstored (fields: string[], what: string): never {
  throw new NotWritableError(
    `This installation's mapping does not store ${fields.join(', ')} as sent: the ${what} read back differently after writing, so nothing was written. The mapping needs correcting (run ponte check).`,
    fields.map((f) => ({ path: `/body/${f}`, message: MISSTORED })))
}

/** A field that reads back from another column of the record than the one written (`by`: where the mapping reads it first). */
export interface Shadowed { field: string, by: string }

/**
 * What was read back differs because of the record, not the mapping: the mapping reads the
 * field first from another column (a social name over the registered one), and this record
 * holds a value there. The caller is told what in the record causes it; nothing is written.
 */
export function refuseShadowed (shadowed: Shadowed[], creating: boolean): never {
  const cause = creating
    ? 'the database fills that column for a new record (a column default or a trigger)'
    : 'the record holds a value there (a social name, for instance, entered in the clinic\'s own program)'
  throw new NotWritableError(
    `This client's record shows ${shadowed.map((s) => `${s.field} from ${s.by}`).join(' and ')}, ahead of the column written: ${cause}, so ${shadowed.map((s) => s.field).join(', ')} would not read back as sent. Nothing was written; change it in the clinic's own program, or clear that value there first.`,
    shadowed.map((s) => ({ path: `/body/${s.field}`, message: `this record's value at ${s.by} is shown instead of the one sent` })))
}

/** The columns a request field writes; `table` where the writer knows it (a client's own and joined rows). */
export type Writers = Partial<Record<string, { columns: Array<{ column: string, table?: string }> } | undefined>>

/** A joined row's columns are named `alias.column` among the writers; a table `dbo.X` is `X`. */
const bare = (name: string): string => name.slice(name.lastIndexOf('.') + 1).toLowerCase()

/**
 * Runs a write; what the database refuses becomes a refusal naming request fields. A NULL
 * names the field writing that column (a column no field writes is the mapping's gap: a 501).
 * A key already held names the fields writing the key's columns, where the database said which
 * key (db/colliding-key.ts). Otherwise a key already held, or a value not taken (too long,
 * wrong type, a missing reference), names `stores`, the fields this write stores: a caller
 * told which values to look at can act on them.
 */
export async function requiring<T> (writers: Writers, stores: string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    const fieldOf = (column: string | undefined): string | undefined => Object.entries(writers)
      .find(([, w]) => w?.columns.some((c) => bare(c.column) === column?.toLowerCase()))?.[0]
    if (err instanceof ValueMisfitError) {
      const field = fieldOf(err.column)
      if (field) throw new InvalidInputError(`${field} ${err.problem}.`, [{ path: `/body/${field}`, message: err.problem }])
      // No request field writes the column: the value is the mapping's own (`write.set`), which the caller cannot change.
      throw new MisfitMappingValueError(`The value this installation's mapping itself writes into column ${err.column} ${err.problem}: no request can be stored until the mapping is corrected (run ponte check). Nothing was written.`,
        [{ path: '/body', message: `cannot be stored: the mapping's own value for column ${err.column} ${err.problem}` }], err.column)
    }
    if (err instanceof MissingValueError) {
      const field = fieldOf(err.column)
      if (field) throw new InvalidInputError(`${field} is required by this installation.`, [{ path: `/body/${field}`, message: REQUIRED_BY_INSTALLATION }])
      const column = err.column === undefined ? 'a column' : `column \`${err.column}\``
      throw new NotWritableError(`The clinic database requires a value in ${column} that no field of this request writes and the mapping does not set; the installation's mapping needs it under write.set. Nothing was written.`,
        [{ path: '/body', message: `cannot be stored: ${column} requires a value no field gives, and the mapping sets none` }])
    }
    if (err instanceof DuplicateKeyError) {
      const colliding = collidingFields(writers, err)
      if (colliding.length > 0) {
        throw new ConflictError(`The clinic database already holds ${colliding.join(' and ')} for another record. Nothing was written.`,
          colliding.map((f) => ({ path: `/body/${f}`, message: 'is already held by another record in the clinic database' })))
      }
    }
    const unnamed = (err instanceof ConflictError || err instanceof InvalidInputError) && err.errors.length === 0
    if (!unnamed || stores.length === 0) throw err
    const one = stores.length === 1
    if (err instanceof ConflictError) {
      throw new ConflictError(`${err.message} ${one ? `It is ${stores[0]}` : `It is one of ${stores.join(', ')}`} that the clinic database already holds for another record. Nothing was written.`,
        stores.map((f) => ({ path: `/body/${f}`, message: one ? 'is already held by another record in the clinic database' : 'may be a value another record already holds in the clinic database' })))
    }
    throw new InvalidInputError(`${err.message} ${one ? `It is ${stores[0]}` : `It is one of ${stores.join(', ')}`}. Nothing was written.`,
      stores.map((f) => ({ path: `/body/${f}`, message: one ? 'is not a value the clinic database takes' : 'may be the value the clinic database did not take' })))
  }
}

/** The fields writing a column of the key that collided (of its table, where both are known); none when the key is unknown. */
function collidingFields (writers: Writers, err: DuplicateKeyError): string[] {
  const { table, columns } = err.key
  if (columns === undefined) return []
  const inKey = new Set(columns.map((c) => c.toLowerCase()))
  return Object.entries(writers).filter(([, w]) => w?.columns.some((c) =>
    inKey.has(bare(c.column)) && (c.table === undefined || table === undefined || bare(c.table) === bare(table)))).map(([field]) => field)
}

/** A write's answer: the record, the fields accepted and not stored, and which of those the mapping's `write.ignore` declares (Ponte-Ignored-Declared). */
export function answered<T> (record: T, ignored: string[], declaredIgnored: ReadonlySet<string>): { record: T, ignored: string[], declared: string[] } {
  return { record, ignored, declared: ignored.filter((f) => declaredIgnored.has(f)) }
}
