// `npm run bench -- --quick` as CI runs it: it finishes, its JSON report is complete, and Ponte
// and the hand-written baseline answered the same JSON in every scenario. Nothing about speed
// is asserted. Also the grower: deterministic, and every stored spelling keeps its share.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { childEnv } from '../../helpers/child-env.js'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { grown } from '../../../bench/grow.js'
import { allowedCpus } from '../../../bench/servers.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))

t.test('npm run bench -- --quick', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-bench-test-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', dir, '--cache', join(dir, 'cache')],
    { cwd: root, encoding: 'utf8', timeout: 240_000, env: childEnv() })
  t.equal(run.status, 0, `exit 0\n${run.stderr.slice(-2000)}`)
  const report = JSON.parse(readFileSync(join(dir, 'bench.json'), 'utf8'))
  t.ok(readFileSync(join(dir, 'bench.md'), 'utf8').includes('| fixture | scenario |'), 'a Markdown table')
  t.same(report.results.map((r: { scenario: string }) => r.scenario).sort(), ['W1', 'W2', 'W3', 'W4', 'W5', 'by-id'].sort(), 'every scenario ran')
  for (const r of report.results) {
    t.equal(r.sameJson, true, `${r.scenario}: same JSON from both${r.difference ? `: ${r.difference}` : ''}`)
    t.ok(r.rounds >= 1 && Number.isFinite(r.ratio) && Number.isFinite(r.ratioSpread), `${r.scenario}: a ratio and its spread`)
    for (const side of ['ponte', 'hand']) {
      const s = r[side]
      t.ok(s.requests > 0, `${r.scenario} ${side}: requests`)
      t.equal(s.failures, 0, `${r.scenario} ${side}: no failed request`)
      for (const k of ['rps', 'p50', 'p99', 'cpuMsPerRequest', 'statementsPerRequest', 'peakRssMb']) t.ok(Number.isFinite(s[k]) && s[k] >= 0, `${r.scenario} ${side}: ${k}`)
      t.ok(s.peakRssMb > 20, `${r.scenario} ${side}: a peak RSS read from /proc`)
      // /health is asked of both alike while they are loaded (each probe costs the server CPU).
      if (r.scenario !== 'W5') t.ok(s.health?.count > 0 && Number.isFinite(s.health.max), `${r.scenario} ${side}: /health asked under load`)
    }
  }
  t.equal(report.allSameJson, true)
  t.ok(report.machine.cores >= 1 && report.settings.quick === true)
  // Pinned by default where taskset can put a process on the first CPU allowed and there are two.
  const allowed = allowedCpus()
  const canPin = allowed.length >= 2 && spawnSync('taskset', ['-c', String(allowed[0]), 'true']).status === 0
  t.equal(report.settings.pinned, canPin, `pinned: ${String(report.settings.pinned)}`)
  t.notMatch(run.stdout, /could not pin/, 'every process pinned')
  t.equal(readFileSync(join(dir, 'bench.md'), 'utf8').includes('both servers pinned to CPU'), canPin, 'the Markdown header says whether it was pinned')

  t.test('--no-pin leaves the scheduler free', async (t) => {
    const out = join(dir, 'unpinned')
    const free = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--no-pin', '--only', 'by-id', '--out', out, '--cache', join(dir, 'cache')],
      { cwd: root, encoding: 'utf8', timeout: 240_000, env: childEnv() })
    t.equal(free.status, 0, `exit 0\n${free.stderr.slice(-2000)}`)
    const r = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8'))
    t.equal(r.settings.pinned, false)
    t.same(r.results.map((x: { scenario: string }) => x.scenario), ['by-id'], '--only ran that scenario alone')
    t.notOk(readFileSync(join(out, 'bench.md'), 'utf8').includes('pinned'), 'the header says nothing of pinning')
  })
})

t.test('bench options: --pin (the default) is still accepted; an unknown scenario is refused by name before anything runs', async (t) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--pin', '--only', 'W1,W9'], { cwd: root, encoding: 'utf8', timeout: 60_000, env: childEnv() })
  t.equal(run.status, 1)
  t.notMatch(run.stderr, /unknown option/, '--pin is an option')
  t.match(run.stderr, /no scenario "W9": the names are W1, W2, W3, W4, W5, by-id/)
  t.equal(run.stdout, '', 'nothing built or measured')
})

t.test('the grower is deterministic and keeps the sample\'s spellings', async (t) => {
  const params = { sample: 'clinica-sorriso', clients: 6000, appointments: 3000, professionals: 28, busyDayAppointments: 50, seed: 7 }
  const digest = (): { hash: string, clients: unknown[][] } => {
    const g = grown(params)
    const h = createHash('sha256')
    const clients: unknown[][] = []
    for (const { table, rows } of g.large) for (const r of rows()) { h.update(JSON.stringify(r)); if (table.name === 'dbo.PACIENTE') clients.push(r) }
    for (const tb of [...g.small, ...g.after()]) h.update(JSON.stringify(tb.rows))
    return { hash: h.digest('hex'), clients }
  }
  const a = digest()
  t.equal(digest().hash, a.hash, 'same parameters, same rows')
  t.not(grown({ ...params, seed: 8 }).facts, undefined)
  // Clients 3000… are copies of the sample's 3000: each phone and CPF in its template's mask.
  const skeleton = (v: unknown): unknown => typeof v === 'string' ? v.replace(/\d/g, '9') : v
  for (let i = 0; i < 3000; i++) {
    const [s, c] = [a.clients[i]!, a.clients[i + 3000]!]
    for (const col of [3, 7, 8, 9]) {
      if (skeleton(s[col]) !== skeleton(c[col])) { t.fail(`client ${String(c[0])} column ${col}: ${String(s[col])} → ${String(c[col])}`); return }
    }
  }
  const changed = a.clients.slice(3000).filter((c, i) => c[7] !== null && /\d{4}/.test(String(c[7])) && c[7] !== a.clients[i]![7]).length
  t.ok(changed > 2000, `copies have numbers of their own (${changed})`)
})
