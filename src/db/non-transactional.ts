// Whether a write statement may run on the table it changes. A MariaDB/MySQL table whose engine
// ignores transactions (MyISAM, Aria) keeps each statement the moment it runs: a read-back that
// differs, a refused booking or `ponte check`'s rolled-back probe would leave its rows changed.
// Every statement that writes names its table (`Statement.writes`), so the refusal comes before
// the first such statement runs; accepted only where the mapping declares it knows.
import { NonTransactionalError, PonteError } from '../errors.js'
import type { Statement } from '../sql/statement.js'
import { nonTransactional, type LiveCatalog } from './columns.js'

/**
 * Throws NonTransactionalError when `statement` writes a table the catalogue says cannot roll
 * back, unless `accepted`; an accepted one is added to `kept` (what a failed write leaves behind).
 */
export function refuseNonTransactional (statement: Statement, catalog: LiveCatalog | undefined, accepted: boolean, kept?: Map<string, string>): void {
  if (statement.writes === undefined || catalog === undefined) return
  const table = catalog.table(statement.writes)
  const engine = nonTransactional(table)
  if (engine === undefined) return
  if (!accepted) throw new NonTransactionalError(table?.name ?? statement.writes, engine)
  kept?.set(table?.name ?? statement.writes, engine)
}

/**
 * A refusal after an accepted write to a table that cannot roll back tells the truth: what was
 * written there stays (the caller's "nothing was written" would be false). Other errors as they are.
 */
export function keptWrites (err: unknown, kept: ReadonlyMap<string, string>): unknown {
  if (kept.size === 0 || !(err instanceof PonteError)) return err
  const tables = [...kept].map(([table, engine]) => `${table} (${engine})`).join(', ')
  const said = `what it wrote to ${tables} stays written: that engine cannot roll back, and the mapping accepts it (write.nonTransactional)`
  err.message = /nothing was written/i.test(err.message) ? err.message.replace(/nothing was written/i, said) : `${err.message} Only partly undone: ${said}.`
  return err
}

/** The tables among `tables` the catalogue says cannot roll back, each with its engine, in order. */
export function nonTransactionalTables (tables: Iterable<string>, catalog: LiveCatalog): Array<{ table: string, engine: string }> {
  const out = new Map<string, { table: string, engine: string }>()
  for (const name of tables) {
    const table = catalog.table(name)
    const engine = nonTransactional(table)
    if (table !== undefined && engine !== undefined && !out.has(table.name)) out.set(table.name, { table: table.name, engine })
  }
  return [...out.values()]
}
