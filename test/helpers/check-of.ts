// `ponte check` of a mapping written in the test against a scratch database: one helper, so
// the suites that check an inline mapping open and close the installation the same way.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation, type CheckReport } from '../../src/check/index.js'

/** The report of `ponte check` of `yaml` over the database at `url`, on the day `today` (its scans' dates). */
export async function checkOf (t: Test, url: string, yaml: string, today = '2031-03-01'): Promise<CheckReport> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-check-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'mapping.yaml'), yaml)
  const inst = await openInstallation(join(dir, 'mapping.yaml'), url, undefined, { structural: 'skip' })
  try {
    return await checkInstallation(inst, today)
  } finally {
    await inst.close()
  }
}
