// Named prepared statements on PostgreSQL: each statement parsed and planned once per
// connection, not at every request (unnamed statements replan each time, and the planner's
// look at an index's extreme values cost a key read 3× the buffers of a prepared one).
//  - one name per SQL text, the same in every connection and process (a hash of the text);
//  - at most `limit` names per connection, the least recently used deallocated first;
//  - a plan the server can no longer use (a column's type changed: 0A000 "cached plan must not
//    change result type") or a name it no longer knows (26000: DEALLOCATE, DISCARD ALL, a
//    PgBouncer handing over another server connection) makes the connection forget every
//    name: the caller retries outside a transaction, and fails the transaction inside one;
//  - `forgetAll()` (a SIGHUP reload, after a schema change) makes every connection forget its
//    names before its next statement.
// pg remembers what it parsed on each connection (`connection.parsedStatements`, not part of
// its typed interface): forgetting a name removes it there too, or pg would skip the Parse.
import { createHash } from 'node:crypto'
import pg from 'pg'

/** pg's record of the statements it parsed on a connection. */
interface PgConnection { parsedStatements: Record<string, string> }

/** A connection's names, least recently used first, and the generation they belong to. */
interface Names { used: Map<string, true>, generation: number }

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

/** The server no longer has, or can no longer use, a prepared statement: run it again after forgetting. */
export function isStalePlan (err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return false
  return err.code === '26000' || (err.code === '0A000' && /cached plan must not change result type/i.test(err.message))
}

export class PreparedNames {
  private readonly names = new WeakMap<pg.PoolClient, Names>()
  private generation = 0

  constructor (private readonly limit: number) {}

  /** Every connection forgets its names before its next statement (prepare() checks). */
  forgetAll (): void { this.generation++ }

  /**
   * Before a statement outside a transaction (or before BEGIN, without `sql`): a connection
   * from before forgetAll() drops its names, and a connection at its limit deallocates the
   * least recently used one to make room for `sql`'s.
   */
  async prepare (client: pg.PoolClient, sql?: string): Promise<void> {
    const names = this.of(client)
    if (names.generation !== this.generation) await this.forget(client)
    if (sql === undefined) return
    const name = statementName(sql)
    if (names.used.has(name) || names.used.size < this.limit) return
    const oldest = names.used.keys().next().value as string
    names.used.delete(oldest)
    delete connectionOf(client).parsedStatements[oldest]
    // Outside a transaction, so a failure (the name already gone) affects nothing else.
    // Quoted: the name has capitals and dashes (it is ours, from the hash: nothing to escape).
    await client.query(`DEALLOCATE "${oldest}"`).catch(() => undefined)
  }

  /**
   * The name to run `sql` under on this connection, or undefined to run it unnamed: inside a
   * transaction a new name is taken only while there is room (deallocating there could fail
   * and abort the transaction).
   */
  nameFor (client: pg.PoolClient, sql: string): string | undefined {
    const names = this.of(client)
    const name = statementName(sql)
    if (names.used.has(name)) {
      // Most recently used last.
      names.used.delete(name)
      names.used.set(name, true)
      return name
    }
    if (names.used.size >= this.limit || names.generation !== this.generation) return undefined
    names.used.set(name, true)
    return name
  }

  /** The connection forgets every name, on the server (DEALLOCATE ALL) and in pg. Outside a transaction, or after its rollback. */
  async forget (client: pg.PoolClient): Promise<void> {
    await client.query('DEALLOCATE ALL')
    this.forgetLocally(client)
  }

  /** The connection's names forgotten here and in pg only: the server's are gone already (a new server connection behind PgBouncer). */
  forgetLocally (client: pg.PoolClient): void {
    connectionOf(client).parsedStatements = {}
    this.names.set(client, { used: new Map(), generation: this.generation })
  }

  private of (client: pg.PoolClient): Names {
    let names = this.names.get(client)
    if (names === undefined) {
      names = { used: new Map(), generation: this.generation }
      this.names.set(client, names)
    }
    return names
  }
}

const connectionOf = (client: pg.PoolClient): PgConnection => (client as unknown as { connection: PgConnection }).connection
