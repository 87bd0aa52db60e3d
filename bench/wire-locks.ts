// W5's locks as the database sees them: a TCP relay between one server and its database that
// reads the statements on the wire (MariaDB's COM_QUERY / COM_STMT_PREPARE / COM_STMT_EXECUTE,
// PostgreSQL's Query / Parse / Bind) and times, per connection:
//  - the row locks: from the answer to a transaction's first locking statement (UPDATE,
//    INSERT, DELETE, SELECT … FOR UPDATE/SHARE: the lock is then granted) to the answer to its
//    COMMIT or ROLLBACK (released). Time spent waiting for the lock is not holding it;
//  - the application locks (Ponte's claims: GET_LOCK, pg_advisory_lock): from the answer to
//    the first taken to the release being sent.
// Both servers speak one statement at a time on a connection, so the first bytes back after
// a statement are its answer. Nothing is changed or held back: bytes are passed on as they come.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net'

export type WireKind = 'mysql' | 'postgres'

export interface LockSpans {
  /** Row locks held, ms, one per transaction that took one. */
  row: number[]
  /** Application locks held, ms, one per claim (first taken to release sent). */
  claim: number[]
}

export interface WireLocks {
  /** The server's URL with the relay in place of the database's host and port. */
  url: string
  /** Spans since the last reset, and starts afresh. */
  take: () => LockSpans
  close: () => Promise<void>
}

