// The `ponte` command run in-process with what it prints kept: the exit code and the text.
import { main } from '../../src/cli.js'

export async function runCli (args: string[]): Promise<{ code: number, printed: string }> {
  const printed: string[] = []
  const out = process.stdout.write
  const err = process.stderr.write
  const keep = ((c: string) => { printed.push(String(c)); return true }) as typeof process.stdout.write
  process.stdout.write = keep
  process.stderr.write = keep
  try {
    return { code: await main(args), printed: printed.join('') }
  } finally {
    process.stdout.write = out
    process.stderr.write = err
  }
}
