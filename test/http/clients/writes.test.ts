// Contract: POST /clients and PATCH /clients/{id} (interface-spec §4, issue 3): the client
// reads back equal and is found by search; the legacy row is what the clinic's own system
// would have written (NOT NULL columns, stored formats, `write.set`, the installation's key
// generation); bad input is a 400 problem and writes nothing.
import t from 'tap'
import {
  forEachSample, send, problem, legacy, keyState, allNotNullFilled, holdsWriteValues, clinicToday, storedPhone, storedCpf,
  validCpf, badCpf, mobile, type Test, type TestApp
} from '../../helpers/writes.js'

const q = encodeURIComponent
const digits = (s: unknown): string => String(s ?? '').replace(/\D/g, '')

/** The legacy columns the mapping reads a client field from (the one a write goes to first). */
function columnsOf (a: TestApp): { name: string[], nameJoin: 'coalesce' | 'template' | 'column', phone: string, cpf?: string, email?: string, birthday?: string } {
  const c = a.inst.model.client
  const f = c.fields as Record<string, any>
  const name = f.name
  const nameCols: string[] = name.column !== undefined
    ? [name.column]
    : name.coalesce !== undefined ? [name.coalesce.at(-1)] : [...String(name.template).matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
  return {
    name: nameCols,
    nameJoin: name.column !== undefined ? 'column' : name.coalesce !== undefined ? 'coalesce' : 'template',
    phone: (c.phones[0] as any).column,
    cpf: f.cpf?.column,
    email: f.email?.column,
    birthday: f.birthday?.column
  }
}

/** National forms of a Brazilian E.164 mobile: masked, bare digits, and without the ninth digit. */
function nationalForms (e164: string): string[] {
  const m = /^\+55(\d{2})(9)(\d{4})(\d{4})$/.exec(e164)
  if (!m) return []
  return [`(${m[1]}) ${m[2]}${m[3]}-${m[4]}`, `${m[1]}${m[2]}${m[3]}${m[4]}`, `+55${m[1]}${m[3]}${m[4]}`, `0${m[1]} ${m[2]}${m[3]} ${m[4]}`]
}

async function search (t: Test, a: TestApp, term: string): Promise<any[]> {
  const r = await send(a, 'GET', `/clients/search?term=${q(term)}`)
  t.equal(r.status, 200, `search ${JSON.stringify(term)} → 200`)
  return Array.isArray(r.body) ? r.body : []
}

forEachSample(t, async (t, a) => {
  const model = a.inst.model
  const client = model.client
  const table = client.table
  const key = client.key.column
  const write = (client.write ?? {}) as { phoneFormat?: string, cpfFormat?: string, set?: Record<string, any> }
  const area = model.phone.defaultAreaCode ?? '11'
  const db = legacy(a)
  const cols = columnsOf(a)
  const days = [clinicToday(model.timezone)]
  let n = 0
  /** A phone and a CPF nobody in the fixture holds. */
  const fresh = async (t: Test): Promise<{ phone: string, cpf: string }> => {
    for (;;) {
      n++
      const phone = mobile(area, 4_310_000 + n * 7919)
      const cpf = validCpf(700_000_000 + n * 104_729)
      if ((await search(t, a, phone)).length === 0 && (await search(t, a, cpf)).length === 0) return { phone, cpf }
    }
  }
  /** The table and the key generation must be as they were. */
  const unchanged = async (t: Test, before: { count: number, key: number }, what: string): Promise<void> => {
    t.equal(await db.count(table), before.count, `${what}: no row added`)
    t.equal((await keyState(a, 'client')).value, before.key, `${what}: key generation untouched`)
  }
  const snapshot = async (): Promise<{ count: number, key: number }> => ({ count: await db.count(table), key: (await keyState(a, 'client')).value })

  t.test('POST /clients: read back equal, found by search, legacy row as the legacy system writes it', async (t) => {
    const { phone, cpf } = await fresh(t)
    const email = `Joana.Teste${n}@Example.com`
    const body = { name: 'Joana Teste da Silva', phone, email, birthday: '1985-04-12', cpf }
    const before = await snapshot()
    const r = await send(a, 'POST', '/clients', body)
    t.equal(r.status, 200, 'POST /clients → 200')
    const created = r.body
    t.match(created, { id: String, name: body.name, phone, email, birthday: body.birthday }, 'the answer holds what was sent')
    t.equal(digits(created.cpf), cpf, 'the CPF reads back (with or without punctuation)')
    t.ok((created.allPhones ?? [phone]).includes(phone), 'allPhones holds the phone')

    const back = await send(a, 'GET', `/clients/${q(created.id)}`)
    t.equal(back.status, 200, 'GET /clients/{id} → 200')
    t.same(back.body, created, 'GET /clients/{id} equals the POST answer')

    for (const term of [phone, ...nationalForms(phone), cpf, storedCpf(cpf, 'masked'), email, email.toUpperCase(), ` ${email.toLowerCase()} `]) {
      const found = await search(t, a, term)
      const hit = found.find((x) => x.id === created.id)
      t.ok(hit, `search ${JSON.stringify(term)} finds the new client`)
      if (hit) t.same(hit, created, `search ${JSON.stringify(term)}: the same client`)
    }
    const byName = await search(t, a, body.name.toUpperCase())
    t.ok(byName.some((x) => x.id === created.id), 'search by name (other case) finds it')

    const row = await db.row(table, key, created.id)
    t.ok(row, 'the row is in the legacy table')
    if (!row) return
    await allNotNullFilled(t, a, table, row, 'the new client')
    t.equal(row[cols.phone], storedPhone(phone, write.phoneFormat), `${cols.phone} in the stored format (${write.phoneFormat ?? 'digits'})`)
    if (cols.cpf) t.equal(String(row[cols.cpf]).trim(), storedCpf(cpf, write.cpfFormat), `${cols.cpf} in the stored format (${write.cpfFormat ?? 'digits'})`)
    if (cols.email) t.equal(row[cols.email], email, `${cols.email} as given`)
    if (cols.birthday) t.equal(String(row[cols.birthday]).slice(0, 10), body.birthday, `${cols.birthday} holds the birthday`)
    const names = cols.name.map((c) => String(row[c] ?? ''))
    t.equal(cols.nameJoin === 'template' ? names.join(' ').trim() : names[0], body.name, `the name is in ${cols.name.join(' + ')}`)
    holdsWriteValues(t, model, row, write.set, days, 'write.set')

    const after = await keyState(a, 'client')
    t.equal(await db.count(table), before.count + 1, 'exactly one row added')
    if (after.gen.generate === 'keyTable') {
      t.equal(after.value, before.key + 1, `the key table row ${after.gen.name} went up by exactly 1`)
      t.equal(created.id, String(after.value), 'the new id is the key table value')
    } else {
      t.equal(Number(created.id), before.key + 1, `the new id follows the highest (${after.gen.generate})`)
    }
  })

  t.test('POST /clients with only name and phone (the phone as name, as the caller does without one)', async (t) => {
    const { phone } = await fresh(t)
    const r = await send(a, 'POST', '/clients', { name: phone, phone })
    t.equal(r.status, 200, 'POST → 200')
    t.equal(r.body?.name, phone, 'the name is the phone')
    t.equal(r.body?.phone, phone, 'the phone reads back')
    t.notOk(r.body?.cpf, 'no CPF')
    t.notOk(r.body?.email, 'no e-mail')
    t.notOk(r.body?.birthday, 'no birthday')
    const row = await db.row(table, key, r.body?.id)
    t.ok(row, 'the row is there')
    if (row) {
      await allNotNullFilled(t, a, table, row, 'the minimal client')
      holdsWriteValues(t, model, row, write.set, days, 'write.set')
    }
    const national = nationalForms(phone)[0]
    t.ok((await search(t, a, national)).some((x) => x.id === r.body?.id), `search ${national} finds it`)
  })

  t.test('POST /clients: bad input → 400 naming the field, nothing written', async (t) => {
    const { phone, cpf } = await fresh(t)
    const ok = { name: 'Paciente Teste', phone }
    const cases: [string, unknown, string | undefined][] = [
      ['missing name', { phone }, 'name'],
      ['missing phone', { name: 'Paciente Teste' }, 'phone'],
      ['blank name', { ...ok, name: '   ' }, 'name'],
      ['unreadable phone', { ...ok, phone: 'call me maybe' }, 'phone'],
      ['a phone too short to be one', { ...ok, phone: '123' }, 'phone'],
      ['CPF with wrong check digits', { ...ok, cpf: badCpf(700_000_001) }, 'cpf'],
      ['CPF of one repeated digit', { ...ok, cpf: '11111111111' }, 'cpf'],
      ['CPF of 10 digits', { ...ok, cpf: cpf.slice(1) }, 'cpf'],
      ['impossible birthday 2026-02-30', { ...ok, birthday: '2026-02-30' }, 'birthday'],
      ['birthday in the future', { ...ok, birthday: '2031-05-01' }, 'birthday'],
      ['birthday not a date', { ...ok, birthday: '12/04/1985' }, 'birthday'],
      ['e-mail without @', { ...ok, email: 'joana.example.com' }, 'email'],
      ['unknown extra property', { ...ok, nickname: 'Jo' }, undefined],
      ['a body that is an array', [ok], undefined],
      ['a body that is not JSON', '{"name": "Paciente Teste", "phone": ', undefined]
    ]
    for (const [what, body, field] of cases) {
      const before = await snapshot()
      const r = await send(a, 'POST', '/clients', body)
      const b = problem(t, a, r, 400, `POST /clients, ${what}`, what !== 'a body that is not JSON')
      if (field) t.ok((b.errors ?? []).some((e: any) => String(e.path).includes(field)), `${what}: an error's path names ${field}`)
      await unchanged(t, before, what)
    }
  })

  t.test('wrong JSON types → 400, nothing written (POST and PATCH)', async (t) => {
    const { phone } = await fresh(t)
    const cases: [string, unknown, string][] = [
      ['name is a number', { name: 123, phone }, 'name'],
      ['phone is a number', { name: 'Paciente Teste', phone: Number(phone.slice(1)) }, 'phone'],
      ['name is an object', { name: { first: 'Paciente' }, phone }, 'name'],
      ['phone is a list', { name: 'Paciente Teste', phone: [phone] }, 'phone'],
      ['birthday is a number', { name: 'Paciente Teste', phone, birthday: 19850412 }, 'birthday'],
      ['email is a boolean', { name: 'Paciente Teste', phone, email: true }, 'email']
    ]
    for (const [what, body, field] of cases) {
      const before = await snapshot()
      const r = await send(a, 'POST', '/clients', body)
      const b = problem(t, a, r, 400, `POST /clients, ${what}`)
      t.ok((b.errors ?? []).some((e: any) => String(e.path).includes(field)), `${what}: an error's path names ${field}`)
      await unchanged(t, before, what)
    }
    const created = (await send(a, 'POST', '/clients', { name: 'Tipos Errados', phone: (await fresh(t)).phone })).body
    const whole = await db.dump(table)
    for (const [what, body] of [['name is a number', { name: 42 }], ['cpf is a number', { cpf: Number(validCpf(700_000_077)) }], ['email is a list', { email: ['a@b.co'] }]] as const) {
      problem(t, a, await send(a, 'PATCH', `/clients/${q(created.id)}`, body), 400, `PATCH /clients/{id}, ${what}`)
    }
    t.equal(await db.dump(table), whole, 'PATCH with wrong types: the table is byte-identical')
  })

  t.test('PATCH /clients/{id}: only the keys sent change', async (t) => {
    const { phone, cpf } = await fresh(t)
    const created = (await send(a, 'POST', '/clients', { name: 'Carlos Alberto Teste', phone, email: `carlos${n}@example.com`, birthday: '1970-01-31' })).body
    t.ok(created?.id, 'a client to change')
    const id = created.id
    const others = async (): Promise<string> => JSON.stringify((await db.rows(table)).filter((r) => String(r[key]).trim() !== id))
    const rest = await others()
    const newCpf = validCpf(700_000_000 + (++n) * 104_729)
    const patches: [Record<string, string>, string[], (c: any) => void][] = [
      [{ email: `carlos.novo${n}@example.com` }, [cols.email ?? ''], (c) => t.equal(c.email, `carlos.novo${n}@example.com`, 'the e-mail changed')],
      [{ cpf: newCpf }, [cols.cpf ?? ''], (c) => t.equal(digits(c.cpf), newCpf, 'the CPF changed')],
      [{ birthday: '1971-02-28' }, [cols.birthday ?? ''], (c) => t.equal(c.birthday, '1971-02-28', 'the birthday changed')],
      [{ name: 'Carlos Alberto Novo Nome' }, cols.name, (c) => t.equal(c.name, 'Carlos Alberto Novo Nome', 'the name changed')],
      [{ email: `c${n}@example.org`, birthday: '1969-12-01' }, [cols.email ?? '', cols.birthday ?? ''], (c) => t.match(c, { email: `c${n}@example.org`, birthday: '1969-12-01' }, 'both changed')]
    ]
    let previous = (await send(a, 'GET', `/clients/${q(id)}`)).body
    for (const [patch, columns, check] of patches) {
      const what = `PATCH ${JSON.stringify(patch)}`
      const rowBefore = await db.row(table, key, id) as Record<string, unknown>
      const r = await send(a, 'PATCH', `/clients/${q(id)}`, patch)
      t.equal(r.status, 200, `${what} → 200`)
      check(r.body)
      const unsent = Object.keys(previous).filter((k) => !(k in patch) && !(k === 'cpf' && 'cpf' in patch))
      t.same(Object.fromEntries(unsent.map((k) => [k, r.body?.[k]])), Object.fromEntries(unsent.map((k) => [k, previous[k]])), `${what}: the other fields are as before`)
      t.same((await send(a, 'GET', `/clients/${q(id)}`)).body, r.body, `${what}: GET equals the answer`)
      const rowAfter = await db.row(table, key, id) as Record<string, unknown>
      const changed = Object.keys(rowAfter).filter((c) => JSON.stringify(rowAfter[c]) !== JSON.stringify(rowBefore[c]))
      t.same(changed.filter((c) => !columns.includes(c)), [], `${what}: no other column changed`)
      if ('cpf' in patch && cols.cpf) t.equal(String(rowAfter[cols.cpf]).trim(), storedCpf(newCpf, write.cpfFormat), `${what}: stored format`)
      previous = r.body
    }
    t.equal(await others(), rest, 'no other row changed')
    const sameCpf = await search(t, a, newCpf)
    t.ok(sameCpf.some((x) => x.id === id), 'search finds the client by its new CPF')
    t.notOk((await search(t, a, cpf)).some((x) => x.id === id), 'a CPF it never had finds nothing')
  })

  t.test('PATCH /clients/{id}: unknown id → 404, empty or bad body → 400, nothing changes', async (t) => {
    const { phone } = await fresh(t)
    const created = (await send(a, 'POST', '/clients', { name: 'Renata Teste', phone, email: `renata${n}@example.com` })).body
    const id = created.id
    const whole = await db.dump(table)
    for (const unknown of ['987654321', 'no-such-client']) {
      problem(t, a, await send(a, 'PATCH', `/clients/${q(unknown)}`, { name: 'Quem' }), 404, `PATCH /clients/${unknown}`)
    }
    const bad: [string, unknown][] = [
      ['an empty body', {}],
      ['an invalid CPF', { cpf: badCpf(700_000_003) }],
      ['birthday 2026-02-30', { birthday: '2026-02-30' }],
      ['a future birthday', { birthday: '2031-01-01' }],
      ['a blank name', { name: '  ' }],
      ['the phone (not patchable)', { phone: mobile(area, 1) }],
      ['an unknown property', { nickname: 'Re' }],
      ['a bad e-mail with a good name', { name: 'Renata Nova', email: 'nope' }]
    ]
    for (const [what, body] of bad) problem(t, a, await send(a, 'PATCH', `/clients/${q(id)}`, body), 400, `PATCH with ${what}`)
    t.equal(await db.dump(table), whole, 'the table is byte-identical')
    t.same((await send(a, 'GET', `/clients/${q(id)}`)).body, created, 'the client reads as created')
  })
})
