// Throwaway PostgreSQL databases holding a fixture, on the local server, for tests: each
// fixture is loaded once into a template database and every call copies it.
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { readFixture } from '../../../src/fixtures/read.js'
import { loadFixture } from '../../../src/sql/postgres/load.js'
import { quoteDouble as quote } from '../../../src/sql/ansi.js'

/** The local server's maintenance database, where scratch databases are created and dropped. */
export function adminUrl (): string {
  return process.env.PONTE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
}

function databaseUrl (name: string): string {
  const u = new URL(adminUrl())
  u.pathname = `/${name}`
  return u.toString()
}

// The loader's text is part of a template's key: a change to how fixtures load makes new templates.
const LOADER = readFileSync(fileURLToPath(new URL('../../../src/sql/postgres/load.ts', import.meta.url)))

/**
 * A fresh database `ponte_<random>` holding the fixture, copied from a template database
 * `ponte_tpl_<hash>` loaded once per fixture content (CREATE DATABASE … TEMPLATE is a file
 * copy, far faster than loading). An advisory lock makes concurrent test processes build a
 * template once; it is built under a temporary name and renamed, so a crash mid-load never
 * leaves a half-loaded template.
 */
export async function createScratchDatabase (fixturePath: string): Promise<{ url: string, drop: () => Promise<void> }> {
  const hash = createHash('sha256').update(readFileSync(fixturePath)).update(LOADER).digest('hex').slice(0, 16)
  const template = `ponte_tpl_${hash}`
  const name = `ponte_${randomBytes(8).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl() })
  await admin.connect()
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template])
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])
      if (found.rowCount === 0) {
        const building = `${template}_building`
        await admin.query(`DROP DATABASE IF EXISTS ${quote(building)} WITH (FORCE)`)
        await admin.query(`CREATE DATABASE ${quote(building)} TEMPLATE template0 ENCODING 'UTF8'`)
        await loadFixture(readFixture(fixturePath), databaseUrl(building))
        await admin.query(`ALTER DATABASE ${quote(building)} RENAME TO ${quote(template)}`)
        // Nobody connects to a template: a connection to it would make every copy fail.
        await admin.query(`ALTER DATABASE ${quote(template)} WITH ALLOW_CONNECTIONS false`)
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template])
    }
    await admin.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`)
  } finally {
    await admin.end()
  }
  return {
    url: databaseUrl(name),
    async drop () {
      const c = new pg.Client({ connectionString: adminUrl() })
      await c.connect()
      try {
        await c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`)
      } finally {
        await c.end()
      }
    }
  }
}
