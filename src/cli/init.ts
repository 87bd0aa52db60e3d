// `ponte init`: a draft mapping written from a live database's catalogue.
import { existsSync, writeFileSync } from 'node:fs'
import type { Command } from 'commander'
import { connect } from '../db/connect.js'
import { LiveCatalog, readCatalog } from '../db/columns.js'
import type { Database } from '../db/database.js'
import { draftMapping, schemaLink, storedCodes } from '../toolkit/init.js'
import { readSamples } from '../toolkit/init/sample.js'
import { validated } from '../toolkit/init/validated.js'
import { UnreachableError, UsageError } from './usage.js'

export function initCommand (cli: Command): void {
  cli.command('init')
    .description('write a draft mapping from a live database (every guess commented; then run ponte check)')
    .requiredOption('-d, --db <url>', 'the clinic database')
    .option('-o, --out <file>', 'where to write the draft (default: print it)')
    .option('--installation <name>', 'a name for logs', 'my-clinic')
    .option('--force', 'replace --out if it exists')
    .action(async (o: { db: string, out?: string, installation: string, force?: boolean }) => {
      if (o.out && existsSync(o.out) && !o.force) throw new UsageError(`--out: ${o.out} exists (add --force to replace it)`)
      let db: Database
      try { db = await connect(o.db) } catch (err) { throw new UnreachableError(`cannot open the database: ${(err as Error).message}`) }
      try {
        const unreadable = (err: unknown): never => { throw new UnreachableError(`cannot read the database catalog: ${(err as Error).message}`) }
        const tables = (await readCatalog(db).catch(unreadable)).tables
        const catalog = new LiveCatalog(tables, await db.introspect.references().catch(unreadable))
        const samples = await readSamples(db, catalog)
        const draft = await draftMapping(catalog, o.installation, storedCodes(db), schemaLink(o.out), samples)
        // A draft that does not validate is a mistake of init's: written all the same, each problem a TODO in it.
        const { yaml, problems } = validated(draft.yaml, o.out ?? 'draft.yaml')
        if (problems > 0) process.stderr.write(`the draft does not validate yet: ${problems} TODO lines at its top say where\n`)
        if (o.out) {
          writeFileSync(o.out, yaml)
          process.stderr.write(`wrote ${o.out}: ${Object.entries(draft.tables).map(([r, t]) => `${r} ← ${t}`).join(', ')}\nnext: ponte check -m ${o.out} -d '${o.db}'\n`)
        } else {
          process.stdout.write(yaml)
        }
      } finally {
        await db.close()
      }
    })
}
