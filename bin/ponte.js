#!/usr/bin/env node
// `npx ponte …`: runs the TypeScript entry in this process, loaded through tsx (what
// `node --import tsx src/cli.ts` does), so signals reach the server directly.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli.ts')
process.exitCode = await main(process.argv.slice(2))
