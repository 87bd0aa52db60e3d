// The write invariant (design notes §5): an accepted write stores exactly what was sent,
// against the right rows, or is refused naming the field and changes nothing. Each write
// service reads its record back inside its own transaction and compares; these are the
// shared pieces of that rule.
import { NotWritableError, type FieldIssue } from '../errors.js'

/** A written record and the request fields accepted without being stored (the `Ponte-Ignored-Fields` header). */
export interface Stored<T> {
  record: T
  ignored: string[]
}

/** The answer header naming what a write accepted but did not store. */
export const IGNORED_FIELDS_HEADER = 'ponte-ignored-fields'

/** Fields a request sends that the installation reads but cannot write: a 501 naming each, before anything is written. */
export function refuseUnstorable (issues: FieldIssue[]): void {
  if (issues.length === 0) return
  const names = issues.map((i) => i.path.replace('/body/', ''))
  throw new NotWritableError(`This installation cannot store ${names.join(', ')}: ${issues.map((i) => i.message).join('; ')}. Nothing was written.`, issues)
}

/**
 * What was read back differs from what was sent: the mapping stores these fields so that
 * they read as something else. Thrown inside the write's transaction, so it rolls back.
 */
export function refuseMisstored (fields: string[], what: string): never {
  throw new NotWritableError(
    `This installation's mapping does not store ${fields.join(', ')} as sent: the ${what} read back differently after writing, so nothing was written. The mapping needs correcting (run ponte check).`,
    fields.map((f) => ({ path: `/body/${f}`, message: 'would not read back as sent with this mapping' })))
}
