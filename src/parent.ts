// Started by npm (`npm start`, `npx ponte serve`), Ponte runs below npm, which passes SIGINT and
// SIGTERM on to the script it runs but not SIGHUP; `npx` puts a shell between that passes on
// nothing. A signal that ends npm or that shell would leave the server serving on its port with
// no parent, and the next start would find the port taken. So a server npm started follows its
// parent: once that has exited (the orphan is given a new parent, so process.ppid changes), it
// shuts down as on SIGTERM.

/** npm names the script it runs in npm_lifecycle_event (`start`, `serve`, `npx`, …). */
export function startedByNpm (env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event !== undefined
}

/** Calls `exited` once, after this process's parent has exited; never keeps the process alive. */
export function whenParentExits (exited: () => void, everyMs = 500): void {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    exited()
  }, everyMs)
  timer.unref()
}
