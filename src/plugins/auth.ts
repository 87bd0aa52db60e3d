// API keys (design notes §1): `Authorization: Bearer <key>` or `X-API-Key`. Keys are kept
// only as SHA-256 digests and compared in constant time. Each key has a name (what logs,
// audit lines and metrics show, never the key) and a scope: a `read` key answers GET only.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKey } from '../config.js'
import { ForbiddenError, UnauthorizedError } from '../errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request was accepted with (set by requireApiKey). */
    apiKey?: ApiKey
  }
}

const READ_METHODS = new Set(['GET', 'HEAD'])

export function presentedKey (headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
    if (m) return m[1].trim()
  }
  const key = headers['x-api-key']
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined
}

/** Plain digests (older callers, tests) are write keys named after their digest. */
function asKeys (keys: readonly (ApiKey | string)[]): ApiKey[] {
  return keys.map((k) => typeof k === 'string' ? { name: `key-${k.slice(0, 8)}`, scope: 'write', hash: k } : k)
}

/** The known key `key` is, or undefined. */
export function keyFinder (keys: readonly (ApiKey | string)[]): (key: string | undefined) => ApiKey | undefined {
  const known = asKeys(keys).map((k) => ({ key: k, digest: Buffer.from(k.hash, 'hex') }))
  return (key) => {
    if (key === undefined) return undefined
    const d = createHash('sha256').update(key).digest()
    // Compare against every key, so the time taken says nothing about which one matched.
    let found: ApiKey | undefined
    for (const k of known) if (timingSafeEqual(d, k.digest) && found === undefined) found = k.key
    return found
  }
}

export function keyChecker (hashes: string[]): (key: string | undefined) => boolean {
  const find = keyFinder(hashes)
  return (key) => find(key) !== undefined
}

/** The name of the key a request was accepted with, for logs; undefined before auth. */
export function keyName (request: FastifyRequest): string | undefined {
  return request.apiKey?.name
}

/** Adds the key check (and the scope check) to every route of the plugin scope it is called in. */
export function requireApiKey (app: FastifyInstance, keys: readonly (ApiKey | string)[]): void {
  const find = keyFinder(keys)
  // Callback style: no promise per request. The key is hashed once here; the rate limit
  // reuses the digest (request.apiKey.hash).
  app.addHook('onRequest', (request, _reply, done) => {
    const presented = presentedKey(request.headers)
    const key = find(presented)
    if (key === undefined) {
      done(new UnauthorizedError(presented === undefined
        ? 'Send an API key as "Authorization: Bearer <key>" or "X-API-Key: <key>".'
        : 'The API key is not valid.'))
      return
    }
    request.apiKey = key
    if (key.scope === 'read' && !READ_METHODS.has(request.method)) {
      done(new ForbiddenError(`The API key "${key.name}" may only read; ${request.method} needs a key with the write scope.`))
      return
    }
    done()
  })
}
