// A SQLite installation never loads another server's driver nor Redis's client: each costs
// 15-35 MB of resident memory (issue 13), so they are imported only when DATABASE_URL or
// REDIS_URL names them.
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { childEnv } from '../../helpers/child-env.js'

const ROOT = new URL('../../..', import.meta.url).pathname

for (const [how, args] of [['npm start', []], ['ponte serve', ['cli']]] as const) {
  t.test(`serving SQLite without REDIS_URL (${how}) loads neither mssql, pg, mysql2 nor ioredis`, async (t) => {
    const env = childEnv({ DATABASE_URL: undefined, REDIS_URL: undefined })
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/helpers/loaded-packages.ts', ...args], { cwd: ROOT, env })
    const loaded = stdout.split('\n')
    t.ok(loaded.includes('better-sqlite3'), 'the probe sees what the process loaded')
    if (args.length > 0) t.ok(loaded.includes('commander'), 'and the command\'s own packages')
    for (const heavy of ['mssql', 'tedious', 'pg', 'mysql2', 'ioredis']) t.notOk(loaded.includes(heavy), `${heavy} not loaded`)
  })
}
