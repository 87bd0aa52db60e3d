// The mapping's `changes` key (issue 28): defaults, and a bad value refused at its line as any key is.
import t from 'tap'
import { parseMapping } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { MappingError, type MappingIssue } from '../../../src/mapping/errors.js'

const base = (changes: string): string => `version: 1
installation: test
resources:
  appointment:
    table: dbo.AGENDA
    key: ID
    start: { date: DATA, hour: HORA }
    state: { column: ST, map: { A: WAITING } }
${changes}
  client:
    table: dbo.PAC
    key: ID
    fields: { name: NOME }
`

function issues (text: string): MappingIssue[] {
  try {
    buildModel(parseMapping(text, 'm.yaml'))
  } catch (err) {
    if (err instanceof MappingError) return err.issues
    throw err
  }
  return []
}

t.test('without `changes`, nothing is detected', async (t) => {
  t.equal(buildModel(parseMapping(base(''), 'm.yaml')).appointment.changes, undefined)
})

t.test('`changes: {}` watches yesterday to 90 days ahead, every 30 seconds', async (t) => {
  t.same(buildModel(parseMapping(base('    changes: {}'), 'm.yaml')).appointment.changes, { daysBefore: 1, daysAfter: 90, pollMs: 30_000 })
})

t.test('the window and the interval as given', async (t) => {
  const model = buildModel(parseMapping(base('    changes:\n      window: { daysBefore: 0, daysAfter: 14 }\n      pollSeconds: 0.5'), 'm.yaml'))
  t.same(model.appointment.changes, { daysBefore: 0, daysAfter: 14, pollMs: 500 })
})

t.test('a bad value is refused at its line', async (t) => {
  t.match(issues(base('    changes:\n      window: { daysBefore: -1 }')), [{ path: '/resources/appointment/changes/window/daysBefore', line: 10 }])
  t.match(issues(base('    changes:\n      pollSeconds: 0')), [{ path: '/resources/appointment/changes/pollSeconds', line: 10 }])
  t.match(issues(base('    changes:\n      pollSeconds: 30s')), [{ path: '/resources/appointment/changes/pollSeconds', line: 10 }])
  t.match(issues(base('    changes:\n      window: { daysAfter: 400 }')), [{ path: '/resources/appointment/changes/window/daysAfter', line: 10 }])
  t.match(issues(base('    changes:\n      every: 30')), [{ path: '/resources/appointment/changes/every', line: 10, message: /unknown key/ }])
})
