// The hostile suite (issue 7, "The suite that keeps them fixed"): thousands of seeded,
// near-valid requests with one hostile change each, over every route of the app's own
// OpenAPI document and on both sample installations, sent from outside over real sockets.
// Each answer must: come within 2 s; be no 5xx but a deliberate 503/504; be problem+json with
// our types when an error; show no SQL, driver, stack or path text; meet what issue 7 asks of
// its kind (405 + Allow, 400 naming an unknown parameter, …); and a refused request must
// leave every table of the SQLite file as it was.
// HOSTILE_SEED=<n> replays a run (the seed is printed), HOSTILE_COUNT=<n> sets requests per sample,
// HOSTILE_REPORT=<file> writes every failure (not only the first few printed) as JSON.
import { writeFileSync } from 'node:fs'
import t from 'tap'
import { SAMPLES } from '../../helpers/app.js'
import { Dice, fixtureToday, findPools, generate, hostileSeed, issueCases, prng, rawCases, readRoutes, seedFor, type Route } from '../../helpers/hostile.js'
import { describe, Hosted, KINDS, runHostile, summarise, type RunResult } from '../../helpers/hostile-run.js'

const seed = hostileSeed()
const COUNT = Number(process.env.HOSTILE_COUNT ?? 1600)
t.comment(`hostile seed ${seed} (replay with HOSTILE_SEED=${seed})`)

async function attack (mapping: string, name: string): Promise<{ routes: Route[], result: RunResult }> {
  const server = await Hosted.start(mapping)
  try {
    const routes = readRoutes((await server.call('GET', '/openapi.json')).body)
    const pools = await findPools(async (url) => await server.call('GET', url), routes, fixtureToday(mapping))
    const requests = generate(routes, pools, new Dice(prng(seedFor(seed, name))), COUNT)
    const pinned = [...rawCases(requests.length), ...issueCases(routes, pools, requests.length + 100)]
    return { routes, result: await runHostile(server, [...requests, ...pinned]) }
  } finally {
    await server.stop()
  }
}

// Both installations at once (each in its own server process); assertions per installation.
const names = SAMPLES.map((m) => m.replace(/^.*\//, '').replace(/\.ya?ml$/, ''))
const runs = await Promise.all(SAMPLES.map(async (mapping, i) => await attack(mapping, names[i])))

if (process.env.HOSTILE_REPORT) {
  const all = runs.flatMap(({ result }, i) => result.failures.map((f) => ({ sample: names[i], kind: f.kind, ...describe(f, seed) })))
  writeFileSync(process.env.HOSTILE_REPORT, JSON.stringify(all, null, 1))
}

runs.forEach(({ routes, result }, i) => {
  t.test(names[i], async (t) => {
    t.comment(`${result.sent} requests in ${(result.ms / 1000).toFixed(1)} s, ${result.hangs} hangs, ${result.skipped} skipped after hangs; ` +
      [...result.byCategory].map(([c, n]) => `${c} ${n}`).join(', '))
    t.ok(routes.length >= 10, `${routes.length} routes read from /openapi.json`)
    t.ok(result.sent >= COUNT, `at least ${COUNT} requests sent`)
    const missed = routes.map((r) => `${r.method} ${r.path}`).filter((r) => !result.byRoute.has(r))
    t.same(missed, [], 'every documented route was exercised')
    for (const kind of KINDS) {
      const failures = result.failures.filter((f) => f.kind === kind)
      t.equal(failures.length, 0, `${kind}: ${failures.length} failures in ${result.sent} requests`, failures.length > 0 ? { failures: summarise(failures, seed) } : {})
    }
  })
})