const LOCKING = /^\s*(?:WITH\b[\s\S]*\b)?(?:UPDATE|INSERT|DELETE|REPLACE)\b|\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE)\b|\bLOCK\s+IN\s+SHARE\s+MODE\b/i
const CLAIM = /\bGET_LOCK\s*\(|\bpg_advisory_(?:xact_)?lock\s*\(/i
const RELEASE = /\bRELEASE_(?:ALL_)?LOCKS?\s*\(|\bpg_advisory_unlock/i
const BEGIN = /^\s*(?:BEGIN|START\s+TRANSACTION)\b/i
const END = /^\s*(?:COMMIT|ROLLBACK)\b/i

/** One connection's state: what its last statement was, and since when it holds what. */
class Connection {
  inTransaction = false
  rowSince?: number
  claimSince?: number
  /** What the next answer ends or starts. */
  awaiting: { lock: boolean, claim: boolean, end: boolean, prepare?: string } | undefined
  constructor (private readonly spans: () => LockSpans) {}

  /** A statement sent (its text, as far as the relay knows it). */
  sent (sql: string | undefined, prepare?: string): void {
    if (prepare !== undefined) { this.awaiting = { lock: false, claim: false, end: false, prepare }; return }
    if (sql === undefined) return
    if (RELEASE.test(sql) && this.claimSince !== undefined) {
      this.spans().claim.push(performance.now() - this.claimSince)
      this.claimSince = undefined
    }
    if (BEGIN.test(sql)) this.inTransaction = true
    this.awaiting = {
      lock: this.inTransaction && this.rowSince === undefined && LOCKING.test(sql),
      claim: this.claimSince === undefined && CLAIM.test(sql),
      end: END.test(sql)
    }
  }

  /** The first bytes of an answer. */
  answered (): void {
    const a = this.awaiting
    if (a === undefined) return
    this.awaiting = undefined
    const now = performance.now()
    if (a.lock) this.rowSince = now
    if (a.claim) this.claimSince = now
    if (a.end) {
      if (this.rowSince !== undefined) this.spans().row.push(now - this.rowSince)
      this.rowSince = undefined
      this.inTransaction = false
    }
  }
}

/** Splits a byte stream into frames as they complete (what is left waits for the next chunk). */
class Frames {
  private buffered: Buffer = Buffer.alloc(0)
  constructor (private readonly next: (b: Buffer) => number | undefined) {}
  /** Complete frames of `chunk` (with what was left before it). */
  * of (chunk: Buffer): Generator<Buffer> {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk])
    for (;;) {
      const length = this.next(this.buffered)
      if (length === undefined || this.buffered.length < length) return
      yield this.buffered.subarray(0, length)
      this.buffered = this.buffered.subarray(length)
    }
  }
}

const cString = (b: Buffer, at: number): [string, number] => {
  const end = b.indexOf(0, at)
  return [b.toString('utf8', at, end), end + 1]
}

/** PostgreSQL, client to server: the statements each write holds. */
function postgresReader (c: Connection): (chunk: Buffer) => void {
  let startup = true
  const named = new Map<string, string>()
  let parsed: string | undefined
  const frames = new Frames((b) => startup ? (b.length >= 4 ? b.readInt32BE(0) : undefined) : (b.length >= 5 ? 1 + b.readInt32BE(1) : undefined))
  return (chunk) => {
    for (const f of frames.of(chunk)) {
      if (startup) {
        // SSLRequest and GSSENCRequest come before the startup message; the relay sees plain text only.
        if (f.length !== 8) startup = false
        continue
      }
      const type = String.fromCharCode(f[0]!)
      if (type === 'Q') c.sent(cString(f, 5)[0])
      else if (type === 'P') {
        const [name, at] = cString(f, 5)
        parsed = cString(f, at)[0]
        if (name !== '') named.set(name, parsed)
      } else if (type === 'B') {
        const [, at] = cString(f, 5)
        const statement = cString(f, at)[0]
        c.sent(statement === '' ? parsed : named.get(statement))
      } else if (type === 'C' && f[5] === 'S'.charCodeAt(0)) named.delete(cString(f, 6)[0])
    }
  }
}

/** MariaDB, client to server: the commands each write holds (a command's packets start at sequence 0). */
function mysqlReader (c: Connection, ids: Map<number, string>): (chunk: Buffer) => void {
  const frames = new Frames((b) => b.length >= 4 ? 4 + b.readUIntLE(0, 3) : undefined)
  return (chunk) => {
    for (const f of frames.of(chunk)) {
      if (f[3] !== 0 || f.length < 5) continue
      const command = f[4]
      if (command === 0x03) c.sent(f.toString('utf8', 5))
      else if (command === 0x16) c.sent(undefined, f.toString('utf8', 5))
      else if (command === 0x17 && f.length >= 9) c.sent(ids.get(f.readUInt32LE(5)))
      else if (command === 0x19 && f.length >= 9) ids.delete(f.readUInt32LE(5)) // COM_STMT_CLOSE: no answer
      else c.sent('')
    }
  }
}

/** A relay for one server's database connections at `url` (mysql:// or postgres://). */
export async function wireLocks (kind: WireKind, url: string): Promise<WireLocks> {
  const target = new URL(url)
  const host = target.hostname || '127.0.0.1'
  const port = Number(target.port || (kind === 'mysql' ? 3306 : 5432))
  let spans: LockSpans = { row: [], claim: [] }
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(port, host)
    sockets.add(client); sockets.add(upstream)
    const c = new Connection(() => spans)
    const ids = new Map<number, string>()
    const read = kind === 'postgres' ? postgresReader(c) : mysqlReader(c, ids)
    client.on('data', (chunk: Buffer) => {
      read(chunk)
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => {
      const prepare = c.awaiting?.prepare
      // COM_STMT_PREPARE's answer: 0x00, then the statement's id.
      if (prepare !== undefined && chunk.length >= 9 && chunk[4] === 0) ids.set(chunk.readUInt32LE(5), prepare)
      c.answered()
      client.write(chunk)
    })
    const end = (): void => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream) }
    client.on('error', end); upstream.on('error', end)
    client.on('close', end); upstream.on('close', end)
  })
  server.listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const relayed = new URL(url)
  relayed.hostname = '127.0.0.1'
  relayed.port = String((server.address() as AddressInfo).port)
  return {
    url: relayed.toString(),
    take: () => { const s = spans; spans = { row: [], claim: [] }; return s },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
