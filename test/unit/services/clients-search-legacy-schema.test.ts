// Issue 13 on a small legacy schema unlike the samples (Porto Alegre's default area code,
// padded CHAR columns, extensions, a person table shared with suppliers), generated here:
// phone and CPF searches find exactly the exact check's clients; `ponte check` recommends the
// index each probed column needs, and with it SQLite's plan seeks (SEARCH … USING INDEX)
// instead of reading the table; a spelling the probes do not look up is a problem at the
// column's line, with its shape and never its value, and the search still finds it by a scan
// after the probes; `search: [{ phone: scan }]` always scans.
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { parseMapping } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { compileMapping } from '../../../src/mapping/compile/index.js'
import { openSqlite } from '../../../src/sql/sqlite/driver.js'
import { Clients } from '../../../src/services/clients.js'
import { checkInstallation } from '../../../src/check/index.js'
import { bindValues } from '../../../src/sql/statement.js'
import { phoneKeys, toE164, toStoredPhone } from '../../../src/normalise/phone.js'
import { formatCpf, normaliseCpf } from '../../../src/normalise/cpf.js'

const SCHEMA = `
CREATE TABLE CAD_PESSOA (ID_PESSOA INTEGER PRIMARY KEY, NM_PESSOA VARCHAR(80) NOT NULL, TP_PESSOA CHAR(1) NOT NULL,
  NR_CPF CHAR(14), TEL_CELULAR VARCHAR(25), TEL_FIXO CHAR(30));
CREATE TABLE AGD_HORARIO (ID_HORARIO INTEGER PRIMARY KEY, DT_HORARIO TEXT NOT NULL, ID_PESSOA INTEGER, ST CHAR(1) NOT NULL);
`

const mapping = (search: string): string => `version: 1
installation: consultorio-pampa
phone: { defaultCountry: BR, defaultAreaCode: '51' }
search: ${search}
resources:
  appointment:
    table: AGD_HORARIO
    key: ID_HORARIO
    start: { datetime: DT_HORARIO }
    state: { column: ST, map: { A: WAITING, C: CONFIRMED } }
    refs: { client: ID_PESSOA }
  client:
    write:
      set: { TP_PESSOA: { value: P } }
    table: CAD_PESSOA
    key: ID_PESSOA
    where: { column: TP_PESSOA, eq: P }
    fields:
      name: NM_PESSOA
      cpf: NR_CPF
    phones:
      - TEL_CELULAR
      - { column: TEL_FIXO, nullIf: [''] }
`

// Deterministic spellings of this clinic's data entry over the years.
function rows (n: number): unknown[][] {
  let seed = 7
  const rnd = (k: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k }
  const digits = (k: number): string => Array.from({ length: k }, () => String(rnd(10))).join('')
  const out: unknown[][] = []
  for (let id = 1; id <= n; id++) {
    const area = rnd(4) === 0 ? '54' : '51'
    const mobile = `9${String(6 + rnd(4))}${digits(7)}`
    const landline = `${String(2 + rnd(3))}${digits(7)}`
    const m = mobile
    const cellForms = [`(${area}) ${m.slice(0, 5)}-${m.slice(5)}`, `${area}${m}`, `+55${area}${m}`, `${m.slice(0, 5)}-${m.slice(5)}`,
      `0${area}${m}`, `(${area}) ${m.slice(1, 5)}-${m.slice(5)}`, `+55 ${area} ${m.slice(0, 5)}-${m.slice(5)}`, '']
    let cell = cellForms[rnd(cellForms.length)]
    if (area !== '51' && /^\d{4,5}-/.test(cell)) cell = `${area} ${m.slice(0, 5)} ${m.slice(5)}`
    const l = landline
    const fixForms = [`(${area}) ${l.slice(0, 4)}-${l.slice(4)} ramal ${rnd(900) + 10}`, `${l.slice(0, 4)}-${l.slice(4)} R.${rnd(9) + 1}`,
      `${area} ${l.slice(0, 4)} ${l.slice(4)}`, `(${area})${l.slice(0, 4)}-${l.slice(4)}`, '', '']
    let fix = fixForms[rnd(fixForms.length)]
    if (area !== '51' && fix.startsWith(l.slice(0, 4))) fix = ''
    const cpfDigits = digits(11)
    const cpf = [formatCpf(cpfDigits, 'masked'), cpfDigits.padEnd(14), ' '.repeat(14), null][rnd(4)]
    // Every tenth person is a supplier (not a client); CHAR(30) holds its padding, as exported.
    out.push([id, `Pessoa ${id}`, id % 10 === 0 ? 'F' : 'P', cpf, cell, fix === '' ? fix : fix.padEnd(30)])
  }
  // Two people share a mobile, spelt differently; one holds the old 8-digit form.
  out.push([n + 1, 'Dupla A', 'P', null, '(51) 99123-4567', null], [n + 2, 'Dupla B', 'P', null, '5199123-4567'.replace('-', ''), '(51) 9123-4567'.padEnd(30)])
  return out
}

