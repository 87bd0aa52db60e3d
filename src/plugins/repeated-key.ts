// A key given twice in one JSON object. JSON.parse keeps the last one without a word, so
// {"state":"NOPE","state":"CONFIRMED"} would be read as CONFIRMED while a log, a proxy or the
// caller's own reading says NOPE. JSON.parse's reviver cannot see repeats (Node 20 gives it no
// source text) and the packages that report them are whole parsers of their own, so this is one
// pass over text JSON.parse has already accepted: linear in its length, no recursion (a
// 3,000-level body is only a longer list), one set of keys per object still open.

/** A JSON object or array still open at the scan's position, and where in it the scan is. */
interface Open {
  /** The keys met so far (objects only). */
  keys?: Set<string>
  /** The current member's key, or the current element's index. */
  at: string | number
}

const QUOTE = 0x22
const BACKSLASH = 0x5c

// A JSON pointer token (RFC 6901): `a/b` is `a~1b`.
const token = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * The JSON pointer of the first key repeated in an object of `text` (`/state`, `/items/0/id`),
 * or undefined. `text` must be valid JSON: check it with JSON.parse first.
 */
export function repeatedKey (text: string): string | undefined {
  const open: Open[] = []
  let keyNext = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      let end = i + 1
      while (text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1
      if (keyNext) {
        const raw = text.slice(i + 1, end)
        // Escapes decoded as JSON.parse decodes them: "f\u006fo" repeats "foo".
        const key = raw.includes('\\') ? JSON.parse(text.slice(i, end + 1)) as string : raw
        const object = open[open.length - 1]
        if (object.keys?.has(key) === true) return open.slice(0, -1).map((o) => `/${token(o.at)}`).join('') + `/${token(key)}`
        object.keys?.add(key)
        object.at = key
        keyNext = false
      }
      i = end
    } else if (c === 0x7b) { // {
      open.push({ keys: new Set(), at: '' })
      keyNext = true
    } else if (c === 0x5b) { // [
      open.push({ at: 0 })
    } else if (c === 0x7d || c === 0x5d) { // } ]
      open.pop()
    } else if (c === 0x2c) { // ,
      const inner = open[open.length - 1]
      if (inner.keys !== undefined) keyNext = true
      else inner.at = (inner.at as number) + 1
    }
  }
  return undefined
}
