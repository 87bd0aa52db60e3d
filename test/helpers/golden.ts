// Golden files: every statement a mapping compiles to, as `ponte explain` prints it, compared
// with the committed text — or rewritten when UPDATE_GOLDEN=1 (then read the diff).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'
import { renderStatement } from '../../src/mapping/explain.js'
import type { Statement } from '../../src/sql/statement.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const GOLDEN = `${ROOT}test/golden/`
const UPDATE = process.env.UPDATE_GOLDEN === '1'

export function renderGolden (header: string[], statements: Statement[]): string {
  return [...header.map((h) => `-- ${h}`), '', ...statements.map(renderStatement)].join('\n') + '\n'
}

/** Statement names whose block differs between two golden texts, for the failure message. */
function changedBlocks (actual: string, expected: string): string {
  const blocks = (text: string) => new Map(text.split(/\n\n(?=-- )/).map((b) => [b.split('\n')[0], b]))
  const a = blocks(actual)
  const e = blocks(expected)
  const changed = [...a.keys()].filter((k) => e.has(k) && e.get(k) !== a.get(k))
  const added = [...a.keys()].filter((k) => !e.has(k))
  const removed = [...e.keys()].filter((k) => !a.has(k))
  const list = (what: string, names: string[]) => names.length > 0 ? [`${what}: ${names.map((n) => n.slice(3)).join(', ')}`] : []
  return [...list('changed', changed), ...list('new', added), ...list('gone', removed)].join('; ') || 'order or header'
}

export function checkGolden (t: Test, file: string, actual: string, count: number): void {
  const name = file.slice(ROOT.length)
  if (UPDATE) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, actual)
    t.pass(`wrote ${name} (${count} statements)`)
    return
  }
  if (!existsSync(file)) {
    t.fail(`${name} is missing: run npm run golden`)
    return
  }
  const expected = readFileSync(file, 'utf8')
  t.equal(actual, expected, actual === expected
    ? `${name} is up to date`
    : `${name} differs (${changedBlocks(actual, expected)}); if intended, npm run golden and review the diff`)
}
