// Whether the compiled installation can write what a request asks; a 501 naming the fields sent when not.
import { isUnsupported, type Supported } from '../mapping/compile/index.js'
import { NotWritableError } from '../errors.js'

/** A write plan of the compiled installation, or the 501 saying why this mapping has none, naming each field of `sent`. */
export function writable<T> (plan: Supported<T>, what: string, sent: object = {}): T {
  if (isUnsupported(plan)) {
    const { path, reason } = plan.unsupported
    const fields = Object.entries(sent).flatMap(([field, value]) => value === undefined ? [] : [field])
    throw new NotWritableError(`This installation's mapping does not say how to write ${what}: ${reason} (at ${path}).`,
      fields.map((f) => ({ path: `/body/${f}`, message: `cannot be written: the mapping does not say how to write ${what}` })))
  }
  return plan
}
