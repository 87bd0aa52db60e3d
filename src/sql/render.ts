import type { Dialect, SelectSpec } from './dialect.js'

/** `SELECT … FROM … JOIN … WHERE …`, the part every dialect writes alike. */
export function renderSelectBody (d: Dialect, spec: SelectSpec, extraColumns: string[] = []): string {
  const cols = spec.columns.map((c) => `${c.expr} AS ${d.ident(c.alias)}`).concat(extraColumns)
  const joins = spec.joins.map((j) => ` LEFT JOIN ${j.table} ${d.ident(j.alias)} ON ${j.on}`).join('')
  const where = spec.where.length > 0 ? ` WHERE ${spec.where.join(' AND ')}` : ''
  const group = spec.groupBy && spec.groupBy.length > 0 ? ` GROUP BY ${spec.groupBy.join(', ')}` : ''
  const having = spec.having && spec.having.length > 0 ? ` HAVING ${spec.having.join(' AND ')}` : ''
  return `SELECT ${spec.distinct ? 'DISTINCT ' : ''}${cols.join(', ')} FROM ${spec.from.table} ${d.ident(spec.from.alias)}${spec.lock ? d.lockHint : ''}${joins}${where}${group}${having}`
}
