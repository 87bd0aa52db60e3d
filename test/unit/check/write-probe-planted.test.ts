// Mistakes that pass every other pass of `ponte check` yet store something other than what was
// sent, planted one at a time in a schema generated here: the write probe reports each at the
// mapping line that writes the value, on SQLite, MariaDB and PostgreSQL, and changes nothing.
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openInstallation } from '../../../src/installation.js'
import { checkInstallation, type CheckReport } from '../../../src/check/index.js'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { tableContents } from '../../helpers/table-contents.js'
import type { TestDialect } from '../../helpers/app.js'

const SCHEMA = `
CREATE TABLE person (pid INTEGER PRIMARY KEY, fname VARCHAR(40) NOT NULL, lname VARCHAR(40), dob DATE, phone VARCHAR(20), email VARCHAR(80));
CREATE TABLE provider (prid INTEGER PRIMARY KEY, pname VARCHAR(40));
CREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, prid INTEGER, vdate DATE NOT NULL, vtime VARCHAR(5) NOT NULL, st VARCHAR(2) NOT NULL);
INSERT INTO person (pid, fname, lname, dob, phone, email) VALUES (1, 'Ann', 'Lee', '1980-02-03', '11987650001', 'ann@example.com');
INSERT INTO provider (prid, pname) VALUES (10, 'Dr. Park');
INSERT INTO provider (prid, pname) VALUES (11, 'Dr. Ito');
`

// A trigger that rewrites the written first name in capitals, as some legacy systems do.
const SHOUT: Record<TestDialect, string> = {
  sqlite: 'CREATE TRIGGER shout AFTER INSERT ON person BEGIN UPDATE person SET fname = upper(fname) WHERE pid = NEW.pid; END;',
  mysql: 'CREATE TRIGGER shout BEFORE INSERT ON person FOR EACH ROW SET NEW.fname = UPPER(NEW.fname);',
  postgres: 'CREATE FUNCTION shout() RETURNS trigger AS $$ BEGIN NEW.fname := upper(NEW.fname); RETURN NEW; END $$ LANGUAGE plpgsql;\nCREATE TRIGGER shout BEFORE INSERT ON person FOR EACH ROW EXECUTE FUNCTION shout();'
}

const MAPPING = `version: 1
installation: probe-planted
timezone: America/Sao_Paulo
states:
  values: [WAITING, CONFIRMED, CANCELED]
  moves:
    WAITING: [CONFIRMED, CANCELED]
    CONFIRMED: [CANCELED]
resources:
  appointment:
    table: visit
    key: vid
    start:
      date: { column: vdate, format: date }
      hour: { column: vtime, format: text }
    state:
      column: st
      map: { W: WAITING, C: CONFIRMED, X: CANCELED }
    refs:
      client: pid
      professional: prid
    write:
      key: { generate: max }
      states:
        WAITING: { st: { value: W } }
        CONFIRMED: { st: { value: C } }
        CANCELED: { st: { value: X } }
  client:
    table: person
    key: pid
    fields:
      name: { template: '{fname} {lname}' }
      birthday: { column: dob, format: date }
      email: email
    phones: [phone]
    write:
      key: { generate: max }
  professional:
    table: provider
    key: prid
    fields: { name: pname }
`

