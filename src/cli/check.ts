// `ponte check`: the mapping against the live database, findings at their mapping lines.
import { Option, type Command } from 'commander'
import { checkInstallation } from '../check/index.js'
import { databaseOption, dayOption, mappingOption, mappingPath, open, positiveInt, positiveSeconds, UnreachableError, type Done } from './usage.js'

interface CheckOptions { mapping?: string, db?: string, json?: boolean, today?: string, scanSeconds: number, budget?: number, quiet?: boolean, writeProbe: boolean }

export function checkCommand (cli: Command, done: Done): void {
  cli.command('check')
    .description('check a mapping against the live database: tables, columns and converters, every statement (writes rolled back), the stored data')
    .addOption(mappingOption())
    .addOption(databaseOption())
    .option('--json', 'print the findings as JSON (for scripts)')
    .option('--today <date>', 'the day the statement probes ask about (YYYY-MM-DD; default: today at the clinic); the data scans read whole tables')
    .addOption(new Option('--scan-seconds <seconds>', 'time for the whole-table scans of the stored data; a scan cut short says how far it got').default(30).argParser(positiveSeconds('--scan-seconds')))
    .addOption(new Option('--budget <seconds>', 'the old name of --scan-seconds').argParser(positiveInt('--budget')))
    .option('--quiet', 'no progress on stderr')
    .option('--no-write-probe', 'do not perform each write path in a rolled-back transaction (for clinics that forbid it); check then says writes were not proven')
    .action(async (o: CheckOptions) => {
      dayOption('--today', o.today)
      const inst = await open(mappingPath(o.mapping), o.db ?? process.env.DATABASE_URL)
      try {
        const progress = o.quiet || o.json || !process.stderr.isTTY ? undefined : (what: string) => { process.stderr.write(`  … ${what}\n`) }
        // Long scans say how far they are even without a terminal (a scheduled job's log).
        const scanProgress = o.quiet ? undefined : (line: string) => { process.stderr.write(`  … ${line}\n`) }
        const report = await checkInstallation(inst, { today: o.today, budgetMs: (o.budget ?? o.scanSeconds) * 1000, progress, scanProgress, writeProbe: o.writeProbe })
          .catch((err: unknown) => { throw new UnreachableError(`cannot read the database: ${(err as Error).message}`) })
        if (o.json) process.stdout.write(JSON.stringify({ ok: report.ok, mapping: inst.model.file, findings: report.findings }, null, 2) + '\n')
        else process.stdout.write(report.lines.join('\n') + '\n')
        done(report.ok ? 0 : 1)
      } finally {
        await inst.close()
      }
    })
}
