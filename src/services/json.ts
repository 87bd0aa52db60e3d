// Response JSON made once and reused. A catalogue entity (a professional with its
// specialties, a location…) is listed on every `/professionals` call, yet it changes only
// with the catalogue snapshot: its JSON text is made the first time it is needed and kept
// with the object (a WeakMap, so it goes with the snapshot). A list built from such parts
// records its whole text the same way, and the HTTP serializer (app.ts) sends that text
// instead of walking the objects again. (Appointments nest the same entities but are
// serialised whole: splicing a thousand items' texts cost more CPU than one JSON.stringify.)
//
// Exactly JSON.stringify's bytes: a part is spliced only where JSON.stringify would write
// that same object. Objects given a text here must not change afterwards (catalogue
// entities never do; a response is not touched once its service returns it).

const texts = new WeakMap<object, string>()

/** The JSON text of `value`, made once per object. */
export function jsonOf (value: object): string {
  let text = texts.get(value)
  if (text === undefined) {
    text = JSON.stringify(value)
    texts.set(value, text)
  }
  return text
}

/** Records `text` as the JSON of `value` (which must serialise to exactly that). */
function withJson<T extends object> (value: T, text: string): T {
  texts.set(value, text)
  return value
}

/** An array's JSON from its items' (each made once: see jsonOf). */
export function jsonList<T extends object> (items: T[]): T[] {
  let text = '['
  for (let i = 0; i < items.length; i++) text += (i === 0 ? '' : ',') + jsonOf(items[i])
  return withJson(items, `${text}]`)
}

/** The serializer of every route's response: a recorded text, else JSON.stringify. */
export function serialize (data: unknown): string {
  if (typeof data === 'object' && data !== null) {
    const text = texts.get(data)
    if (text !== undefined) return text
  }
  return JSON.stringify(data)
}

/**
 * Answers this long are sent as their UTF-8 bytes. Given a string, fastify counts its UTF-8
 * bytes for Content-Length and Node then encodes it to write it: two passes over the text
 * (the busy day's 934 KB, ~2 ms each), where Buffer.from makes one. Below this, the second pass
 * costs less than allocating the Buffer.
 */
export const ENCODE_FROM_CHARS = 16_384

/** An onSend payload, a long text encoded once (fastify sends a Buffer as it is, whatever its Content-Type). */
export function encodedOnce (payload: unknown): unknown {
  return typeof payload === 'string' && payload.length >= ENCODE_FROM_CHARS ? Buffer.from(payload, 'utf8') : payload
}
