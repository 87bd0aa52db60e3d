// Which column holds an appointment's state, and what unit a length is kept in, judged by the
// values: OpenEMR keeps a flag in `pc_eventstatus` beside its status codes in `pc_apptstatus`
// (`-`, `@`, `~`, `x`…), and its `pc_duration` in seconds (900, 1800) where others keep minutes.
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import type { Samples } from './sample.js'
import { columns } from './tables.js'
import { asText } from './values.js'

const STATE_NAME = /^(status|situacao|sit|st|estado|state|status_\w+|\w+_status|situac\w*|\w*status)$/i
/** Values a yes/no flag holds. */
const FLAG = new Set(['0', '1', 'true', 'false', 't', 'f', 'y', 'n', 's'])

/** How the sampled values of a state-named column look: codes (several, short), a flag, or unknown (no rows). */
function shapeOf (t: LiveTable, c: LiveColumn, samples: Samples): 'codes' | 'flag' | undefined {
  const values = samples.values(t, c.name)
  if (values === undefined || values.length === 0) return undefined
  const distinct = new Set(values.map((v) => asText(v).toLowerCase()))
  return distinct.size < 2 || [...distinct].every((v) => FLAG.has(v)) ? 'flag' : 'codes'
}

/** The state column: of those named like one, the first whose values are codes rather than a flag; with why the others were not taken. */
export function stateColumn (t: LiveTable, samples: Samples): { column: LiveColumn, note: string } | undefined {
  const named = columns(t).filter((c) => STATE_NAME.test(c.name))
  const shaped = named.map((c) => ({ c, shape: shapeOf(t, c, samples) }))
  const best = shaped.find((x) => x.shape === 'codes') ?? shaped.find((x) => x.shape === undefined) ?? shaped[0]
  if (best === undefined) return undefined
  const others = shaped.filter((x) => x !== best).map((x) => `${x.c.name}${x.shape === 'flag' ? ' (its values are a flag or one value)' : ''}`)
  return { column: best.c, note: `the status column${best.shape === 'codes' ? ', its values codes' : ''}${others.length > 0 ? `; not ${others.join(', ')}` : ''}` }
}

/**
 * The unit a length is stored in: by its name (`…_sec`, `…_hours`), else by its values: every
 * one a multiple of 60 and at least 300 is seconds (900, 1800: 15 and 30 minutes), any other
 * minutes; with no values to tell, minutes said to be assumed.
 */
export function durationUnit (t: LiveTable, c: LiveColumn, samples: Samples): { unit: 'seconds' | 'minutes' | 'hours', note: string, sure: boolean } {
  if (/sec|seg/i.test(c.name)) return { unit: 'seconds', note: 'named in seconds', sure: true }
  if (/hour|hora/i.test(c.name)) return { unit: 'hours', note: 'named in hours', sure: true }
  const values = (samples.values(t, c.name) ?? []).map(Number).filter((n) => Number.isFinite(n) && n > 0)
  if (values.length === 0) return { unit: 'minutes', note: 'no sampled value to tell the unit: minutes assumed', sure: false }
  if (values.every((n) => n % 60 === 0 && n >= 300)) return { unit: 'seconds', note: `every one of ${values.length} sampled values is a multiple of 60 from 300 up: seconds`, sure: true }
  return { unit: 'minutes', note: `${values.length} sampled values, not all multiples of 60 from 300 up: minutes`, sure: true }
}
