import { CompileError } from '../mapping/compile/scope.js'
import { NotWritableError } from '../errors.js'

/** Compiles a write plan, turning "the mapping cannot express this write" into a 501 for the caller. */
export function writable<T> (compile: () => T, what: string): T {
  try {
    return compile()
  } catch (err) {
    if (err instanceof CompileError) throw new NotWritableError(`This installation's mapping does not say how to write ${what}: ${err.message} (at ${err.path}).`)
    throw err
  }
}
