// Is the path still the SQLite file we opened? A file deleted, moved or replaced while open
// goes on answering reads from the orphaned inode, and writes fail with
// SQLITE_READONLY_DBMOVED. Comparing device and inode with the path's answers it; an async
// stat at most once a second keeps it off the hot path.
import { statSync } from 'node:fs'
import { access, constants, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

/** 'same': still ours; 'gone': nothing at the path; 'replaced': another file is there now. */
export type FileState = 'same' | 'gone' | 'replaced'

export class FileIdentity {
  private dev = 0
  private ino = 0
  private state: FileState = 'same'
  private checkedAt = -Infinity
  private checking: Promise<FileState> | undefined

  constructor (readonly path: string, private readonly everyMs = 1000) {
    this.remember()
  }

  /** The file at the path now is the one open (at open and after a reopen; never per request). */
  remember (): void {
    const s = statSync(this.path)
    this.dev = s.dev
    this.ino = s.ino
    this.state = 'same'
    this.checkedAt = performance.now()
  }

  /** Known without a stat to be the file opened: the last check is under `everyMs` old and said so. */
  unchanged (): boolean {
    return this.state === 'same' && performance.now() - this.checkedAt < this.everyMs
  }

  /** The state at most `everyMs` old; concurrent callers share one stat. */
  async current (): Promise<FileState> {
    if (performance.now() - this.checkedAt < this.everyMs) return this.state
    this.checking ??= this.check().finally(() => { this.checking = undefined })
    return await this.checking
  }

  private async check (): Promise<FileState> {
    try {
      const s = await stat(this.path)
      this.state = s.dev === this.dev && s.ino === this.ino ? 'same' : 'replaced'
    } catch {
      this.state = 'gone'
    }
    this.checkedAt = performance.now()
    return this.state
  }
}

/** Whether this process may write the file and create its journal beside it (readiness only). */
export async function canWrite (path: string): Promise<boolean> {
  try {
    await access(dirname(path), constants.W_OK)
    await access(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}
