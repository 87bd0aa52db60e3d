// What a run prints: requests per section, time per side, and every difference (the first
// ones in the test output, all of them in a file under the system's temporary folder).
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Differ } from './differ.js'
import { formatDifference } from './compare.js'

const SHOWN = 25

export function report (d: Differ, sample: string, wallMs: number): string[] {
  const lines = [`${sample}: ${d.requests} requests in ${(wallMs / 1000).toFixed(1)} s`]
  lines.push(`  per section: ${[...d.perSection.entries()].map(([k, v]) => `${k} ${v} (${((d.sectionMs.get(k) ?? 0) / 1000).toFixed(1)} s)`).join(', ')}`)
  lines.push(`  sqlite statuses: ${[...d.statuses.entries()].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`).join(', ')}`)
  lines.push(`  time answering: ${[...d.busy.entries()].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}`)
  for (const [side, diffs] of d.differences) {
    if (diffs.length === 0) { lines.push(`  ${side}: no difference`); continue }
    const requests = new Set(diffs.map((x) => x.request)).size
    const file = join(tmpdir(), `ponte-differential-${`${sample}-${side}`.replace(/[^\w.-]/g, '_')}.txt`)
    writeFileSync(file, diffs.map((x) => formatDifference(x, side)).join('\n') + '\n')
    lines.push(`  ${side}: ${diffs.length} difference(s) in ${requests} request(s); all listed in ${file}`)
    for (const x of diffs.slice(0, SHOWN)) lines.push(...formatDifference(x, side).split('\n').map((l) => `  ${l}`))
  }
  return lines
}
