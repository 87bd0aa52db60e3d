// Hostile cases on the connection itself: pipelining, slow and cut requests, oversized
// framing, idle keep-alive, many half-open connections (docs/interface.md, "HTTP behaviour
// at the edges", and docs/operations.md's timeouts).
import { healthMs, outcome, type Case } from './case.js'
import { BOUNDS, KEY, sleep } from './target.js'
import { call, isProblem, open, raw, request } from './wire.js'

const client = (name: string): string => JSON.stringify({ name, phone: '+5511987650000' })
const searchName = async (base: string, name: string): Promise<number> =>
  (await call(base, 'GET', `/clients/search?term=${encodeURIComponent(name)}`)).json?.length ?? -1

export const connectionCases: Case[] = [
  {
    name: 'pipelined POST after a refused body',
    expects: 'invalid JSON then a pipelined POST /clients on one connection: one 400 problem, the POST not run (no client created)',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const name = `Pipelined After Refusal ${Date.now()}`
      const [x, same] = await p.unchanged(async () => await raw(p.t.port, [Buffer.concat([request('POST', '/clients', '{"name": '), request('POST', '/clients', client(name))])]))
      const created = await searchName(p.base, name)
      return outcome({ 'one answer': x.answers.length === 1, '400 problem': x.answers[0] !== undefined && isProblem(x.answers[0], 400), 'not run': created === 0, 'nothing written': same }, `${x.answers.map(a => a.status).join(',')}; created ${created}`)
    }
  },
  {
    name: 'pipelined POST after Connection: close',
    expects: 'a request with Connection: close then a pipelined POST /clients: one answer, the POST not run',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const name = `Pipelined After Close ${Date.now()}`
      const [x, same] = await p.unchanged(async () => await raw(p.t.port, [Buffer.concat([request('GET', '/health', undefined, { connection: 'close' }), request('POST', '/clients', client(name))])]))
      return outcome({ 'one answer': x.answers.length === 1, 'not run': await searchName(p.base, name) === 0, 'nothing written': same }, x.answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'three pipelined GETs',
    expects: 'three GETs sent at once on one connection: three 200 answers, in order',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const x = await raw(p.t.port, [Buffer.concat(['a', 'b', 'c'].map(id => request('GET', '/professionals', undefined, { 'x-request-id': `probe-${id}` })))], 1500)
      const ids = x.answers.map(a => a.headers['x-request-id']).join(',')
      return outcome({ 'three 200': x.answers.length === 3 && x.answers.every(a => a.status === 200), 'in order': ids === 'probe-a,probe-b,probe-c' }, ids)
    }
  },
  {
    name: 'trickled body',
    expects: `a POST body sent a byte every 400 ms: a 408 problem within REQUEST_TIMEOUT_MS (${BOUNDS.requestMs} ms) plus Node's check period, the connection closed, nothing written`,
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const body = client('Trickled Body')
      const steps: Array<string | number> = [request('POST', '/clients', body).subarray(0, -body.length).toString('latin1')]
      for (const ch of body) steps.push(ch, 400)
      const [x, same] = await p.unchanged(async () => await raw(p.t.port, steps, 1000))
      const a = x.answers[0]
      return outcome({ '408 problem': a !== undefined && isProblem(a, 408), 'in time': a !== undefined && a.ms < BOUNDS.requestMs + 1500, closed: x.end !== 'open', 'nothing written': same }, `${a?.status ?? 'no answer'} after ${Math.round(a?.ms ?? x.ms)} ms, ${x.end}`)
    }
  },
  {
    name: 'slow headers',
    expects: `headers sent a byte every 200 ms: a 408 problem within HEADERS_TIMEOUT_MS (${BOUNDS.headersMs} ms) plus the check period, connection closed`,
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const steps: Array<string | number> = ['GET /professionals HTTP/1.1\r\n']
      for (const ch of `host: probe\r\nx-slow: ${'a'.repeat(40)}`) steps.push(ch, 200)
      const x = await raw(p.t.port, steps, 1000)
      const a = x.answers[0]
      return outcome({ '408 problem': a !== undefined && isProblem(a, 408), 'in time': a !== undefined && a.ms < BOUNDS.headersMs + 1500, closed: x.end !== 'open' }, `${a?.status ?? 'no answer'} after ${Math.round(a?.ms ?? x.ms)} ms, ${x.end}`)
    }
  },
  {
    name: 'slowloris: 40 half-sent requests',
    expects: '40 connections each holding half a request line: /health keeps answering under 100 ms (median of 5), and every one of them is closed within the headers bound',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const sockets = await Promise.all(Array.from({ length: 40 }, async () => await open(p.t.port)))
      const closed = sockets.map(s => new Promise<boolean>(resolve => { s.once('close', () => resolve(true)); setTimeout(() => resolve(false), BOUNDS.headersMs + 2500) }))
      for (const s of sockets) s.write('GET /professionals HTTP/1.1\r\nhost: pro')
      const health = await healthMs(p.base)
      const all = await Promise.all(closed)
      for (const s of sockets) s.destroy()
      return outcome({ 'health < 100 ms': health.ok && health.ms < 100, 'all closed': all.every(Boolean) }, `/health ${Math.round(health.ms)} ms (median of 5); ${all.filter(Boolean).length}/40 closed`)
    }
  },
  {
    name: 'idle keep-alive connection',
    expects: 'a connection left idle past the headers bound after an answer: no unasked bytes arrive, and it either serves the next request or was closed cleanly',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const x = await raw(p.t.port, [request('GET', '/health'), BOUNDS.headersMs + 1500, request('GET', '/professionals')], 1000)
      const statuses = x.answers.map(a => a.status)
      const ok = (statuses.length === 2 && statuses[1] === 200) || (statuses.length === 1 && x.end === 'closed')
      return outcome({ 'served or closed cleanly': ok && statuses[0] === 200 }, `${statuses.join(',')}, ${x.end}`)
    }
  },
  {
    name: 'request aborted mid-body',
    expects: 'a POST /clients whose client goes away after half its body: nothing written, the server answers the next request',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const body = client('Aborted Mid Body')
      const whole = request('POST', '/clients', body)
      const [x, same] = await p.unchanged(async () => {
        const s = await open(p.t.port)
        s.write(whole.subarray(0, whole.length - 20))
        await sleep(200)
        s.destroy()
        await sleep(300)
        return await call(p.base, 'GET', '/professionals')
      })
      return outcome({ 'nothing written': same, 'next served': x.status === 200 }, `next ${x.status}`)
    }
  },
  {
    name: '50 MB body refused',
    expects: 'a 50 MB POST, five times: the 413 problem reaches the caller every time (no connection reset)',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const got: string[] = []
      const chunk = Buffer.alloc(1 << 20, 0x20)
      for (let i = 0; i < 5; i++) {
        const head = request('POST', '/clients', undefined, { 'content-type': 'application/json', 'content-length': String(50 << 20) })
        const x = await raw(p.t.port, [head, ...Array.from({ length: 50 }, () => chunk)], 6000)
        got.push(x.answers[0] !== undefined && isProblem(x.answers[0], 413) ? '413' : `${x.end}${x.writeError !== undefined ? ' (write failed)' : ''}`)
      }
      return outcome({ 'five 413': got.every(g => g === '413') }, got.join(','))
    }
  },
  {
    name: 'headers over 16 KB',
    expects: 'a 17 KB header: 431 problem, connection closed',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const x = await raw(p.t.port, [request('GET', '/professionals', undefined, { 'x-big': 'a'.repeat(17_000) })])
      return outcome({ '431 problem': x.answers[0] !== undefined && isProblem(x.answers[0], 431), closed: x.end !== 'open' }, `${x.answers[0]?.status}, ${x.end}`)
    }
  },
  {
    name: 'URL of 100 KB',
    expects: 'a request line of 100 KB: a 4xx problem (431 or 414), connection closed, server still up',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const x = await raw(p.t.port, [`GET /clients/search?term=${'9'.repeat(100_000)} HTTP/1.1\r\nhost: probe\r\n\r\n`])
      const a = x.answers[0]
      const up = await call(p.base, 'GET', '/health', { key: null })
      return outcome({ '4xx problem': a !== undefined && a.status >= 400 && a.status < 500 && isProblem(a, a.status), 'still up': up.status === 200 }, `${a?.status}, ${x.end}`)
    }
  },
  {
    name: 'bytes that are not HTTP',
    expects: 'binary garbage on the port: 400 problem, connection closed',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const x = await raw(p.t.port, [Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a])])
      return outcome({ '400 problem': x.answers[0] !== undefined && isProblem(x.answers[0], 400), closed: x.end !== 'open' }, `${x.answers[0]?.status}, ${x.end}`)
    }
  },
  {
    name: 'HTTP/1.1 without Host',
    expects: 'a request without Host: 400 problem',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const x = await raw(p.t.port, ['GET /health HTTP/1.1\r\n\r\n'])
      return outcome({ '400 problem': x.answers[0] !== undefined && isProblem(x.answers[0], 400) }, `${x.answers[0]?.status}`)
    }
  },
  {
    name: 'Content-Length and chunked together',
    expects: 'a POST framed both by Content-Length and Transfer-Encoding: chunked (request smuggling): 400, nothing written, nothing smuggled',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const smuggled = request('POST', '/clients', client('Smuggled Client'))
      const body = `0\r\n\r\n${smuggled.toString('latin1')}`
      const [x, same] = await p.unchanged(async () => await raw(p.t.port, [`POST /clients HTTP/1.1\r\nhost: probe\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\ntransfer-encoding: chunked\r\n\r\n${body}`], 1500))
      return outcome({ '400 first': x.answers[0]?.status === 400, 'nothing written': same, 'not smuggled': await searchName(p.base, 'Smuggled Client') === 0 }, x.answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'Content-Length longer than the body, then close',
    expects: 'a POST /clients declaring 500 bytes, sending a whole JSON of fewer bytes and going silent: no client created',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const name = `Short Body ${Date.now()}`
      const body = client(name)
      const [x, same] = await p.unchanged(async () => await raw(p.t.port, [request('POST', '/clients', body, { 'content-length': '500' })], 1500))
      return outcome({ 'nothing written': same, 'not created': await searchName(p.base, name) === 0 }, x.answers.map(a => a.status).join(',') || `no answer, ${x.end}`)
    }
  }
]
