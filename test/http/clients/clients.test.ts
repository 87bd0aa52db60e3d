// Contract: GET /clients (pages), GET /clients/{id} and GET /clients/search (interface-spec §4,
// design notes §1: exact search on normalised phone, CPF, e-mail and name).
import t from 'tap'
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import {
  forEachSample, ok, ids, isProblem, sameJson, holdsPhone, phoneKey, phonesOf, fold, stripAccents, E164, type Test, type TestApp
} from '../../helpers/contract.js'

const q = encodeURIComponent
const cpfDigits = (c: any): string | undefined => typeof c.cpf === 'string' ? c.cpf.replace(/\D/g, '') : undefined
const mask = (d: string): string => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`

/** Every client, read a page of 500 at a time. */
async function everyClient (t: Test, a: TestApp): Promise<any[]> {
  const out: any[] = []
  for (let offset = 0; ; offset += 500) {
    const page = await ok(t, a, `/clients?limit=500&offset=${offset}`) as any[]
    out.push(...page)
    if (page.length < 500) return out
  }
}

/** Search; the answer must be 200 and an array. */
async function search (t: Test, a: TestApp, term: string, extra = ''): Promise<any[]> {
  const body = await ok(t, a, `/clients/search?term=${q(term)}${extra}`)
  return Array.isArray(body) ? body : []
}

/** Client ids by phone key (a number's equivalent forms share one key). */
function phoneBook (all: any[]): Map<string, string[]> {
  const book = new Map<string, string[]>()
  for (const c of all) {
    for (const k of new Set(phonesOf(c).map(phoneKey))) book.set(k, [...(book.get(k) ?? []), c.id])
  }
  return book
}

/** One phone per kind worth searching: BR mobiles first (the ninth digit), then landlines, then foreign. */
function phonesToTry (all: any[], book: Map<string, string[]>, country: string): string[] {
  const phones = [...new Set(all.flatMap(phonesOf))]
  const mobile = phones.filter((p) => /^\+55\d{2}9[6-9]\d{7}$/.test(p))
  const landline = phones.filter((p) => /^\+55\d{2}[2-5]\d{7}$/.test(p))
  const foreign = phones.filter((p) => parsePhoneNumberFromString(p)?.country !== country)
  // A number several clients share (family members) and ones only one client holds.
  const shared = mobile.filter((p) => (book.get(phoneKey(p)) ?? []).length > 1)
  return [...new Set([...shared.slice(0, 1), ...mobile.slice(0, 5), ...landline.slice(0, 2), ...foreign.slice(0, 2)])]
}

forEachSample(t, async (t, a) => {
  const all = await everyClient(t, a)
  const kinds = a.inst.model.search
  const country = a.inst.model.phone.defaultCountry
  const tables = a.tables
  const book = phoneBook(all)
  t.ok(all.length > 100, `the sample has clients (${all.length})`)

  t.test('pages: default 50, limit/offset slice one stable order', async (t) => {
    t.equal(new Set(ids(all)).size, all.length, 'pages of 500 never repeat a client')
    const first = await ok(t, a, '/clients') as any[]
    t.equal(first.length, Math.min(50, all.length), 'no limit: 50 clients')
    t.same(ids(first), ids(all.slice(0, 50)), 'no limit, no offset = the first 50')
    const p1 = await ok(t, a, '/clients?limit=10&offset=0') as any[]
    const p2 = await ok(t, a, '/clients?limit=10&offset=10') as any[]
    const both = await ok(t, a, '/clients?limit=20') as any[]
    t.equal(p1.length, 10, 'limit=10: 10 clients')
    t.same(ids(p1).filter((id) => ids(p2).includes(id)), [], 'consecutive pages do not overlap')
    t.same([...ids(p1), ...ids(p2)], ids(both), 'two pages of 10 = one page of 20')
    const odd: any[] = []
    for (let offset = 0; offset < 300; offset += 37) odd.push(...await ok(t, a, `/clients?limit=37&offset=${offset}`))
    t.same(ids(odd).slice(0, 296), ids(all).slice(0, 296), 'pages of 37 = pages of 500')
    t.same(await ok(t, a, `/clients?limit=10&offset=${all.length}`), [], 'offset past the end: []')
    const last = await ok(t, a, `/clients?limit=10&offset=${all.length - 3}`) as any[]
    t.same(ids(last), ids(all.slice(-3)), 'the last page is short')
  })

  t.test('page limits are enforced', async (t) => {
    t.equal((await a.get('/clients?limit=500')).status, 200, 'limit=500 is allowed')
    for (const qs of ['limit=501', 'limit=0', 'limit=-1', 'offset=-1', 'limit=abc', 'limit=2.5']) {
      const b = isProblem(t, await a.get(`/clients?${qs}`), 400, `GET /clients?${qs}`, tables)
      t.ok(Array.isArray(b.errors) && b.errors.length > 0, `${qs}: errors listed`)
    }
    isProblem(t, await a.get('/clients/search?term=Maria&limit=501'), 400, 'search limit=501', tables)
  })

  t.test('clients are well-formed', async (t) => {
    const bad: string[] = []
    for (const c of all) {
      if (typeof c.id !== 'string' || c.id === '') bad.push(`${c.id}: id`)
      if (typeof c.name !== 'string' || c.name.trim() === '' || c.name !== c.name.trim()) bad.push(`${c.id}: name ${JSON.stringify(c.name)}`)
      for (const p of phonesOf(c)) if (!E164.test(p)) bad.push(`${c.id}: phone ${p}`)
      if (c.phone !== undefined && c.allPhones !== undefined && !c.allPhones.includes(c.phone)) bad.push(`${c.id}: phone not in allPhones`)
      if (c.allPhones !== undefined && new Set(c.allPhones).size !== c.allPhones.length) bad.push(`${c.id}: allPhones repeats`)
      if (c.cpf !== undefined && !/^(\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/.test(c.cpf)) bad.push(`${c.id}: cpf ${c.cpf}`)
      if (c.email !== undefined && !/^\S+@\S+$/.test(c.email)) bad.push(`${c.id}: email ${JSON.stringify(c.email)}`)
      if (c.birthday !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(c.birthday)) bad.push(`${c.id}: birthday ${c.birthday}`)
    }
    t.same(bad, [], 'ids, names, E.164 phones, CPFs, e-mails and birthdays')
    t.ok(all.filter((c) => c.phone !== undefined).length > all.length / 2, 'most clients have a phone')
  })

  t.test('GET /clients/{id} equals the list item; unknown id → 404', async (t) => {
    for (const c of [...all.slice(0, 60), ...all.slice(-20)]) {
      const r = await a.get(`/clients/${q(c.id)}`)
      t.equal(r.status, 200, `client ${c.id} → 200`)
      t.ok(sameJson(r.body, c), `client ${c.id} equals the list item`) || t.same(r.body, c)
    }
    for (const id of ['999999999', 'no-such-id', '-1']) isProblem(t, await a.get(`/clients/${id}`), 404, `GET /clients/${id}`, tables)
  })

  t.test('search by phone, in every way it is typed', { skip: kinds.includes('phone') ? false : 'phone search is off' }, async (t) => {
    const phones = phonesToTry(all, book, country)
    t.ok(phones.length >= 5, `phones to try: ${phones.join(' ')}`)
    for (const p of phones) {
      const expected = [...(book.get(phoneKey(p)) ?? [])].sort()
      const parsed = parsePhoneNumberFromString(p)
      const terms = [p, parsed?.formatInternational() ?? p]
      if (parsed?.country === country) terms.push(parsed.nationalNumber, parsed.formatNational())
      const m = /^\+55(\d{2})9([6-9]\d{7})$/.exec(p)
      if (m) terms.push(`+55${m[1]}${m[2]}`, `(${m[1]}) ${m[2].slice(0, 4)}-${m[2].slice(4)}`) // before the ninth digit
      for (const term of terms) {
        const got = await search(t, a, term)
        const digits = term.replace(/\D/g, '')
        // 11 digits may also be read as a CPF: such a hit is fine, anything else must hold the phone.
        const phoneHits = got.filter((c) => !(digits.length === 11 && cpfDigits(c) === digits))
        t.same(ids(phoneHits).sort(), expected, `"${term}" finds exactly the ${expected.length} client(s) holding ${p}`)
        t.same(phoneHits.filter((c) => !holdsPhone(c, p)).map((c) => c.id), [], `"${term}": every result holds ${p}`)
      }
    }
  })

  t.test('search by CPF, with and without punctuation', { skip: kinds.includes('cpf') ? false : 'CPF search is off' }, async (t) => {
    const withCpf = all.filter((c) => cpfDigits(c)?.length === 11)
    const shared = withCpf.find((c) => withCpf.filter((o) => cpfDigits(o) === cpfDigits(c)).length > 1)
    const chosen = [...(shared ? [shared] : []), ...withCpf.filter((c) => /\D/.test(c.cpf)).slice(0, 2), ...withCpf.slice(0, 4)]
    t.ok(chosen.length >= 3, 'clients with a CPF')
    for (const c of chosen) {
      const d = cpfDigits(c) as string
      const expected = ids(withCpf.filter((o) => cpfDigits(o) === d)).sort()
      for (const term of [d, mask(d), ` ${mask(d)} `]) {
        const got = await search(t, a, term)
        const cpfHits = got.filter((o) => cpfDigits(o) === d)
        t.same(ids(cpfHits).sort(), expected, `"${term}" finds the ${expected.length} client(s) with that CPF`)
        // The same 11 digits may read as a phone; nobody else may come back.
        t.same(got.filter((o) => cpfDigits(o) !== d && !phonesOf(o).some((p) => p.endsWith(d.slice(-8)))).map((o) => o.id), [], `"${term}": nothing unrelated`)
      }
    }
  })

  t.test('search by e-mail, whatever the case and spaces', { skip: kinds.includes('email') ? false : 'e-mail search is off' }, async (t) => {
    const withEmail = all.filter((c) => typeof c.email === 'string')
    const chosen = [...withEmail.filter((c) => c.email !== c.email.toLowerCase()).slice(0, 2), ...withEmail.slice(0, 4)]
    t.ok(chosen.length >= 3, 'clients with an e-mail')
    for (const c of chosen) {
      const key = c.email.trim().toLowerCase()
      const expected = ids(withEmail.filter((o) => o.email.trim().toLowerCase() === key)).sort()
      for (const term of [c.email, `  ${c.email.toUpperCase()} `, key]) {
        t.same(ids(await search(t, a, term)).sort(), expected, `"${term}" finds [${expected.join(', ')}]`)
      }
    }
  })

  t.test('search by name, whatever the case and accents', { skip: kinds.includes('name') ? false : 'name search is off' }, async (t) => {
    const accented = all.filter((c) => c.name !== stripAccents(c.name))
    const upper = all.filter((c) => c.name === c.name.toUpperCase())
    const chosen = [...accented.slice(0, 3), ...upper.slice(0, 2), ...all.slice(0, 2)]
    for (const c of chosen) {
      const expected = ids(all.filter((o) => fold(o.name) === fold(c.name))).sort()
      for (const term of [c.name, c.name.toUpperCase(), stripAccents(c.name).toLowerCase(), `  ${c.name.split(' ').join('  ')} `]) {
        t.same(ids(await search(t, a, term)).sort(), expected, `"${term}" finds [${expected.join(', ')}]`)
      }
      // Exact, not a prefix: the first name alone finds only those called just that.
      const first = c.name.split(' ')[0]
      const got = await search(t, a, first)
      t.same(got.filter((o) => fold(o.name) !== fold(first)).map((o) => o.id), [], `"${first}" finds no longer names`)
    }
  })

  const shared = [...new Set(all.flatMap(phonesOf))].find((p) => (book.get(phoneKey(p)) ?? []).length >= 2)
  t.test('search pages with limit and offset', { skip: shared === undefined ? 'no phone shared by two clients' : false }, async (t) => {
    if (shared === undefined) return
    const whole = await search(t, a, shared)
    t.ok(whole.length >= 2, `${shared} finds ${whole.length} clients`)
    const pages = [...await search(t, a, shared, '&limit=1&offset=0'), ...await search(t, a, shared, `&limit=${whole.length}&offset=1`)]
    t.same(ids(pages), ids(whole), 'limit=1 + the rest = the whole result')
    t.same(await search(t, a, shared, `&offset=${whole.length}`), [], 'offset past the result: []')
  })

  t.test('a term nobody holds → []', async (t) => {
    const cpfs = new Set(all.map(cpfDigits))
    const cpf = ['52998224725', '11144477735', '39053344705'].find((d) => !cpfs.has(d))
    const phone = ['+5511900000001', '+5511912340000'].find((p) => !book.has(phoneKey(p)))
    const terms = ['Zyxwv Qwertyuiop', 'nobody.here@example.invalid', ...(cpf ? [mask(cpf)] : []), ...(phone ? [phone] : [])]
    for (const term of terms) {
      const r = await a.get(`/clients/search?term=${q(term)}`)
      t.equal(r.status, 200, `"${term}" → 200`)
      t.same(r.body, [], `"${term}" → []`)
    }
  })

  t.test('a term no enabled kind can read → 200 [] (search is exact: nobody holds it)', async (t) => {
    // A phone with a digit missing, too few digits for anything, punctuation alone.
    for (const term of ['+5511998246', '123', '-./', '(11)']) {
      const r = await a.get(`/clients/search?term=${q(term)}`)
      t.equal(r.status, 200, `"${term}" → 200`)
      t.same(r.body, [], `"${term}" → []`)
    }
  })

  t.test('an empty or missing term → 400', async (t) => {
    for (const qs of ['term=', 'term=%20%20%20', '']) {
      const b = isProblem(t, await a.get(`/clients/search?${qs}`), 400, `search ?${qs}`, tables)
      t.ok(Array.isArray(b.errors) && b.errors.some((e: any) => /term/.test(e.path)), `?${qs}: the error names term`)
    }
  })
})