async function check (t: Test, dialect: TestDialect, mapping: string, extraSql = '', schema = SCHEMA): Promise<{ report: CheckReport, unchanged: boolean }> {
  const s = await scratchOn(t, dialect, schema + extraSql, mapping)
  const dir = mkdtempSync(join(tmpdir(), 'ponte-probe-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'mapping.yaml'), mapping)
  const inst = await openInstallation(join(dir, 'mapping.yaml'), s.url, undefined, { structural: 'skip' })
  try {
    const before = await tableContents(inst.db)
    const report = await checkInstallation(inst, { budgetMs: 1000 })
    return { report, unchanged: JSON.stringify(await tableContents(inst.db)) === JSON.stringify(before) }
  } finally {
    await inst.close()
  }
}

const lineOf = (mapping: string, text: string): number => mapping.split('\n').findIndex((l) => l.includes(text)) + 1
const problems = (r: CheckReport) => r.findings.filter((f) => f.severity === 'problem')

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('the mapping as written: every write path proven', async (t) => {
      const { report, unchanged } = await check(t, dialect, MAPPING)
      t.same(problems(report), [], report.lines.join('\n'))
      t.equal(report.findings.filter((f) => f.severity === 'ok' && /; rolled back$/.test(f.message)).length, 9, 'POST and 4 PATCH of clients, 2 bookings, 2 state moves, a reschedule')
      t.ok(unchanged, 'every table as it was')
    })

    t.test('a CHECK constraint the mapping\'s codes meet: no problem, every path proven', async (t) => {
      // The statement probe's made-up values ('x') break such a constraint; the real paths do not.
      const guarded = SCHEMA.replace('st VARCHAR(2) NOT NULL)', "st VARCHAR(2) NOT NULL CHECK (st IN ('W', 'C', 'X')))")
      const { report, unchanged } = await check(t, dialect, MAPPING, '', guarded)
      t.same(problems(report), [], report.lines.join('\n'))
      t.equal(report.findings.filter((f) => f.severity === 'ok' && /; rolled back$/.test(f.message)).length, 9)
      t.ok(unchanged, 'every table as it was')
    })

    t.test('a service the database requires: the booking without one refused by name, every other path proven', async (t) => {
      const required = SCHEMA.replace('CREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER NOT NULL,', 'CREATE TABLE kind (kid INTEGER PRIMARY KEY, kname VARCHAR(40));\nINSERT INTO kind (kid, kname) VALUES (5, \'Consult\');\nCREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, kid INTEGER NOT NULL,')
      const mapping = MAPPING.replace('      professional: prid\n', '      professional: prid\n      service: kid\n') +
        '  service:\n    table: kind\n    key: kid\n    fields: { name: kname }\n'
      const { report, unchanged } = await check(t, dialect, mapping, '', required)
      t.same(problems(report), [], report.lines.join('\n'))
      const refusal = report.findings.find((f) => /POST \/appointments with the professional only: refused by name/.test(f.message))
      t.match(refusal?.message, /as the clinic database requires service .*callers must send it, or give the clinic's usual value with `write\.refs\.service\.otherwise`/)
      t.equal(refusal?.severity, 'warning', 'a warning: callers booking with the professional only get a 400')
      t.equal(report.findings.filter((f) => f.severity === 'ok' && /; rolled back$/.test(f.message)).length, 8, 'POST and 4 PATCH of clients, the booking with every ref, 2 state moves, a reschedule: the refusal stops none')
      t.ok(unchanged, 'every table as it was')
    })

    t.test('a column holding the new row\'s own key (`newKey`) is compared with that key, not NULL', async (t) => {
      // OpenEMR's `pubpid` and Open Dental's `Guarantor` repeat the patient's own id.
      const own = SCHEMA.replace('email VARCHAR(80));', 'email VARCHAR(80), pubpid VARCHAR(20));')
      const mapping = MAPPING.replace('    write:\n      key: { generate: max }\n  professional:', '    write:\n      key: { generate: max }\n      set:\n        pubpid: { newKey: true }\n  professional:')
      t.not(mapping, MAPPING, 'the newKey column mapped')
      const { report, unchanged } = await check(t, dialect, mapping, '', own)
      t.same(problems(report), [], report.lines.join('\n'))
      t.ok(report.findings.some((f) => f.severity === 'ok' && /^POST \/clients: .*; rolled back$/.test(f.message)), 'POST /clients proven')
      t.ok(unchanged, 'every table as it was')
      // And a trigger overwriting it is still found, at its line.
      const clobber: Record<TestDialect, string> = {
        sqlite: 'CREATE TRIGGER clobber AFTER INSERT ON person BEGIN UPDATE person SET pubpid = \'0\' WHERE pid = NEW.pid; END;',
        mysql: 'CREATE TRIGGER clobber BEFORE INSERT ON person FOR EACH ROW SET NEW.pubpid = \'0\';',
        postgres: 'CREATE FUNCTION clobber() RETURNS trigger AS $$ BEGIN NEW.pubpid := \'0\'; RETURN NEW; END $$ LANGUAGE plpgsql;\nCREATE TRIGGER clobber BEFORE INSERT ON person FOR EACH ROW EXECUTE FUNCTION clobber();'
      }
      const clobbered = await check(t, dialect, mapping, clobber[dialect], own)
      t.ok(problems(clobbered.report).some((f) => f.line === lineOf(mapping, 'pubpid: { newKey: true }') && /column `pubpid` should hold/.test(f.message)), clobbered.report.lines.join('\n'))
    })

    t.test('a trigger that rewrites the written name: reported at the name', async (t) => {
      const { report, unchanged } = await check(t, dialect, MAPPING, SHOUT[dialect])
      const found = problems(report)
      t.ok(found.length > 0, 'not passed')
      t.ok(found.every((f) => f.line === lineOf(MAPPING, "name: { template: '{fname} {lname}' }")), report.lines.join('\n'))
      t.ok(found.some((f) => /^POST \/clients: /.test(f.message) && /fname|name/.test(f.message)), 'the path and the column or field are named')
      t.ok(unchanged, 'every table as it was')
    })

    t.test('a state move whose write also sets a mapped ref: reported at that write', async (t) => {
      const planted = MAPPING.replace('CONFIRMED: { st: { value: C } }', 'CONFIRMED: { st: { value: C }, prid: { value: 11 } }')
      const { report, unchanged } = await check(t, dialect, planted)
      const found = problems(report)
      t.equal(found.length, 1, report.lines.join('\n'))
      t.equal(found[0]?.line, lineOf(planted, 'prid: { value: 11 }'))
      t.match(found[0]?.message, /PATCH …\/state CONFIRMED: professional does not read back as sent/)
      t.ok(unchanged, 'every table as it was')
    })

    t.test('a state code longer than its column: reported at that state', async (t) => {
      const planted = MAPPING.replace('CANCELED: { st: { value: X } }', 'CANCELED: { st: { value: XXX } }').replace('X: CANCELED', 'XXX: CANCELED')
      const { report, unchanged } = await check(t, dialect, planted)
      const at = lineOf(planted, 'CANCELED: { st: { value: XXX } }')
      // The catalog pass sees the constant against the column already; the probe, where it runs, at the same line.
      t.ok(problems(report).length > 0 && problems(report).every((f) => f.line === at), report.lines.join('\n'))
      t.ok(unchanged, 'every table as it was')
    })
  })
}
