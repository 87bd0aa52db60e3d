// Named prepared statements on PostgreSQL: each statement parsed and planned once per
// connection, not at every request (unnamed statements replan each time, and the planner's
// look at an index's extreme values cost a key read 3× the buffers of a prepared one).
//  - one name per SQL text, the same in every connection and process (a hash of the text);
//  - at most `limit` names per connection; texts past it run unnamed;
//  - a plan the server can no longer use (a column's type changed: 0A000 "cached plan must not
//    change result type") or a name it no longer knows (26000: DEALLOCATE, DISCARD ALL, a
//    PgBouncer handing over another server connection): the connection is closed, never
//    reused, and the work runs again once on a new one;
//  - `forgetAll()` (a SIGHUP reload, after a schema change): every connection opened before it
//    runs unnamed and is closed when released.
// Only pg's documented interface is used (a query's `name`, `release(true)` closing a client):
// what pg remembers of a connection's statements goes with the connection.
import { createHash } from 'node:crypto'
import pg from 'pg'

/** A connection's names and the generation they belong to. */
interface Names { used: Set<string>, generation: number }

const nameOfText = new Map<string, string>()

/** The name of a SQL text: the same text always gets the same name. */
export function statementName (sql: string): string {
  let name = nameOfText.get(sql)
  if (name === undefined) {
    name = `ponte_${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`
    // Texts come from the compiled mapping (a few hundred); a reload's texts are added.
    if (nameOfText.size >= 10_000) nameOfText.clear()
    nameOfText.set(sql, name)
  }
  return name
}

/** The server no longer has, or can no longer use, a prepared statement: run it again on a new connection. */
export function isStalePlan (err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return false
  return err.code === '26000' || (err.code === '0A000' && /cached plan must not change result type/i.test(err.message))
}

export class PreparedNames {
  private readonly names = new WeakMap<pg.PoolClient, Names>()
  private generation = 0

  constructor (private readonly limit: number) {}

  /** Connections opened before now run unnamed and are closed when released (retired()). */
  forgetAll (): void { this.generation++ }

  /** Whether the connection's names are from before forgetAll(): close it rather than reuse it. */
  retired (client: pg.PoolClient): boolean {
    const names = this.names.get(client)
    return names !== undefined && names.generation !== this.generation
  }

  /** The name to run `sql` under on this connection, or undefined to run it unnamed. */
  nameFor (client: pg.PoolClient, sql: string): string | undefined {
    let names = this.names.get(client)
    if (names === undefined) {
      names = { used: new Set(), generation: this.generation }
      this.names.set(client, names)
    }
    if (names.generation !== this.generation) return undefined
    const name = statementName(sql)
    if (names.used.has(name)) return name
    if (names.used.size >= this.limit) return undefined
    names.used.add(name)
    return name
  }
}
