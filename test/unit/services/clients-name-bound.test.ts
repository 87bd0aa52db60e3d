// One search reads at most MAX_SEARCH_BLOCKS blocks of candidates: a name prefilter that brings
// more than 20,000 rows the exact check then drops is answered 504 (a problem), never cut
// short (which could leave out the client asked for), and never left to run unbounded.
import t from 'tap'
import { scratchInstallation } from '../../helpers/scratch.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'
import { MAX_SEARCH_BLOCKS } from '../../../src/services/clients.js'
import { SEARCH_CANDIDATES } from '../../../src/mapping/compile/index.js'

t.test('a name matching more candidates than the bound', async (t) => {
  const s = await scratchInstallation(t, CLINIC_SQL, CLINIC_MAPPING)
  const insert = s.raw.prepare("INSERT INTO TB_CLIENTE VALUES (?, ?, NULL, NULL, 'S')")
  const bound = MAX_SEARCH_BLOCKS * SEARCH_CANDIDATES
  s.raw.transaction(() => { for (let i = 0; i <= bound; i++) insert.run(1000 + i, `Ana ${i} Souza`) })()
  const res = await s.get('/clients/search?term=Ana%20Souza')
  t.equal(res.status, 504, 'bounded: a problem, not a partial answer')
  t.match(res.body.detail, /more than 20000 stored values/)
  s.raw.prepare('DELETE FROM TB_CLIENTE WHERE COD > ?').run(1000 + bound - 2 * SEARCH_CANDIDATES)
  const ok = await s.get('/clients/search?term=Ana%20Souza')
  t.equal(ok.status, 200, 'under the bound, the whole answer')
  t.same(ok.body.map((c: { id: string }) => c.id), ['1'])
})
