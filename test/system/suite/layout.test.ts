// The test tree's layout (docs/testing.md), kept so a behaviour's test is found without grep:
// every test file sits in one of the layout's folders, and a test/unit/ file names the src/
// module it tests (`test/unit/a/b.test.ts` or `test/unit/a/b-<aspect>.test.ts` for
// `src/a/b.ts` or the folder `src/a/b/`).
import t from 'tap'
import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const HTTP = ['appointments', 'bookings', 'clients', 'availability', 'lookups', 'events', 'ops', 'edge']
const SYSTEM = ['hostile', 'faults', 'differential', 'bench', 'property', 'process', 'suite']

function testFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return testFiles(path)
    return e.name.endsWith('.test.ts') ? [relative(root, path).split('\\').join('/')] : []
  })
}

/** Where a test file may sit, or why not. */
export function misplaced (path: string, srcExists: (p: string) => boolean): string | undefined {
  const parts = path.split('/')
  if (parts[0] !== 'test') return 'outside test/'
  const [, top, ...rest] = parts
  switch (top) {
    case 'unit': {
      const dir = rest.slice(0, -1).join('/')
      let name = (rest.at(-1) as string).slice(0, -'.test.ts'.length)
      for (;;) {
        const module = dir === '' ? name : `${dir}/${name}`
        if (srcExists(`src/${module}.ts`) || srcExists(`src/${module}`)) return undefined
        const cut = name.lastIndexOf('-')
        if (cut <= 0) return `no src/${dir === '' ? '' : dir + '/'}${name}.ts (or a folder) for it to test`
        name = name.slice(0, cut)
      }
    }
    case 'http': return rest.length === 2 && HTTP.includes(rest[0]) ? undefined : `not in test/http/{${HTTP.join(',')}}/`
    case 'language': return rest.length === 1 ? undefined : 'test/language/ holds files, no folders'
    case 'system': return rest.length >= 2 && SYSTEM.includes(rest[0]) ? undefined : `not in test/system/{${SYSTEM.join(',')}}/`
    default: return 'not under test/unit, test/http, test/language or test/system'
  }
}

const inTree = (p: string) => existsSync(join(root, p))

t.test('every test file sits in the layout', async (t) => {
  const files = testFiles(join(root, 'test')).filter((f) => !f.startsWith('test/helpers/'))
  t.ok(files.length > 200, `${files.length} test files found`)
  const wrong = files.map((f) => [f, misplaced(f, inTree)]).filter(([, why]) => why !== undefined)
  t.same(wrong, [], 'each misplaced file, with why (docs/testing.md has the layout)')
})

t.test('the rule itself: what it refuses', async (t) => {
  t.equal(misplaced('test/unit/normalise/phone.test.ts', inTree), undefined, 'src/normalise/phone.ts')
  t.equal(misplaced('test/unit/normalise/phone-countries.test.ts', inTree), undefined, 'an aspect of src/normalise/phone.ts')
  t.equal(misplaced('test/unit/check.test.ts', inTree), undefined, 'the folder src/check/')
  t.match(misplaced('test/unit/normalise/telephone.test.ts', inTree), /no src\/normalise\/telephone\.ts/, 'a unit test of no module')
  t.match(misplaced('test/contract/clients.test.ts', inTree), /not under/, 'an old folder')
  t.match(misplaced('test/http/patients/list.test.ts', inTree), /not in test\/http/, 'a route family the interface has not')
  t.match(misplaced('test/http/clients.test.ts', inTree), /not in test\/http/, 'a file beside the families')
  t.match(misplaced('test/language/open-slots/cover.test.ts', inTree), /no folders/)
  t.match(misplaced('test/system/chaos/x.test.ts', inTree), /not in test\/system/)
  t.match(misplaced('test/x.test.ts', inTree), /not under/)
})