async function setUp (t: Test, search: string, extra: unknown[][] = [], schema = SCHEMA) {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-probes-'))
  const file = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(file)
  raw.exec(schema)
  const insert = raw.prepare('INSERT INTO CAD_PESSOA VALUES (?, ?, ?, ?, ?, ?)')
  for (const r of [...rows(600), ...extra]) insert.run(...r)
  const db = openSqlite(file)
  const model = buildModel(parseMapping(mapping(search), join(dir, 'mapping.yaml')))
  const compiled = compileMapping(model, db.dialect)
  t.teardown(async () => { await db.close(); raw.close(); rmSync(dir, { recursive: true, force: true }) })
  return { raw, db, model, compiled, clients: new Clients(compiled, db), inst: { model, db, compiled, close: async () => {} } }
}

type Setup = Awaited<ReturnType<typeof setUp>>

/** Every term the stored data holds, against the exact answer over all rows. */
async function searchEverything (t: Test, s: Setup): Promise<number> {
  const all = s.raw.prepare("SELECT * FROM CAD_PESSOA WHERE TP_PESSOA = 'P'").all() as Record<string, unknown>[]
  const opts = s.model.phone
  const holders = new Map<string, Set<string>>()
  const cpfs = new Map<string, Set<string>>()
  for (const r of all) {
    for (const v of [r.TEL_CELULAR, r.TEL_FIXO]) {
      const e = toE164(v, opts)
      if (e) for (const k of phoneKeys(e)) holders.set(k, (holders.get(k) ?? new Set()).add(String(r.ID_PESSOA)))
    }
    const c = normaliseCpf(r.NR_CPF)
    if (c) cpfs.set(c, (cpfs.get(c) ?? new Set()).add(String(r.ID_PESSOA)))
  }
  let differ = 0
  const check = async (term: string, want: Set<string>): Promise<void> => {
    const got = (await s.clients.search(term, { limit: 500, offset: 0 }, undefined)).map((c) => c.id).sort().join(',')
    if (got !== [...want].sort().join(',')) { differ++; if (differ <= 3) t.fail(`search ${term}`, { got, want: [...want] }) }
  }
  for (const [key, ids] of holders) {
    const e164 = toE164(key, opts) as string
    if (e164 !== key) continue
    const want = new Set([...phoneKeys(e164)].flatMap((k) => [...holders.get(k) ?? []]))
    // An 11-digit term is a CPF too: none of these is one.
    await check(e164, want)
    await check(toStoredPhone(e164, 'masked', opts.defaultCountry), want)
    void ids
  }
  for (const [cpf, ids] of cpfs) {
    await check(formatCpf(cpf, 'masked'), new Set([...ids, ...[...holders.get(toE164(cpf, opts) ?? '') ?? []]]))
  }
  return differ
}

function plan (s: Setup, kinds: ('phone' | 'cpf')[], term: Record<string, unknown>): string {
  const statement = s.compiled.clients.search(kinds)
  const bound = s.compiled.clients.bindSearch(kinds.map((kind) => ({ kind, value: String(term[kind]) })), 0)
  const values = bindValues(statement, bound.args)
  const named = Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]))
  return (s.raw.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(named) as { detail: string }[]).map((r) => r.detail).join('\n')
}

