// The environment of a process a test starts (a Ponte server under tsx, `npm start`).
// tap's process-info hook follows every spawn and records the child's coverage too; the child
// runs the sources through tsx, whose compiled lines tap cannot map back, and merging them
// wipes out most of the real coverage. The child is a subject, not a test: its coverage is
// excluded (every file matches the pattern below).
export function childEnv (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, _TAPJS_PROCESSINFO_COV_EXCLUDE_: '/./' }
}
