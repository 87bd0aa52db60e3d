// Webhook subscribers from the file WEBHOOKS names (YAML or JSON), checked at start: every
// mistake is one line naming the subscriber and the key, never a secret or a URL's text.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { EVENT_TYPES, type EventType } from '../event.js'

export interface Subscriber {
  name: string
  /** Where events are POSTed; may hold credentials, so it is never logged or shown. */
  url: string
  /** The Standard Webhooks signing secret (`whsec_` + base64). */
  secret: string
  /** The event types sent to it (all when the file names none). */
  events: ReadonlySet<EventType>
}

const NAME = /^[A-Za-z0-9._-]{1,40}$/
const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
// The Standard Webhooks spec asks for 24 to 64 random bytes.
const MIN_SECRET_BYTES = 24
const MAX_SECRET_BYTES = 64

/** Reads and checks `file`; returns the subscribers and what is wrong, one line each. */
export function loadSubscribers (file: string, env: NodeJS.ProcessEnv): { subscribers: Subscriber[], problems: string[] } {
  let doc: unknown
  try {
    doc = parse(readFileSync(file, 'utf8'))
  } catch (err) {
    // A parser's message may quote the file, secrets included: only what kind of failure.
    const io = err as NodeJS.ErrnoException
    const why = io.syscall !== undefined ? io.code ?? 'unreadable' : 'not YAML or JSON'
    return { subscribers: [], problems: [`WEBHOOKS: cannot read ${file} (${why})`] }
  }
  const list = (doc as { subscribers?: unknown } | null)?.subscribers
  if (!Array.isArray(list) || list.length === 0) return { subscribers: [], problems: [`WEBHOOKS: ${file} needs a non-empty "subscribers" list`] }
  const problems: string[] = []
  const subscribers: Subscriber[] = []
  list.forEach((entry: unknown, i) => {
    const found = readSubscriber(entry, env)
    const where = typeof (entry as { name?: unknown })?.name === 'string' ? `subscriber "${String((entry as { name: string }).name).slice(0, 40)}"` : `subscribers[${i}]`
    if (typeof found === 'string') problems.push(`WEBHOOKS: ${where}: ${found}`)
    else if (subscribers.some((s) => s.name === found.name)) problems.push(`WEBHOOKS: ${where}: the name is given twice`)
    else subscribers.push(found)
  })
  return { subscribers, problems }
}

function readSubscriber (entry: unknown, env: NodeJS.ProcessEnv): Subscriber | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'expected { name, url, secret or secretEnv, events }'
  const e = entry as Record<string, unknown>
  const unknownKey = Object.keys(e).find((k) => !['name', 'url', 'secret', 'secretEnv', 'events'].includes(k))
  if (unknownKey !== undefined) return `unknown key "${unknownKey.slice(0, 40)}" (expected name, url, secret or secretEnv, events)`
  if (typeof e.name !== 'string' || !NAME.test(e.name)) return 'name: 1–40 letters, digits, dots, dashes or underscores'
  if (typeof e.url !== 'string' || !isHttpUrl(e.url)) return 'url: expected an http:// or https:// URL'
  const secret = secretOf(e, env)
  if (secret.problem !== undefined) return secret.problem
  const events = eventTypes(e.events)
  if (typeof events === 'string') return events
  return { name: e.name, url: e.url, secret: secret.value, events }
}

function isHttpUrl (text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** The secret from the file (`secret`) or from the environment variable it names (`secretEnv`). */
function secretOf (e: Record<string, unknown>, env: NodeJS.ProcessEnv): { value: string, problem?: undefined } | { value?: undefined, problem: string } {
  if (e.secret !== undefined && e.secretEnv !== undefined) return { problem: 'give secret or secretEnv, not both' }
  let value: unknown = e.secret
  let from = 'secret'
  if (e.secretEnv !== undefined) {
    if (typeof e.secretEnv !== 'string' || !ENV_NAME.test(e.secretEnv)) return { problem: 'secretEnv: expected the name of an environment variable' }
    value = env[e.secretEnv]
    from = `secretEnv (${e.secretEnv})`
    if (value === undefined || value === '') return { problem: `${from}: the variable is not set` }
  }
  if (value === undefined) return { problem: 'a signing secret is required (secret, or secretEnv naming a variable that holds it)' }
  if (typeof value !== 'string' || !SECRET.test(value.trim())) return { problem: `${from}: expected whsec_ followed by base64` }
  const bytes = Buffer.from(value.trim().slice('whsec_'.length), 'base64').length
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES) return { problem: `${from}: the key must be ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes (it is ${bytes})` }
  return { value: value.trim() }
}

function eventTypes (given: unknown): ReadonlySet<EventType> | string {
  if (given === undefined) return new Set(EVENT_TYPES)
  if (!Array.isArray(given) || given.length === 0) return `events: expected a list of ${EVENT_TYPES.join(', ')}`
  const wrong = given.find((t) => !(EVENT_TYPES as readonly unknown[]).includes(t))
  if (wrong !== undefined) return `events: unknown type "${String(wrong).slice(0, 60)}" (expected ${EVENT_TYPES.join(', ')})`
  return new Set(given as EventType[])
}
