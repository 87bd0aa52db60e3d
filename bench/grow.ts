// Clinic-chain fixtures: a sample installation grown to any size, deterministically (same
// parameters, same rows), keeping the sample's column formats (bench/grow/<sample>.ts says how).
//   npx tsx bench/grow.ts --sample clinica-sorriso --clients 1000000 --appointments 2000000 --out /tmp/chain.sqlite
//   npx tsx bench/grow.ts --sample northwind-health --clients 10000 --db postgres://127.0.0.1:5432/ponte_bench_x
// Progress goes to stderr; the facts the bench needs (ids, counts, the busy day) to stdout as JSON.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command, InvalidArgumentError } from 'commander'
import { readFixture } from '../src/fixtures/read.js'
import { databaseOf } from '../src/sql/databases.js'
import { LOADABLE_SCHEMES } from '../src/db/load-fixture.js'
import { openInstallation } from '../src/installation.js'
import { checkIndexes } from '../src/check/indexes.js'
import { Findings } from '../src/check/findings.js'
import { toFixture, writeSqlite, type Grow, type GrowOptions } from './grow/kit.js'
import { growClinicaSorriso } from './grow/clinica-sorriso.js'
import { growNorthwindHealth } from './grow/northwind-health.js'

export const SAMPLES: Record<string, { grow: Grow, mapping: string, busyDay: string, from: string, to: string }> = {
  'clinica-sorriso': { grow: growClinicaSorriso, mapping: 'mappings/clinica-sorriso.yaml', busyDay: '2026-11-27', from: '2025-11-23', to: '2027-11-22' },
  'northwind-health': { grow: growNorthwindHealth, mapping: 'mappings/northwind-health.yaml', busyDay: '2026-11-27', from: '2025-11-23', to: '2027-11-22' }
}
/** Bumped whenever a grower's output changes, so cached files are not reused (3: the search indexes check advises). */
export const GROWER_VERSION = 3
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export interface GrowParams { sample: string, clients: number, appointments: number, professionals?: number, seed: number, busyDayAppointments?: number }

/** Professionals enough for ~1,000 appointments on the busy day and the total at a sensible density. */
export const defaultProfessionals = (appointments: number): number => Math.max(200, Math.ceil(appointments / 2500))

export function growOptions (p: GrowParams, progress?: (line: string) => void): GrowOptions {
  const s = SAMPLES[p.sample]
  if (!s) throw new Error(`unknown sample "${p.sample}" (${Object.keys(SAMPLES).join(', ')})`)
  return {
    clients: p.clients,
    appointments: p.appointments,
    professionals: p.professionals ?? defaultProfessionals(p.appointments),
    seed: p.seed,
    busyDay: s.busyDay,
    busyDayAppointments: p.busyDayAppointments ?? 1000,
    from: s.from,
    to: s.to,
    progress
  }
}

export function grown (p: GrowParams, progress?: (line: string) => void) {
  const sample = readFixture(join(root, 'fixtures', p.sample, 'fixture.json'))
  return SAMPLES[p.sample]!.grow(sample, growOptions(p, progress))
}

/**
 * Creates the indexes `ponte check` recommends for the columns a client search probes (phones
 * and CPF: "column … has no index: each search of clients by phone would read the whole table;
 * create one: CREATE INDEX …", src/check/indexes.ts), run as check prints them — what a clinic
 * does before going live (docs/going-live.md).
 * Taken from check's own advice, not written here, so the bench follows check. Returns the
 * statements run.
 */
export async function followSearchIndexAdvice (sample: string, url: string): Promise<string[]> {
  const inst = await openInstallation(join(root, SAMPLES[sample]!.mapping), url)
  try {
    const d = inst.db.dialect
    const advice = new Findings(inst.model)
    checkIndexes(inst.compiled, await inst.db.introspect.catalog(), advice, d)
    const run: string[] = []
    for (const f of advice.list) {
      if (!/each search of clients by (phone|CPF) would/.test(f.message)) continue
      // Check prints the statement in the live database's own quoting: it runs as printed.
      const sql = /create one: (CREATE INDEX .+)$/.exec(f.message)?.[1]
      if (!sql) throw new Error(`ponte check's index advice is in a form the grower does not read: ${f.message}`)
      await inst.db.query({ name: 'grow.searchIndex', sql, params: [] })
      run.push(sql)
    }
    // The planner's statistics for the new indexes (writeSqlite analysed the others).
    if (run.length > 0 && d.name === 'sqlite') await inst.db.query({ name: 'grow.analyze', sql: 'ANALYZE', params: [] })
    return run
  } finally {
    await inst.close()
  }
}

