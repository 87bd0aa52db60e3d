// API keys (design notes §1): `Authorization: Bearer <key>` or `X-API-Key`. Keys are kept
// only as SHA-256 digests and compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { UnauthorizedError } from '../errors.js'

export function presentedKey (headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
    if (m) return m[1].trim()
  }
  const key = headers['x-api-key']
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined
}

export function keyChecker (hashes: string[]): (key: string | undefined) => boolean {
  const digests = hashes.map((h) => Buffer.from(h, 'hex'))
  return (key) => {
    if (key === undefined) return false
    const d = createHash('sha256').update(key).digest()
    // Compare against every key, so the time taken says nothing about which one matched.
    let ok = false
    for (const known of digests) ok = timingSafeEqual(d, known) || ok
    return ok
  }
}

/** Adds the key check to every route of the plugin scope it is called in. */
export function requireApiKey (app: FastifyInstance, hashes: string[]): void {
  const valid = keyChecker(hashes)
  app.addHook('onRequest', async (request) => {
    if (!valid(presentedKey(request.headers))) {
      throw new UnauthorizedError(presentedKey(request.headers) === undefined
        ? 'Send an API key as "Authorization: Bearer <key>" or "X-API-Key: <key>".'
        : 'The API key is not valid.')
    }
  })
}
