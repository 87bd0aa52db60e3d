// Client requests: pages at every edge, records by id, and the exact search with phones, CPFs,
// e-mails and names taken from the data and spelt the ways callers type them.
import type { Differ } from './differ.js'
import type { Rng } from './seeded.js'
import { cpfSpellings, emailSpellings, idSpellings, nameSpellings, phoneSpellings } from './spellings.js'

const q = encodeURIComponent

export interface ClientData { id: string, name: string, phone?: string, allPhones?: string[], cpf?: string, email?: string }

/** Pages at their edges; returns every client (read in pages of 500). */
export async function clientPages (d: Differ, rng: Rng): Promise<ClientData[]> {
  d.begin('client pages')
  const all: ClientData[] = []
  for (let offset = 0; ; offset += 500) {
    const r = await d.get(`/clients?limit=500&offset=${offset}`)
    if (!Array.isArray(r.body) || r.body.length === 0) break
    all.push(...r.body)
    if (r.body.length < 500) break
  }
  const n = all.length
  await d.get('/clients')
  const offsets = [...new Set([0, 1, 49, 50, 51, 499, n - 1, n, n + 1, n + 500, 1_000_000, ...rng.sample([...Array(n).keys()], 4)])]
  for (const limit of [1, 7, 50]) for (const offset of offsets) await d.get(`/clients?limit=${limit}&offset=${offset}`)
  for (const offset of [n - 1, n, n + 1]) await d.get(`/clients?limit=500&offset=${offset}`)
  // Refused the same way everywhere: outside the declared bounds.
  for (const bad of ['limit=0', 'limit=501', 'offset=-1', 'limit=abc', 'offset=1000001']) await d.get(`/clients?${bad}`, 'out of bounds')
  return all
}

export async function clientDetails (d: Differ, rng: Rng, clients: ClientData[], count: number): Promise<void> {
  d.begin('client details')
  for (const c of rng.sample(clients, count)) await d.get(`/clients/${q(c.id)}`)
  for (const c of clients.slice(0, 2)) for (const v of idSpellings(c.id)) await d.get(`/clients/${q(v)}`, 'id spelling')
}

export async function clientSearches (d: Differ, rng: Rng, clients: ClientData[], count: number): Promise<void> {
  d.begin('client search')
  const search = async (term: string, what: string, page = ''): Promise<void> => { await d.get(`/clients/search?term=${q(term)}${page}`, what) }
  for (const c of rng.sample(clients, count)) {
    for (const p of [...new Set([c.phone, ...(c.allPhones ?? [])])].filter((x): x is string => x !== undefined)) {
      for (const v of phoneSpellings(p)) await search(v, 'phone')
    }
    if (c.cpf !== undefined) for (const v of cpfSpellings(c.cpf)) await search(v, 'cpf')
    if (c.email !== undefined) for (const v of emailSpellings(c.email)) await search(v, 'email')
    for (const v of nameSpellings(c.name)) await search(v, 'name')
  }
  // Names several clients share, paged: the same clients in the same order everywhere.
  const byName = new Map<string, number>()
  for (const c of clients) byName.set(c.name.toLowerCase(), (byName.get(c.name.toLowerCase()) ?? 0) + 1)
  const shared = [...byName.entries()].filter(([, n]) => n > 1).map(([name]) => name)
  for (const name of rng.sample(shared, 3)) for (const page of ['&limit=1', '&limit=1&offset=1', '&limit=50&offset=0']) await search(name, 'shared name', page)
  // LIKE wildcards and quotes are text in a name, not patterns.
  for (const term of ['%', '_', 'a%b', "O'Connor", 'Maria_', '\\', 'josé da silva', 'JOSE DA SILVA', 'Ä', 'x'.repeat(200)]) await search(term, 'odd term')
}
