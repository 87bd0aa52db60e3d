// A column of a fixture written in a test helper, in one line: the generated clinics (the
// night clinic, the overnight hospital) declare their tables with it.
import type { FixtureColumn } from '../../src/fixtures/format.js'

/** `name` of `type`, NULL allowed unless said, with a length where the type takes one. */
export const col = (name: string, type: FixtureColumn['type'], nullable = true, length?: number): FixtureColumn =>
  ({ name, type, nullable, ...length ? { length } : {} })
