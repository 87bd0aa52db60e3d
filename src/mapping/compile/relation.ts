// Relations between resources, defined once in the mapping and used in both directions,
// so `professionals?service=S` lists P exactly when `services?professional=P` lists S.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { AppointmentModel, EntityName, MappingModel, RelationModel, Value } from '../model.js'
import { idOf } from './decode.js'
import { idType } from './key.js'
import type { Row } from './entity.js'
import { Scope, type ScopeSource } from './scope.js'
import { Columns, valueReader, valueSql } from './value.js'
import { bindId, matchesType } from './ids.js'
import type { Bound } from './bind.js'

export interface CompiledEdge {
  between: [EntityName, EntityName]
  /** Every pair, for relations between lookups (loaded with the lookup cache). */
  pairs?: Statement
  readPair?: (row: Row) => [string, string] | undefined
  /** The other side's ids for one client, for relations with clients (read per request). */
  forClient?: Statement
  readOther?: (row: Row) => string | undefined
  /** The client id a forClient row carries, to keep only rows of exactly the requested client (services/ids.ts carryingId). */
  readClient?: (row: Row) => string | undefined
  /** forClient bound for one client; undefined when no row can carry that id. */
  bindClient?: (clientId: string) => Bound | undefined
}

export function compileRelation (rel: RelationModel, model: MappingModel, dialect: Dialect): CompiledEdge | undefined {
  if (rel.kind === 'through') return undefined
  const { source, values } = relationSource(rel, model.appointment)
  const [a, b] = rel.between
  const clientSide: 0 | 1 | undefined = a === 'client' ? 0 : b === 'client' ? 1 : undefined
  // A second source of the same pair (their union) is named by its place.
  const earlier = model.relations.slice(0, model.relations.indexOf(rel)).some((r) => r.between.includes(a) && r.between.includes(b))
  const name = `relation.${a}~${b}${earlier ? `.at${rel.path.split('/').pop() ?? ''}` : ''}`
  if (clientSide === undefined) {
    const params = new ParamList(dialect)
    const scope = new Scope(dialect, source, 't')
    const cols = new Columns()
    const readA = idOf(valueReader(values[0], scope, cols))
    const readB = idOf(valueReader(values[1], scope, cols))
    const where = scope.where(params)
    return {
      between: rel.between,
      pairs: {
        name,
        sql: dialect.select({ distinct: true, columns: cols.list, from: { table: dialect.table(source.table), alias: 't' }, joins: scope.joins(params), where, orderBy: [] }),
        params: params.params
      },
      readPair (row) {
        const x = readA(row)
        const y = readB(row)
        return x !== undefined && y !== undefined ? [x, y] : undefined
      }
    }
  }
  const params = new ParamList(dialect)
  const scope = new Scope(dialect, source, 't')
  const cols = new Columns()
  const clientValue = values[clientSide]
  const readOther = idOf(valueReader(values[clientSide === 0 ? 1 : 0], scope, cols))
  const readClient = idOf(valueReader(clientValue, scope, cols))
  const where = scope.where(params)
  const clientType = clientValue.type ?? idType(model.client.key)
  where.push(`${valueSql(clientValue, scope, params, false, 'equal')} = ${params.input('client', clientType)}`)
  const forClient: Statement = {
    name: `${name}.forClient`,
    sql: dialect.select({ distinct: true, columns: cols.list, from: { table: dialect.table(source.table), alias: 't' }, joins: scope.joins(params), where, orderBy: [] }),
    params: params.params
  }
  return {
    between: rel.between,
    forClient,
    readOther,
    readClient,
    bindClient (clientId) {
      return matchesType(clientId, clientType) ? { statement: forClient, args: { client: bindId(clientId, clientType) } } : undefined
    }
  }
}

function relationSource (rel: RelationModel, appointment: AppointmentModel): { source: ScopeSource, values: [Value, Value] } {
  if (rel.kind === 'via') {
    const refs = appointment.refs
    return { source: appointment, values: [refs[rel.between[0]] as Value, refs[rel.between[1]] as Value] }
  }
  if (rel.kind !== 'table') throw new Error('unreachable')
  return {
    source: { table: rel.table, joins: rel.joins, where: rel.where, path: rel.path, tablePath: rel.tablePath, wherePaths: rel.wherePaths },
    values: rel.columns
  }
}
