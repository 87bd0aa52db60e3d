// The lookup catalogue: every lookup resource and the relations between them, read in one
// go and kept in an LRU with a TTL. Stale data is served while a refresh runs, and while
// the database is briefly down; only a cold start with no database fails.
import { LRUCache } from 'lru-cache'
import type { Arrival, Database } from '../db/database.js'
import { DatabaseUnavailableError } from '../errors.js'
import type { CompiledMapping, LookupRecord } from '../mapping/compile/index.js'
import type { EntityName, LookupName } from '../mapping/model.js'

type Pairs = Map<string, Set<string>>

export class Snapshot {
  constructor (
    readonly records: Map<LookupName, Map<string, LookupRecord>>,
    /** For each related pair of resources, "a~b" → (id of a → ids of b), both directions stored. */
    private readonly edges: Map<string, Pairs>
  ) {}

  record (name: LookupName, id: string): LookupRecord | undefined {
    return this.records.get(name)?.get(id)
  }

  list (name: LookupName): LookupRecord[] {
    return [...(this.records.get(name)?.values() ?? [])]
  }

  /** Ids of `to` related to `fromId`, or undefined when the mapping declares no such relation. */
  related (from: EntityName, fromId: string, to: EntityName): Set<string> | undefined {
    const pairs = this.edges.get(directed(from, to))
    if (!pairs) return undefined
    return pairs.get(fromId) ?? new Set()
  }

  hasRelation (a: EntityName, b: EntityName): boolean {
    return this.edges.has(directed(a, b))
  }
}

const directed = (from: EntityName, to: EntityName) => `${from}>${to}`

// lru-cache's peek options, made once rather than on every request.
const FRESH = { allowStale: false } as const
const STALE = { allowStale: true } as const

export class Catalog {
  private readonly cache: LRUCache<'snapshot', Snapshot, Arrival>
  /** Why the last load failed: what a cold start with no database answers (the driver's typed 503/504). */
  private lastFailure: unknown
  /** When the snapshot served was read (ms since the epoch), and how many loads failed: for metrics and /ready. */
  loadedAt: number | undefined
  failures = 0
  /** Snapshots served from memory, and those that waited for a load (metrics). */
  hits = 0
  misses = 0
  /** Where stored values that cannot be read are said (the server's logger); said once per field and count. */
  log?: { warn: (details: Record<string, unknown>, message: string) => void }
  private readonly said = new Set<string>()

  constructor (private readonly compiled: CompiledMapping, private readonly db: Database, ttlMs = compiled.model.cacheTtlSeconds * 1000) {
    this.cache = new LRUCache<'snapshot', Snapshot, Arrival>({
      max: 1,
      ttl: ttlMs,
      allowStale: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: async (_key, _stale, { context }) => {
        try {
          const snapshot = await this.load(context)
          this.loadedAt = Date.now()
          return snapshot
        } catch (err) {
          this.lastFailure = err
          this.failures++
          throw err
        }
      }
    })
  }

  /** The snapshot when it is fresh (counted as a hit), without a promise; else undefined, and `snapshot` loads it. */
  fresh (): Snapshot | undefined {
    const fresh = this.cache.peek('snapshot', FRESH)
    if (fresh !== undefined) this.hits++
    return fresh
  }

  /** `at`: the arrival of the request asking; a load it starts is bounded from there (a refresh served stale runs on its own bound). */
  async snapshot (at: Arrival): Promise<Snapshot> {
    // Fresh: served as it is, without lru-cache's fetch (a promise and its checks, per request).
    const fresh = this.fresh()
    if (fresh !== undefined) return fresh
    // A hit is served from memory (stale while a refresh runs); a miss waits for a load.
    const hit = this.cache.peek('snapshot', STALE) !== undefined
    if (hit) this.hits++
    else this.misses++
    const s = await this.cache.fetch('snapshot', { context: hit ? undefined : at })
    // lru-cache answers a failed fetch with the stale snapshot, or undefined when it has none.
    if (!s) throw this.lastFailure ?? new DatabaseUnavailableError()
    return s
  }

  /** A number field left out of records because its stored text does not read: ids and counts only, never the value. */
  private sayUnreadable (name: LookupName, records: LookupRecord[]): void {
    const fields = new Map<string, LookupRecord[]>()
    for (const r of records) for (const f of r.unreadable ?? []) fields.set(f, [...fields.get(f) ?? [], r])
    for (const [field, bad] of fields) {
      const said = `${name}/${field}/${bad.length}`
      if (this.said.has(said)) continue
      this.said.add(said)
      this.log?.warn({ resource: name, field, rows: bad.length, firstId: bad[0].id }, `${name} ${field}: stored values that do not read as numbers are left out of their records (ponte check names the column; docs/mapping.md#numbers-kept-as-text)`)
    }
  }

  private async load (at: Arrival): Promise<Snapshot> {
    const records = new Map<LookupName, Map<string, LookupRecord>>()
    for (const lookup of this.compiled.lookups) {
      const rows = await this.db.query(lookup.all, {}, at)
      const byId = new Map<string, LookupRecord>()
      for (const row of rows) {
        const rec = lookup.read(row)
        if (rec && !byId.has(rec.id)) byId.set(rec.id, rec)
      }
      records.set(lookup.name, byId)
      this.sayUnreadable(lookup.name, [...byId.values()])
    }
    const edges = new Map<string, Pairs>()
    const add = (a: EntityName, b: EntityName, x: string, y: string) => {
      for (const [from, to, f, t] of [[a, b, x, y], [b, a, y, x]] as const) {
        let pairs = edges.get(directed(from, to))
        if (!pairs) edges.set(directed(from, to), pairs = new Map())
        let set = pairs.get(f)
        if (!set) pairs.set(f, set = new Set())
        set.add(t)
      }
    }
    const declare = (a: EntityName, b: EntityName) => {
      for (const k of [directed(a, b), directed(b, a)]) if (!edges.has(k)) edges.set(k, new Map())
    }
    for (const edge of this.compiled.edges) {
      if (!edge.pairs || !edge.readPair) continue
      const [a, b] = edge.between
      declare(a, b)
      for (const row of await this.db.query(edge.pairs, {}, at)) {
        const pair = edge.readPair(row)
        if (pair) add(a, b, pair[0], pair[1])
      }
    }
    // `through` relations compose two loaded ones; declared after them, so order is free.
    for (const t of this.compiled.throughs) {
      const [a, c] = t.between
      declare(a, c)
      const ab = edges.get(directed(a, t.through)) ?? new Map()
      const bc = edges.get(directed(t.through, c)) ?? new Map<string, Set<string>>()
      for (const [x, bs] of ab) for (const b of bs) for (const y of bc.get(b) ?? []) add(a, c, x, y)
    }
    return new Snapshot(records, edges)
  }
}