/** The grown SQLite file for these parameters, from the cache folder when it is there. */
export async function cachedSqlite (p: GrowParams, cacheDir = join(tmpdir(), 'ponte-bench-cache'), progress: (line: string) => void = () => {}): Promise<{ file: string, cached: boolean, facts: Record<string, unknown> }> {
  const o = growOptions(p)
  const file = join(cacheDir, `${p.sample}-c${o.clients}-a${o.appointments}-p${o.professionals}-b${o.busyDayAppointments}-s${o.seed}-v${GROWER_VERSION}.sqlite`)
  const factsFile = `${file}.facts.json`
  if (existsSync(file) && existsSync(factsFile)) return { file, cached: true, facts: JSON.parse(readFileSync(factsFile, 'utf8')) as Record<string, unknown> }
  mkdirSync(cacheDir, { recursive: true })
  const g = grown(p, progress)
  // Indexed under another name, then renamed: the cache never holds a file without them.
  const unindexed = `${file}.unindexed`
  writeSqlite(g, unindexed, progress)
  for (const sql of await followSearchIndexAdvice(p.sample, `sqlite:${unindexed}`)) progress(`check's advice: ${sql}`)
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(unindexed + suffix, { force: true })
  renameSync(unindexed, file)
  writeFileSync(factsFile, JSON.stringify(g.facts))
  return { file, cached: false, facts: g.facts }
}

const count = (name: string) => (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name}: "${v}" is not a whole number ≥ 1`)
  return Number(v)
}

async function main (argv: string[]): Promise<void> {
  const cli = new Command('grow')
    .description('grow a sample installation into a clinic chain (deterministic; progress on stderr, facts as JSON on stdout)')
    .option('--sample <name>', `the sample to grow: ${Object.keys(SAMPLES).join(', ')}`, 'clinica-sorriso')
    .option('--clients <n>', 'clients (patients), the sample\'s own first, then copies with new names, numbers and CPFs', count('--clients'), 10_000)
    .option('--appointments <n>', 'appointments over two years around the sample\'s "today" (2025-11-23 … 2027-11-22)', count('--appointments'), 100_000)
    .option('--professionals <n>', 'professionals, the sample\'s own first, then copies with their hours and relations (default: max(200, appointments / 2,500))', count('--professionals'))
    .option('--busy-day-appointments <n>', 'appointments on the busy day 2026-11-27 (what W1 lists), whatever the total', count('--busy-day-appointments'), 1000)
    .option('--seed <n>', 'the seed: same seed and sizes, same rows', count('--seed'), 1)
    .option('--out <file>', 'write a new SQLite file (replaced)')
    .option('--db <url>', `or load into an existing empty database (${LOADABLE_SCHEMES})`)
    .option('--no-search-indexes', 'leave out the indexes `ponte check` recommends for the phone and CPF columns a search probes (created by default, after loading)')
    .exitOverride()
  cli.parse(argv, { from: 'user' })
  const o = cli.opts<{ sample: string, clients: number, appointments: number, professionals?: number, busyDayAppointments: number, seed: number, out?: string, db?: string, searchIndexes: boolean }>()
  if ((o.out === undefined) === (o.db === undefined)) throw new InvalidArgumentError('give --out FILE or --db URL')
  const load = o.db === undefined ? undefined : databaseOf(o.db)?.kind.loadFixture
  if (o.db !== undefined && load === undefined) throw new Error(`--db: cannot load into "${o.db.split(':')[0]}:" (use ${LOADABLE_SCHEMES})`)
  const progress = (line: string): void => { process.stderr.write(`${line}\n`) }
  const started = Date.now()
  const g = grown(o, progress)
  if (o.out !== undefined) writeSqlite(g, o.out, progress)
  else {
    const fixture = toFixture(g)
    progress(`loading into ${o.db!.replace(/\/\/[^@/]*@/, '//')}`)
    await load!(fixture, o.db!)
  }
  if (o.searchIndexes) {
    for (const sql of await followSearchIndexAdvice(o.sample, o.out !== undefined ? `sqlite:${o.out}` : o.db!)) progress(`check's advice: ${sql}`)
  }
  progress(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  process.stdout.write(`${JSON.stringify(g.facts)}\n`)
}

if (process.argv[1] && /grow\.[jt]s$/.test(process.argv[1])) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    if ((err as { code?: string }).code?.startsWith('commander.')) { process.exitCode = (err as { exitCode?: number }).exitCode ?? 2; return }
    process.stderr.write(`grow: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 2
  })
}