t.test('probes: exact answers, index advice, and a plan that seeks once the advice is followed', async (t) => {
  const s = await setUp(t, '[phone, cpf, name]')
  t.equal(await searchEverything(t, s), 0, 'every stored phone (E.164 and masked) and CPF finds exactly its holders')

  const before = plan(s, ['phone'], { phone: '+5551991234567' })
  t.match(before, /SCAN/, 'without indexes the table is read')

  const report = await checkInstallation(s.inst as never, { budgetMs: 20_000 })
  const creates = report.findings.filter((f) => f.severity === 'warning' && /by (phone|CPF)/.test(f.message))
  t.same(creates.map((f) => f.subject).sort(), ['client fields.cpf', 'client phones[0]', 'client phones[1]'], 'an index for each probed column')
  const lines = mapping('').split('\n')
  for (const f of creates) t.equal(lines[(f.line ?? 0) - 1]?.includes(f.subject.endsWith('cpf') ? 'NR_CPF' : f.subject.endsWith('[0]') ? 'TEL_CELULAR' : 'TEL_FIXO'), true, `${f.subject} at its line`)
  t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], 'no problem: every stored spelling is probed')
  t.ok(report.findings.some((f) => f.severity === 'ok' && /all [\d,]+ stored phones are found/.test(f.message)))

  for (const f of creates) {
    const sql = /create one: (CREATE INDEX .*)$/.exec(f.message)?.[1]
    t.ok(sql, sql ?? 'no statement')
    s.raw.exec(sql as string)
  }
  const after = plan(s, ['phone'], { phone: '+5551991234567' })
  t.match(after, /SEARCH t USING INDEX IX_CAD_PESSOA_TEL_CELULAR/, 'the mobile column is sought')
  t.match(after, /SEARCH t USING INDEX IX_CAD_PESSOA_TEL_FIXO/, 'the landline column is sought')
  t.notMatch(after, /SCAN t/, 'the table is not read')
  const both = plan(s, ['cpf', 'phone'], { phone: '+5551991234567', cpf: '51991234567' })
  t.match(both, /USING INDEX IX_CAD_PESSOA_NR_CPF/)
  t.notMatch(both, /SCAN t/, 'an 11-digit term (CPF or phone) seeks too')
  t.equal(await searchEverything(t, s), 0, 'the same answers through the indexes')
  const again = await checkInstallation(s.inst as never, { budgetMs: 20_000 })
  t.notOk(again.findings.some((f) => /by (phone|CPF)/.test(f.message)), 'the advice followed, no warning left')
})

