// A second process holding a lock on a SQLite file until told (a line on its stdin), as another
// program sharing the file does: EXCLUSIVE keeps readers out too; IMMEDIATE (with a write
// pending) lets reads through and stops writers, as the clinic's desktop system does mid-save.
import { spawn } from 'node:child_process'
import { once } from 'node:events'

/** `pending`: a write that touches nothing, so the lock is a writer's (`UPDATE t SET c = c WHERE 0`). */
export async function holdLock (file: string, pending: string, mode: 'EXCLUSIVE' | 'IMMEDIATE' = 'EXCLUSIVE'): Promise<{ release: () => Promise<void> }> {
  const holder = spawn(process.execPath, ['-e', `
    const db = new (require('better-sqlite3'))(${JSON.stringify(file)})
    db.exec('BEGIN ${mode}')
    db.exec(${JSON.stringify(pending)})
    process.stdout.write('locked\\n')
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0) })
  `], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] })
  const [chunk] = await once(holder.stdout, 'data') as [Buffer]
  if (!chunk.toString().includes('locked')) throw new Error('the lock holder did not start')
  return {
    release: async () => {
      holder.stdin.write('go\n')
      await once(holder, 'exit')
    }
  }
}
