// A TCP proxy in front of a real database server, so that a test can take "the server" away
// from Ponte without touching the server itself (other people's tests are using it):
//  - stop():   the listener closes and every proxied connection is destroyed (a server that
//              went down: connects are refused, open connections reset);
//  - silent(): connections are accepted and not forwarded, and the open ones freeze (a
//              server or network that stopped answering);
//  - start():  forwarding again, on the same port (the server came back).
// turns() counts round trips: each time a client speaks after the server did (or first), one
// more; a write of several messages before the server answers is one turn.
import { once } from 'node:events'
import { createServer, connect, type AddressInfo, type Socket } from 'node:net'

export type ProxyMode = 'forwarding' | 'silent' | 'stopped'

export interface TcpProxy {
  readonly port: number
  mode: () => ProxyMode
  stop: () => Promise<void>
  silent: () => Promise<void>
  start: () => Promise<void>
  /** Client connections open now (each is one connection of Ponte's to the "server"). */
  open: () => number
  /** Client connections accepted so far. */
  accepted: () => number
  /** Round trips so far, over every connection: a client's data after the server's (or its first). */
  turns: () => number
  close: () => Promise<void>
}

interface Pair { client: Socket, upstream?: Socket, frozen: boolean, clientSpoke: boolean }

export async function tcpProxy (target: { host: string, port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forwarding'
  let accepted = 0
  let turns = 0
  const pairs = new Set<Pair>()

  const destroy = (pair: Pair): void => {
    pair.client.destroy()
    pair.upstream?.destroy()
    pairs.delete(pair)
  }
  // Nothing is read or passed on, nothing is lost: what was sent waits in the socket buffers,
  // as it would behind a server that hangs or a network that stopped delivering.
  const freeze = (pair: Pair): void => {
    pair.frozen = true
    pair.client.unpipe()
    pair.upstream?.unpipe()
    pair.client.pause()
    pair.upstream?.pause()
  }
  const forward = (pair: Pair): void => {
    pair.frozen = false
    if (!pair.upstream) {
      const upstream = connect(target.port, target.host)
      pair.upstream = upstream
      upstream.on('error', () => destroy(pair))
      upstream.on('close', () => destroy(pair))
      upstream.on('data', () => { pair.clientSpoke = false })
    }
    pair.client.pipe(pair.upstream)
    pair.upstream.pipe(pair.client)
  }

  const server = createServer((client) => {
    accepted++
    const pair: Pair = { client, frozen: false, clientSpoke: false }
    pairs.add(pair)
    client.on('data', () => {
      if (!pair.clientSpoke) turns++
      pair.clientSpoke = true
    })
    client.on('error', () => destroy(pair))
    client.on('close', () => destroy(pair))
    if (mode === 'forwarding') forward(pair)
    else freeze(pair)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port

  const listen = async (): Promise<void> => {
    if (server.listening) return
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
  }
  const unlisten = async (): Promise<void> => {
    if (!server.listening) return
    const closed = once(server, 'close')
    server.close()
    for (const pair of [...pairs]) destroy(pair)
    await closed
  }

  return {
    port,
    mode: () => mode,
    async stop () {
      mode = 'stopped'
      await unlisten()
    },
    async silent () {
      mode = 'silent'
      for (const pair of pairs) freeze(pair)
      await listen()
    },
    async start () {
      // A server that answers again serves what waited, frozen connections included.
      mode = 'forwarding'
      for (const pair of pairs) if (pair.frozen) forward(pair)
      await listen()
    },
    open: () => pairs.size,
    accepted: () => accepted,
    turns: () => turns,
    async close () {
      mode = 'stopped'
      await unlisten()
    }
  }
}