t.test('a spelling nobody foresaw: check warns how many and their shape; search still finds them by a scan', async (t) => {
  const planted = [[9001, 'Grafia A', 'P', '123 456 789 09', '(51) 98877 6655', null], [9002, 'Grafia B', 'P', null, '51.3222.1100', null],
    [9003, 'Grafia C', 'P', null, '(51) 98877 6656', null]]
  const s = await setUp(t, '[phone, cpf]', planted)
  const report = await checkInstallation(s.inst as never, { budgetMs: 20_000 })
  const phone = report.findings.find((f) => f.severity === 'warning' && f.subject === 'client phones[0]' && /spelt/.test(f.message))
  t.ok(phone, 'a warning at the mobile column')
  t.match(phone?.message, /^3 of [\d,]+ stored phones are spelt in a way a phone search's probes do not look up/)
  t.match(phone?.message, /`\(99\) 99999 9999` ×2, `99\.9999\.9999` ×1/)
  t.match(phone?.message, /search: \[\{ phone: scan \}/)
  t.equal(phone?.line, mapping('').split('\n').findIndex((l) => l.includes('- TEL_CELULAR')) + 1)
  const cpf = report.findings.find((f) => f.severity === 'warning' && f.subject === 'client fields.cpf' && /spelt/.test(f.message))
  t.match(cpf?.message, /^1 of [\d,]+ stored CPFs .*`999 999 999 99` ×1/)
  const text = report.lines.join('\n')
  for (const value of ['98877', '3222', '123 456', '12345678909']) t.notOk(text.includes(value), 'no stored value in the report')
  t.same((await s.clients.search('+5551988776655', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9001'], 'the probes miss it, the scan after them finds it')
  t.same((await s.clients.search('51 3222-1100', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9002'])
  t.same((await s.clients.search('123.456.789-09', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9001'])
  const before = s.inst.db.stats.statements
  t.same(await s.clients.search('+5551900001111', { limit: 10, offset: 0 }, undefined), [], 'a number nobody holds: nobody')
  t.equal(s.inst.db.stats.statements - before, 2, 'after a probe and a scan')

  const scan = await setUp(t, '[{ phone: scan }, { cpf: scan }]', planted)
  t.same((await scan.clients.search('+5551988776655', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9001'], 'the scan finds it')
  t.same((await scan.clients.search('51 3222-1100', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9002'])
  t.same((await scan.clients.search('123.456.789-09', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9001'])
  const scanned = await checkInstallation(scan.inst as never, { budgetMs: 20_000 })
  t.notOk(scanned.findings.some((f) => /do not look up|by (phone|CPF)/.test(f.message)), 'nothing to say about probes or their indexes')
  t.equal(await searchEverything(t, scan), 0, 'the scan gives the exact answers too')
})

t.test('a phone column of numbers: check refuses probing it as text until its type is declared', async (t) => {
  const numeric = SCHEMA.replace('TEL_CELULAR VARCHAR(25)', 'TEL_CELULAR BIGINT')
  const s = await setUp(t, '[phone, cpf]', [], numeric)
  const report = await checkInstallation(s.inst as never, { budgetMs: 20_000 })
  t.equal(report.ok, false, 'check does not pass (the server would refuse it too)')
  const phone = report.findings.find((f) => f.severity === 'problem' && f.subject === 'client phones[0]')
  t.match(phone?.message, /holds numbers \(BIGINT\), but a phone search looks it up as text: declare its type/)
  const typed = await setUp(t, '[phone, cpf]', [[9100, 'Numero', 'P', null, 5551991112222, null]],
    numeric)
  const typedModel = buildModel(parseMapping(mapping('[phone, cpf]').replace('      - TEL_CELULAR\n', '      - { column: TEL_CELULAR, type: bigint }\n'), 'typed.yaml'))
  const compiled = compileMapping(typedModel, typed.db.dialect)
  const again = await checkInstallation({ ...typed.inst, model: typedModel, compiled } as never, { budgetMs: 20_000 })
  t.notOk(again.findings.some((f) => f.severity === 'problem' && f.subject === 'client phones[0]'), 'typed: no problem')
  t.same((await new Clients(compiled, typed.db).search('+5551991112222', { limit: 10, offset: 0 }, undefined)).map((c) => c.id), ['9100'], 'and the search finds the number stored as a number')
})

t.test('PostgreSQL: a prefix index on VARCHAR is text_pattern_ops, on CHAR bpchar_pattern_ops', async (t) => {
  const { postgres } = await import('../../../src/sql/postgres/dialect.js')
  t.equal(postgres.prefixIndexClass('character varying'), 'text_pattern_ops')
  t.equal(postgres.prefixIndexClass('character varying(25)'), 'text_pattern_ops')
  t.equal(postgres.prefixIndexClass('text'), 'text_pattern_ops')
  t.equal(postgres.prefixIndexClass('character'), 'bpchar_pattern_ops')
  t.equal(postgres.prefixIndexClass('character(14)'), 'bpchar_pattern_ops')
  t.equal(postgres.prefixIndexClass('bpchar'), 'bpchar_pattern_ops')
})

t.test('SQLite: an indexed column is probed by one join of the ranges to its index, padded CHAR values and an unindexed column alike found', async (t) => {
  // The landline (CHAR(30), every value padded) and the CPF are indexed from the start; the
  // mobile only by a partial index, which serves no probe (it is not taken to lead the column).
  const schema = `${SCHEMA}CREATE INDEX IX_FIXO ON CAD_PESSOA (TEL_FIXO); CREATE INDEX IX_CPF ON CAD_PESSOA (NR_CPF);
    CREATE INDEX IX_CEL_PARCIAL ON CAD_PESSOA (TEL_CELULAR) WHERE TEL_CELULAR LIKE '(%';`
  const s = await setUp(t, '[phone, cpf, name]', [], schema)
  const sent: string[] = []
  const recording = Object.create(s.db, { query: { value: async (st: { sql: string }, args: never) => { sent.push(st.sql); return await s.db.query(st as never, args) } } })
  s.clients = new Clients(s.compiled, recording)
  t.equal(await searchEverything(t, s), 0, 'every stored phone and CPF finds exactly its holders')
  const searches = sent.filter((sql) => sql.includes('ORDER BY +'))
  t.ok(searches.some((sql) => sql.includes('FROM (VALUES')) && searches.every((sql) => /"TEL_FIXO" IN \(SELECT "q"\."TEL_FIXO" FROM \(VALUES/.test(sql) || !sql.includes('TEL_FIXO" >=')), 'the indexed landline is probed through its index')
  t.ok(searches.some((sql) => /"t"\."TEL_CELULAR" >= \+@p\d+ AND "t"\."TEL_CELULAR" < \+@p\d+/.test(sql)), 'the unindexed mobile by ranges')
  t.notOk(searches.some((sql) => /"TEL_CELULAR" IN \(SELECT/.test(sql)), 'never by a join that would read the table once per range')

  const plan = (s.raw.prepare(`EXPLAIN QUERY PLAN ${s.compiled.clients.search(['phone'], false, new Set(['tel_fixo', 'tel_celular'])).sql}`).all(
    Object.fromEntries(bindValues(s.compiled.clients.search(['phone'], false, new Set(['tel_fixo', 'tel_celular'])),
      s.compiled.clients.bindSearch([{ kind: 'phone', value: '+5551991234567' }], 0).args).map((v, i) => [`p${i + 1}`, v]))) as { detail: string }[]).map((r) => r.detail).join('\n')
  t.match(plan, /SEARCH q USING COVERING INDEX IX_FIXO/, 'the ranges seek the index')

  const report = await checkInstallation(s.inst as never, { budgetMs: 20_000 })
  t.ok(report.findings.some((f) => f.severity === 'ok' && /all [\d,]+ stored phones are found/.test(f.message)), 'check: every stored phone found, as the server finds them')
  t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [])
})
