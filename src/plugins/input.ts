// What a request may carry besides its validated fields (validation.ts checks those):
//  - a JSON body names each key of an object once (repeated-key.ts): a repeat is a 400;
//  - a body is JSON: fastify's own text/plain parser is removed, so a JSON text sent as
//    text/plain is a 415 naming the media type, not a 400 about the body's shape;
//  - a body is read only as it is: uncompressed (Ponte decodes no Content-Encoding, and must
//    not parse gzip bytes as if they were JSON) and UTF-8 (a declared charset=utf-16 is not
//    ignored); anything else is a 415. Bytes that are not UTF-8 are a 400, not U+FFFD
//    replacement characters stored in a name;
//  - a route that declares no query parameters accepts none, so a misspelt filter on it is a
//    400 too (every interface route then has a query schema, with additionalProperties: false).
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { InvalidInputError, UnsupportedMediaTypeError } from '../errors.js'
import { repeatedKey } from './repeated-key.js'

/** The query of a route without query parameters. */
export const NoQuery = Type.Object({}, { additionalProperties: false })

/** The request carries a body (it may not have arrived yet). */
export function hasBody (request: FastifyRequest): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0
}

/** The charset parameter of a Content-Type, lower case, if any. */
export function charsetOf (contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)
  return match ? match[1].toLowerCase() : undefined
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

export default fp(async function input (app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as (Record<string, unknown> & { hide?: boolean }) | undefined
    if (schema && !schema.hide && schema.querystring === undefined) schema.querystring = NoQuery
  })

  // Callback style: a request without a body (every read) passes without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!hasBody(request)) { done(null, payload); return }
    const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
    if (encoding !== 'identity' && encoding !== '') {
      done(new UnsupportedMediaTypeError(`Content-Encoding "${encoding}" is not accepted: send the body uncompressed.`))
      return
    }
    const charset = charsetOf(String(request.headers['content-type'] ?? ''))
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new UnsupportedMediaTypeError(`charset=${charset} is not accepted: send the body as UTF-8.`))
      return
    }
    done(null, payload)
  })

  app.removeContentTypeParser('text/plain')
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string
    try {
      text = utf8.decode(body as Buffer)
    } catch {
      done(new InvalidInputError('The body is not valid UTF-8.', [{ path: '/body', message: 'must be UTF-8 text' }]), undefined)
      return
    }
    // The framework's parser says "not valid JSON" for every refusal; a caller deserves to know
    // whether the JSON is broken, repeats a key, or holds a prototype key, which the parser
    // refuses outright.
    try {
      JSON.parse(text)
    } catch {
      done(new InvalidInputError('The body is not valid JSON.', [{ path: '/body', message: 'must be JSON' }]), undefined)
      return
    }
    const repeated = repeatedKey(text)
    if (repeated !== undefined) {
      done(new InvalidInputError(`The body gives the key at /body${repeated} more than once; which value was meant is not guessed.`, [{ path: `/body${repeated}`, message: 'must appear once' }]), undefined)
      return
    }
    parseJson(request, text, (err, value) => {
      if (err) done(new InvalidInputError('The body holds a "__proto__" or "constructor.prototype" key, which no request of the interface has.', [{ path: '/body', message: 'must not hold prototype keys' }]), undefined)
      else done(null, value)
    })
  })
}, { name: 'ponte-input' })
