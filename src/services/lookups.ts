// Lists and details of lookup resources, filtered by relations in memory.
import { servedFrom, type Arrival, type Database, type Querier } from '../db/database.js'
import type { CompiledEdge, CompiledMapping } from '../mapping/compile/index.js'
import type { EntityName, LookupName } from '../mapping/model.js'
import { NotFoundError } from '../errors.js'
import type { Catalog, Snapshot } from './catalog.js'
import type { Clients } from './clients.js'
import { carryingId } from './ids.js'
import { planExists } from './plans.js'
import { jsonList } from './json.js'

export type LookupFilters = Partial<Record<EntityName, string>> & { enabled?: boolean }
export type Entity = Record<string, unknown> & { id: string }

export class Lookups {
  private readonly clientEdges = new Map<EntityName, CompiledEdge>()
  private readonly presented = new WeakMap<Snapshot, Map<string, Entity>>()

  constructor (private readonly compiled: CompiledMapping, private readonly db: Database, private readonly catalog: Catalog, private readonly clients: Clients) {
    for (const e of compiled.edges) {
      if (!e.forClient) continue
      this.clientEdges.set(e.between[0] === 'client' ? e.between[1] : e.between[0], e)
    }
  }

  async list (name: LookupName, filters: LookupFilters, at: Arrival): Promise<Entity[]> {
    const snap = await this.catalog.snapshot(at)
    let records = snap.list(name)
    if (filters.enabled !== undefined) records = records.filter((r) => r.enabled === filters.enabled)
    for (const [other, id] of Object.entries(filters) as [EntityName | 'enabled', unknown][]) {
      if (other === 'enabled' || typeof id !== 'string') continue
      const allowed = other === 'client' ? await this.forClient(name, id, at) : this.relatedIds(snap, other, id, name)
      if (allowed) records = records.filter((r) => allowed.has(r.id))
    }
    // Each entity's JSON is made once per snapshot (services/json.ts): a list splices them.
    return jsonList(records.map((r) => this.present(snap, name, r.entity)))
  }

  async get (name: LookupName, id: string, at: Arrival): Promise<Entity> {
    const snap = await this.catalog.snapshot(at)
    const rec = snap.record(name, id)
    if (!rec) throw new NotFoundError(`No ${name} with id "${id}".`)
    return this.present(snap, name, rec.entity)
  }

  /** The entity as nested in another object (an appointment's professional, …). */
  nested (snap: Snapshot, name: LookupName, id: string | undefined): Entity | undefined {
    if (id === undefined) return undefined
    const rec = snap.record(name, id)
    return rec ? this.present(snap, name, rec.entity) : undefined
  }

  // A professional carries its specialties; built once per catalogue snapshot, since the
  // same professional is nested in every appointment of a list.
  private present (snap: Snapshot, name: LookupName, entity: Entity): Entity {
    if (name !== 'professional' || !snap.hasRelation('professional', 'specialty')) return entity
    let presented = this.presented.get(snap)
    if (!presented) this.presented.set(snap, presented = new Map())
    let out = presented.get(entity.id)
    if (!out) {
      const ids = snap.related('professional', entity.id, 'specialty') ?? new Set<string>()
      const specialties = [...ids].flatMap((sid) => snap.record('specialty', sid)?.entity ?? []).sort(byName)
      out = { ...entity, specialties }
      presented.set(entity.id, out)
    }
    return out
  }

  /**
   * Ids of `target` related to `other` = id; undefined when every record qualifies.
   * An unmapped relation means "not restricted" (every professional takes every insurance),
   * which is symmetric, so both directions of a filter still agree.
   */
  private relatedIds (snap: Snapshot, other: EntityName, id: string, target: LookupName): Set<string> | undefined {
    const related = snap.related(other, id, target)
    if (related) return related
    if (other === 'plan') return planExists(this.compiled.model, snap, id) === false ? new Set() : undefined
    if (other !== 'client' && !snap.record(other, id)) return new Set()
    return undefined
  }

  private async forClient (target: LookupName, clientId: string, at: Arrival): Promise<Set<string> | undefined> {
    const edge = this.clientEdges.get(target)
    // No relation mapped: every record qualifies — for a client that exists.
    if (!edge?.bindClient || !edge.readOther || !edge.readClient) return await this.clients.exists(clientId, at) ? undefined : new Set()
    return await idsForClient(servedFrom(this.db, at), edge, clientId)
  }
}

/**
 * The ids a client is related to by `edge` (GET /locations?client=…), read through `q`: a
 * client write reads back the location it stored the same way, inside its transaction.
 */
export async function idsForClient (q: Querier, edge: CompiledEdge, clientId: string): Promise<Set<string>> {
  const bound = edge.bindClient?.(clientId)
  if (!bound || !edge.readClient || !edge.readOther) return new Set()
  const ids = new Set<string>()
  for (const row of carryingId(await q.query(bound.statement, bound.args), clientId, edge.readClient)) {
    const other = edge.readOther(row)
    if (other !== undefined) ids.add(other)
  }
  return ids
}

function byName (a: Entity, b: Entity): number {
  return String(a.name ?? '').localeCompare(String(b.name ?? ''))
}
