// Throwaway databases holding a fixture, on the local server, for tests. Loading a sample
// takes a second or two; copying a loaded one takes a fraction of that. So each fixture (by
// the hash of its file and of the loader) is loaded once into a template database
// `ponte_tpl_<hash>`, under a server lock so parallel test processes load it once, and each
// call copies it table by table into a fresh `ponte_<random>`.
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Connection } from 'mysql2/promise'
import { readFixture } from '../../../src/fixtures/read.js'
import { connectTo, loadFixture, unicodeCollation } from '../../../src/sql/mysql/load.js'
import { quoteBacktick as quote } from '../../../src/sql/mysql/dialect.js'

export const DEFAULT_ADMIN_URL = 'mysql://root@127.0.0.1:3306/'

/** The local server's URL, without a database; PONTE_TEST_MYSQL_URL overrides it. */
export function adminUrl (): string {
  return process.env.PONTE_TEST_MYSQL_URL ?? DEFAULT_ADMIN_URL
}

// The loader is part of what a template holds: a changed loader loads afresh.
const LOADER = readFileSync(fileURLToPath(new URL('../../../src/sql/mysql/load.ts', import.meta.url)))

/** Present in a template once it is completely loaded; never copied. */
const READY = 'ponte_template_ready'
const LOCK_WAIT_S = 120
const COPIERS = 4

export async function createScratchDatabase (fixturePath: string): Promise<{ url: string, drop: () => Promise<void> }> {
  const admin = adminUrl()
  const conn = await connectTo(admin)
  try {
    const template = await ensureTemplate(conn, fixturePath, admin)
    const name = `ponte_${randomBytes(6).toString('hex')}`
    await copyDatabase(conn, template, name, admin)
    const url = withDatabase(admin, name)
    return {
      url,
      drop: async () => {
        const c = await connectTo(admin)
        try { await c.query(`DROP DATABASE IF EXISTS ${quote(name)}`) } finally { await c.end() }
      }
    }
  } finally {
    await conn.end()
  }
}

function withDatabase (url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

async function ensureTemplate (conn: Connection, fixturePath: string, admin: string): Promise<string> {
  const hash = createHash('sha256')
    .update(readFileSync(fixturePath))
    .update(LOADER)
    .digest('hex').slice(0, 16)
  const template = `ponte_tpl_${hash}`
  if (await isReady(conn, template)) return template
  const [[{ got }]] = await conn.query('SELECT GET_LOCK(?, ?) AS got', [template, LOCK_WAIT_S]) as unknown as [[{ got: number | null }]]
  if (got !== 1) throw new Error(`timed out waiting for another process loading ${template}`)
  try {
    if (await isReady(conn, template)) return template
    // A half-loaded template (a process that died while loading) is loaded again.
    await conn.query(`DROP DATABASE IF EXISTS ${quote(template)}`)
    await conn.query(`CREATE DATABASE ${quote(template)} CHARACTER SET utf8mb4 COLLATE ${await unicodeCollation(conn)}`)
    await loadFixture(readFixture(fixturePath), withDatabase(admin, template))
    await conn.query(`CREATE TABLE ${quote(template)}.${quote(READY)} (ok INT)`)
    return template
  } finally {
    await conn.query('SELECT RELEASE_LOCK(?)', [template])
  }
}

async function isReady (conn: Connection, template: string): Promise<boolean> {
  const [rows] = await conn.query('SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [template, READY])
  return (rows as unknown[]).length > 0
}

async function copyDatabase (conn: Connection, template: string, name: string, admin: string): Promise<void> {
  const [rows] = await conn.query('SELECT TABLE_NAME AS t, DEFAULT_COLLATION_NAME AS c FROM information_schema.TABLES JOIN information_schema.SCHEMATA ON SCHEMA_NAME = TABLE_SCHEMA WHERE TABLE_SCHEMA = ? AND TABLE_NAME <> ?', [template, READY])
  const tables = rows as { t: string, c: string }[]
  await conn.query(`CREATE DATABASE ${quote(name)} CHARACTER SET utf8mb4 COLLATE ${tables[0]?.c ?? 'utf8mb4_unicode_ci'}`)
  // Tables copied side by side: each CREATE TABLE waits on the disk on its own.
  const queue = [...tables]
  const worker = async (): Promise<void> => {
    const c = await connectTo(admin)
    try {
      await c.query('SET SESSION foreign_key_checks = 0, unique_checks = 0')
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        await c.query(`CREATE TABLE ${quote(name)}.${quote(next.t)} LIKE ${quote(template)}.${quote(next.t)}`)
        await c.query(`INSERT INTO ${quote(name)}.${quote(next.t)} SELECT * FROM ${quote(template)}.${quote(next.t)}`)
      }
    } finally {
      await c.end()
    }
  }
  await Promise.all(Array.from({ length: COPIERS }, worker))
}
