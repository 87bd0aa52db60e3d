import { isUnsupported, type Supported } from '../mapping/compile/index.js'
import { NotWritableError } from '../errors.js'

/** A write plan of the compiled installation, or the 501 saying why this mapping has none. */
export function writable<T> (plan: Supported<T>, what: string): T {
  if (isUnsupported(plan)) {
    const { path, reason } = plan.unsupported
    throw new NotWritableError(`This installation's mapping does not say how to write ${what}: ${reason} (at ${path}).`)
  }
  return plan
}
