// Every Ponte process a test starts runs with childEnv() (helpers/child-env.ts): a child's
// tsx-compiled coverage merged into tap's wipes out most of the real coverage, and the gate
// then fails with no clue which test did it.
import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = new URL('../../..', import.meta.url).pathname

function sources (dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|mts|js|mjs)$/.test(name) ? [path] : []
  })
}

// A spawn whose command or arguments start Ponte: the server, the CLI, npm/npx scripts, tsx.
const STARTS_PONTE = /\b(spawn|spawnSync|execFile|execFileSync|fork)\s*\([^)]*?(src\/server\.ts|bin\/ponte\.js|src\/cli\.ts|'npm'|'npx'|'tsx')/s

t.test('every test that starts a Ponte process gives it childEnv()', async (t) => {
  const starting = sources(join(ROOT, 'test')).filter((f) => STARTS_PONTE.test(readFileSync(f, 'utf8')))
  t.ok(starting.length >= 5, `the pattern finds the tests that start Ponte (${starting.length} files)`)
  // The hostile probe's cases take their environment from its target, which uses childEnv().
  const without = starting.filter((f) => !/\bchildEnv\s*\(|\bp\.t\.env\s*\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f))
  t.same(without, [], 'none starts one without childEnv()')
})
