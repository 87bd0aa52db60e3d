// Listening on the configured address, or one line saying why it cannot be had: an address in
// use (often an earlier Ponte still running) is the operator's to fix, not a stack to read.
import type { FastifyInstance } from 'fastify'

/** A start that cannot go on for a reason of the machine's, said in one line (server.ts prints it). */
export class StartError extends Error {
  constructor (message: string) {
    super(`Ponte could not start: ${message}`)
    this.name = 'StartError'
  }
}

const WHY: Record<string, (port: number, host: string) => string> = {
  EADDRINUSE: (port, host) => `port ${port} on ${host} is in use`,
  EACCES: (port, host) => `port ${port} on ${host} may not be opened by this user`,
  EADDRNOTAVAIL: (_port, host) => `${host} is not an address of this machine`
}

/** `what`: which listener, when not the interface's (`METRICS_PORT`). */
export async function listen (server: FastifyInstance, port: number, host: string, what = ''): Promise<void> {
  try {
    await server.listen({ port, host })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why = code !== undefined && Object.hasOwn(WHY, code) ? WHY[code] : undefined
    if (!why) throw err
    throw new StartError(`${what ? `${what}: ` : ''}${why(port, host)} (${code})`)
  }
}
