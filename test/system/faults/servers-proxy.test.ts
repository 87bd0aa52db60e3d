// The TCP proxy the real-server fault tests stand between Ponte and MariaDB/PostgreSQL
// (test/helpers/tcp-proxy.ts), proved on an echo server: if it did not really refuse, reset
// or hold connections, the fault tests would pass without any fault having happened.
import { once } from 'node:events'
import { createServer, connect, type AddressInfo, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { tcpProxy } from '../../helpers/tcp-proxy.js'

async function echoServer (): Promise<{ port: number, close: () => void }> {
  const sockets = new Set<Socket>()
  const server = createServer((s) => { sockets.add(s); s.on('error', () => undefined); s.on('close', () => sockets.delete(s)); s.pipe(s) })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { port: (server.address() as AddressInfo).port, close: () => { server.close(); for (const s of sockets) s.destroy() } }
}

/** Connects; resolves with the socket or with the connect error's code. */
async function dial (port: number): Promise<Socket | string> {
  return await new Promise((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.once('connect', () => resolve(s))
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
  })
}

/** Sends `text` and collects what comes back within `ms`. */
async function exchange (s: Socket, text: string, ms = 300): Promise<string> {
  let got = ''
  const onData = (d: Buffer): void => { got += d.toString() }
  s.on('data', onData)
  s.write(text)
  for (const until = Date.now() + ms; Date.now() < until && got.length < text.length; await sleep(10));
  s.off('data', onData)
  return got
}

t.test('forwards, refuses when stopped, holds when silent, serves again when started', async (t) => {
  const echo = await echoServer()
  const proxy = await tcpProxy({ host: '127.0.0.1', port: echo.port })
  t.teardown(async () => { await proxy.close(); echo.close() })

  const first = await dial(proxy.port)
  if (typeof first === 'string') throw new Error(`cannot connect to the proxy: ${first}`)
  t.equal(await exchange(first, 'hello'), 'hello', 'forwarding: the echo answers')
  t.equal(proxy.open(), 1, 'one connection counted')

  const closed = once(first, 'close')
  await proxy.stop()
  await closed
  t.pass('stop: the open connection is closed')
  t.equal(await dial(proxy.port), 'ECONNREFUSED', 'stop: a new connection is refused')

  await proxy.start()
  const second = await dial(proxy.port)
  if (typeof second === 'string') throw new Error(`start: cannot connect: ${second}`)
  t.equal(await exchange(second, 'again'), 'again', 'start: the same port forwards again')

  await proxy.silent()
  t.equal(await exchange(second, 'frozen'), '', 'silent: an open connection gets no answer')
  const third = await dial(proxy.port)
  if (typeof third === 'string') throw new Error(`silent: a connection should be accepted: ${third}`)
  t.equal(await exchange(third, 'waiting'), '', 'silent: a new connection is accepted and gets no answer')

  let late = ''
  third.on('data', (d: Buffer) => { late += d.toString() })
  await proxy.start()
  for (const until = Date.now() + 1000; Date.now() < until && late !== 'waiting'; await sleep(10));
  t.equal(late, 'waiting', 'start after silent: what waited is answered')
  second.destroy()
  third.destroy()
  for (const until = Date.now() + 1000; Date.now() < until && proxy.open() > 0; await sleep(10));
  t.equal(proxy.open(), 0, 'connections closed by the client are gone from the count')
})
