// What an operator configures for webhooks: the WEBHOOKS file checked at start, each mistake one
// line naming the subscriber and never a secret or URL, the server refusing to start on one;
// and the retry waits growing, jittered, capped.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../../../src/config.js'
import { retryDelay } from '../../../../src/events/delivery/backoff.js'
import { EVENT_TYPES } from '../../../../src/events/event.js'
import { testSecret } from '../../../helpers/webhook-receiver.js'
import { childEnv } from '../../../helpers/child-env.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-webhooks-config-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
const SECRET = testSecret()
let n = 0

function file (text: string): string {
  const path = join(dir, `webhooks-${++n}.yaml`)
  writeFileSync(path, text)
  return path
}

function problems (text: string, env: Record<string, string> = {}): string[] {
  try {
    loadConfig({ WEBHOOKS: file(text), ...env })
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

t.test('a valid file: subscribers with their types, secrets from the file or the environment', async (t) => {
  const config = loadConfig({
    WEBHOOKS: file(`subscribers:
  - name: crm
    url: https://crm.example/hooks
    secretEnv: CRM_SECRET
  - name: cancels
    url: http://127.0.0.1:9/x
    secret: ${SECRET}
    events: [appointment.canceled, appointment.deleted]
`),
    CRM_SECRET: SECRET,
    WEBHOOK_TIMEOUT_MS: '2500',
    WEBHOOK_RETRY_SECONDS: '172800',
    WEBHOOK_CONCURRENCY: '2'
  })
  const [crm, cancels] = config.webhooks.subscribers
  t.same([crm.name, crm.url, crm.secret, [...crm.events]], ['crm', 'https://crm.example/hooks', SECRET, [...EVENT_TYPES]], 'every type by default; the secret read from its variable')
  t.same([...cancels.events], ['appointment.canceled', 'appointment.deleted'], 'or the types listed')
  t.same([config.webhooks.timeoutMs, config.webhooks.retryForMs, config.webhooks.concurrency], [2500, 172_800_000, 2], 'settings from the environment')
  t.same(loadConfig({}).webhooks, { subscribers: [], timeoutMs: 10_000, retryForMs: 86_400_000, backoffMs: 5000, backoffMaxMs: 3_600_000, concurrency: 4 }, 'no WEBHOOKS: no subscribers; defaults retry for 24 hours')
})

t.test('each mistake is one line naming the subscriber and the key, never the secret', async (t) => {
  const one = (entry: string, env: Record<string, string> = {}): string[] => problems(`subscribers:\n  - name: crm\n${entry}`, env)
  const cases: Array<[string, string[], Record<string, string>?]> = [
    [`    url: ftp://user:pw@host/x\n    secret: ${SECRET}`, ['WEBHOOKS: subscriber "crm": url: expected an http:// or https:// URL']],
    [`    url: not a url\n    secret: ${SECRET}`, ['WEBHOOKS: subscriber "crm": url: expected an http:// or https:// URL']],
    ['    url: https://x.example/', ['WEBHOOKS: subscriber "crm": a signing secret is required (secret, or secretEnv naming a variable that holds it)']],
    ['    url: https://x.example/\n    secret: hunter2-plain', ['WEBHOOKS: subscriber "crm": secret: expected whsec_ followed by base64']],
    ['    url: https://x.example/\n    secret: whsec_c2hvcnQ=', ['WEBHOOKS: subscriber "crm": secret: the key must be 24 to 64 bytes (it is 5)']],
    ['    url: https://x.example/\n    secretEnv: NOT_SET_ANYWHERE', ['WEBHOOKS: subscriber "crm": secretEnv (NOT_SET_ANYWHERE): the variable is not set']],
    ['    url: https://x.example/\n    secretEnv: 1bad', ['WEBHOOKS: subscriber "crm": secretEnv: expected the name of an environment variable']],
    [`    url: https://x.example/\n    secretEnv: S\n    secret: ${SECRET}`, ['WEBHOOKS: subscriber "crm": give secret or secretEnv, not both']],
    [`    url: https://x.example/\n    secret: ${SECRET}\n    events: [appointment.moved]`, [`WEBHOOKS: subscriber "crm": events: unknown type "appointment.moved" (expected ${EVENT_TYPES.join(', ')})`]],
    [`    url: https://x.example/\n    secret: ${SECRET}\n    events: []`, [`WEBHOOKS: subscriber "crm": events: expected a list of ${EVENT_TYPES.join(', ')}`]],
    [`    url: https://x.example/\n    secret: ${SECRET}\n    retries: 3`, ['WEBHOOKS: subscriber "crm": unknown key "retries" (expected name, url, secret or secretEnv, events)']]
  ]
  for (const [entry, expected, env] of cases) t.same(one(entry, env), expected, expected[0])
  const envSecret = one('    url: https://x.example/\n    secretEnv: HOOK', { HOOK: 'whsec_!!' })
  t.same(envSecret, ['WEBHOOKS: subscriber "crm": secretEnv (HOOK): expected whsec_ followed by base64'], 'a bad secret from the environment named by its variable')
  t.same(problems(`subscribers:\n  - name: a b\n    url: https://x.example/\n    secret: ${SECRET}`), ['WEBHOOKS: subscriber "a b": name: 1–40 letters, digits, dots, dashes or underscores'], 'a bad name')
  t.same(problems(`subscribers:\n  - https://x.example/\n  - name: crm\n    url: https://x.example/\n    secret: ${SECRET}\n  - name: crm\n    url: https://y.example/\n    secret: ${SECRET}`),
    ['WEBHOOKS: subscribers[0]: expected { name, url, secret or secretEnv, events }', 'WEBHOOKS: subscriber "crm": the name is given twice'], 'entries by place when unnamed; names once')
  t.match(problems('subscribers: []'), [/needs a non-empty "subscribers" list$/], 'an empty list')
  t.match(problems('{ not yaml'), [/^WEBHOOKS: cannot read .* \(not YAML or JSON\)$/], 'a file that does not parse')
  t.match(loadConfigProblems({ WEBHOOKS: join(dir, 'missing.yaml') }), [/^WEBHOOKS: cannot read .*missing\.yaml \(ENOENT\)$/], 'a file that is not there')
  t.match(loadConfigProblems({ WEBHOOK_BACKOFF_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '1000' }), [/WEBHOOK_BACKOFF_MS \(5000\) must not be longer than WEBHOOK_BACKOFF_MAX_MS/], 'backoff bounds in order')
})

t.test('the server refuses to start on a bad WEBHOOKS file: one line per mistake, exit 1, no secret', async (t) => {
  const path = file(`subscribers:\n  - name: crm\n    url: https://user:pw@crm.example/hooks\n    secret: ${SECRET}\n    events: [appointment.nope]\n`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: childEnv({ WEBHOOKS: path, PORT: '0', IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:' }),
    encoding: 'utf8',
    timeout: 120_000
  })
  t.equal(run.status, 1, 'exit 1')
  t.match(run.stderr, /^Invalid configuration:\n {2}- WEBHOOKS: subscriber "crm": events: unknown type "appointment\.nope" \(expected [^\n]+\)\n$/, 'the mistake on one line, nothing else')
  t.notMatch(run.stderr + run.stdout, new RegExp(`${SECRET.slice(6, 30).replace(/[+/]/g, '.')}|user:pw`), 'no secret or URL credentials')
})

t.test('retry waits double up to the cap, jittered between half and all of it', async (t) => {
  const b = { baseMs: 1000, maxMs: 8000 }
  t.same([1, 2, 3, 4, 5, 30].map((a) => retryDelay(a, { ...b, random: () => 0 })), [500, 1000, 2000, 4000, 4000, 4000], 'the least: half of each capped doubling')
  t.same([1, 2, 3, 4, 5].map((a) => retryDelay(a, { ...b, random: () => 0.999999 })), [1000, 2000, 4000, 8000, 8000], 'the most: all of it')
  const spread = new Set(Array.from({ length: 50 }, () => retryDelay(3, b)))
  t.ok(spread.size > 1 && [...spread].every((d) => d >= 2000 && d <= 4000), 'random within the bounds')
})

function loadConfigProblems (env: Record<string, string>): string[] {
  try {
    loadConfig(env)
    return []
  } catch (err) {
    return (err as ConfigError).problems
  }
}
