// The V8 settings src/heap.ts makes at start-up (why: its comment), and that a flag the
// operator started node with is never overridden, in either spelling or its `--no-` form.
import t from 'tap'
import { flagsToSet } from '../../src/heap.js'

t.test('both settings by default', async (t) => {
  t.same(flagsToSet([]), ['--heap-growing-percent=45', '--no-allocation-site-pretenuring'])
  t.same(flagsToSet(['--enable-source-maps', '--import', 'tsx']), ['--heap-growing-percent=45', '--no-allocation-site-pretenuring'], 'other flags change nothing')
})

t.test('a flag node was started with wins', async (t) => {
  t.same(flagsToSet(['--heap-growing-percent=100']), ['--no-allocation-site-pretenuring'])
  t.same(flagsToSet(['--heap_growing_percent=100']), ['--no-allocation-site-pretenuring'], 'underscores as V8 also reads them')
  t.same(flagsToSet(['--allocation-site-pretenuring']), ['--heap-growing-percent=45'], 'pretenuring asked for: kept on')
  t.same(flagsToSet(['--no_allocation_site_pretenuring', '--heap-growing-percent=60']), [], 'both given')
})

t.test('only the flag itself counts as given', async (t) => {
  t.same(flagsToSet(['--heap-growing-percent-foo=1', '--allocation-site-pretenuring-x']), ['--heap-growing-percent=45', '--no-allocation-site-pretenuring'], 'a longer name is another flag')
  t.same(flagsToSet(['--noallocation-site-pretenuring', '-heap-growing-percent=70']), [], 'V8\'s other spellings: --noX, one dash')
})
