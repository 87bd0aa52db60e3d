// A throwaway database holding a fixture on a local test server (each server's file here),
// imported per server so a test of one never loads the other's driver.
export interface ScratchDatabase { url: string, drop: () => Promise<void> }

const SERVERS = {
  mysql: async () => await import('./mysql.js'),
  postgres: async () => await import('./postgres.js')
}

export type ScratchServer = keyof typeof SERVERS

export async function createScratchDatabase (server: ScratchServer, fixturePath: string): Promise<ScratchDatabase> {
  return await (await SERVERS[server]()).createScratchDatabase(fixturePath)
}
