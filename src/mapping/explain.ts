// A statement as a person reads it: what it is for, what each parameter binds, the SQL.
// `ponte explain` prints this; the golden files are made of it.
import type { Statement } from '../sql/statement.js'

export function renderStatement (s: Statement): string {
  const params = s.params.map((p, i) => {
    const bound = 'value' in p.source ? JSON.stringify(p.source.value) : `input:${p.source.input}`
    return `-- @p${i + 1} ${p.type} = ${bound}`
  })
  return [`-- ${s.name}`, ...params, s.sql, ''].join('\n')
}
