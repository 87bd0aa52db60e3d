// Which part of an appointment ref a booking writes when the ref is a coalesce: the last item
// where it is a plain column of the table (a registered name under a social one), else the
// first, where the last falls back to something a booking cannot write (the patient's plan
// through a join): the first non-blank item wins a read, so the first item reads back as sent.
import type { Value } from './model.js'

const PLAIN_KEYS = new Set(['column', 'nullIf', 'type', 'length', 'path'])

export function refWrittenAs (v: Value): Value {
  if (!v.coalesce || v.coalesce.length < 2) return v
  const last = v.coalesce[v.coalesce.length - 1]
  if (typeof last === 'string' && !last.includes('.')) return v
  const item = v.coalesce[0]
  const path = `${v.path}/coalesce/0`
  const first: Value = typeof item === 'string' ? { column: item, path } : { ...item, path }
  if (first.column === undefined || !Object.keys(first).every((k) => PLAIN_KEYS.has(k))) return v
  return { ...first, type: first.type ?? v.type, length: first.length ?? v.length }
}
