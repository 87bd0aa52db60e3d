// The request histograms (src/metrics/histogram.ts) scrape exactly as prom-client's own
// Histogram does: the same observations give the same exposition text, line for line, so a
// dashboard built on Ponte's /metrics cannot tell them apart.
import t from 'tap'
import { Histogram, Registry } from 'prom-client'
import { LightHistogram } from '../../src/metrics/histogram.js'

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LABELS = ['method', 'route', 'status'] as const

function pair () {
  const ours = new Registry()
  const theirs = new Registry()
  const light = new LightHistogram('x_seconds', 'Help with "quotes" and \\ backslash', LABELS, BOUNDS, ours)
  const reference = new Histogram({ name: 'x_seconds', help: 'Help with "quotes" and \\ backslash', labelNames: LABELS, buckets: BOUNDS, registers: [theirs] })
  return { ours, theirs, light, reference }
}

t.test('the same observations scrape to the same text as prom-client', async (t) => {
  const { ours, theirs, light, reference } = pair()
  const series = [
    { method: 'GET', route: '/appointments/:id', status: '200' },
    { method: 'POST', route: '/clients', status: '422' },
    { method: 'GET', route: 'a "quoted"\\route\nwith a newline', status: '500' }
  ]
  // On each bound, between bounds, zero, past the last bound; in an order that is not sorted.
  const values = [0, 0.001, 0.0010001, 0.0025, 0.003, 0.5, 10, 10.5, 1e6, 0.0000001, 7, 0.25]
  let i = 0
  for (const v of values) {
    for (const s of series) {
      const value = v * (1 + (i++ % 3))
      light.observe(s, value)
      reference.observe(s, value)
    }
  }
  t.equal(await ours.metrics(), await theirs.metrics())
  t.match(await ours.metrics(), /x_seconds_count\{method="GET",route="\/appointments\/:id",status="200"\} 12/)
})

t.test('a series observed once, nothing observed, and a reset', async (t) => {
  const { ours, theirs, light, reference } = pair()
  t.equal(await ours.metrics(), await theirs.metrics(), 'no series yet: only HELP and TYPE')
  light.observe({ method: 'GET', route: '/health', status: '200' }, 0.0042)
  reference.observe({ method: 'GET', route: '/health', status: '200' }, 0.0042)
  t.equal(await ours.metrics(), await theirs.metrics())
  ours.resetMetrics()
  theirs.resetMetrics()
  t.equal(await ours.metrics(), await theirs.metrics())
  t.notMatch(await ours.metrics(), /route="\/health"/, 'reset forgets the series')
})

t.test('label values that would run together stay apart series', async (t) => {
  const { ours, light } = pair()
  light.observe({ method: 'GET', route: 'a', status: 'b' }, 1)
  light.observe({ method: 'GET', route: 'ab', status: '' }, 1)
  const text = await ours.metrics()
  t.match(text, /x_seconds_count\{method="GET",route="a",status="b"\} 1/)
  t.match(text, /x_seconds_count\{method="GET",route="ab",status=""\} 1/)
})

t.test('a value that is not a finite number is not counted, and does not throw', async (t) => {
  const { ours, light } = pair()
  light.observe({ method: 'GET', route: '/x', status: '200' }, Number.NaN)
  light.observe({ method: 'GET', route: '/x', status: '200' }, Number.POSITIVE_INFINITY)
  light.observe({ method: 'GET', route: '/x', status: '200' }, 0.2)
  t.match(await ours.metrics(), /x_seconds_count\{method="GET",route="\/x",status="200"\} 1\n/)
  t.match(await ours.metrics(), /x_seconds_sum\{method="GET",route="\/x",status="200"\} 0.2\n/)
})
