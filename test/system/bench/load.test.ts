// The bench's load generator reads whole answers however they are framed: Content-Length,
// chunked (Ponte streams multi-day lists), and counts an answer cut mid-body as a failure.
import t from 'tap'
import { createServer, type Server } from 'node:http'
import { ChunkedEnd, load } from '../../../bench/load.js'

const body = (n: number): string => 'x'.repeat(n)

t.test('ChunkedEnd finds the last chunk however the bytes are split', async (t) => {
  const wire = Buffer.from(`5;ext=1\r\nhello\r\n1a\r\n${body(26)}\r\n0\r\nTrailer: a\r\n\r\n`, 'latin1')
  for (const step of [1, 2, 3, 7, wire.length]) {
    const c = new ChunkedEnd()
    let endedAt = -1
    for (let at = 0; at < wire.length && endedAt < 0; at += step) {
      if (c.feed(wire.subarray(at, at + step))) endedAt = Math.min(at + step, wire.length)
    }
    t.equal(endedAt, wire.length, `split every ${step} bytes: ends at the last byte`)
  }
  const unfinished = new ChunkedEnd()
  t.notOk(unfinished.feed(Buffer.from('5\r\nhello\r\n0\r\n')), 'no end before the empty trailer line')
  t.throws(() => new ChunkedEnd().feed(Buffer.from('zz\r\n')), /bad chunk size/)
})

async function serve (handler: Parameters<typeof createServer>[1]): Promise<{ server: Server, port: number }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as { port: number }).port }
}

t.test('load counts streamed, sized and cut answers', async (t) => {
  let served = 0
  const { server, port } = await serve((req, res) => {
    served++
    if (req.url === '/sized') { res.setHeader('content-length', 1000); res.end(body(1000)); return }
    if (req.url === '/cut') { res.write(body(100)); setTimeout(() => res.socket?.destroy(), 5); return }
    // Chunked: several writes spread over ticks.
    res.write(body(70_000))
    setImmediate(() => { res.write(body(3)); res.end(body(10)) })
  })
  t.teardown(() => { server.close() })
  const job = { port, headers: { authorization: 'Bearer k' }, connections: 2, durationMs: 200 }
  const sized = await load({ ...job, path: '/sized' })
  t.ok(sized.requests > 2, `${sized.requests} sized answers`)
  t.equal(sized.failures, 0)
  const streamed = await load({ ...job, path: '/streamed' })
  t.ok(streamed.requests > 2, `${streamed.requests} streamed answers`)
  t.equal(streamed.failures, 0)
  t.same(streamed.statuses, { 200: streamed.requests })
  const cut = await load({ ...job, path: '/cut' })
  t.equal(cut.requests, 0, 'a cut answer is never counted as answered')
  t.equal(cut.failures, 2, 'one failure per connection, whose socket was closed mid-body')
  t.ok(served > 0)
  server.close()
  await new Promise((resolve) => server.once('close', resolve))
  const refused = await load({ ...job, path: '/sized' })
  t.same([refused.requests, refused.failures], [0, 2], 'a closed port: one failure per connection')
})
