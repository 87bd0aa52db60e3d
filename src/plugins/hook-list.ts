// A route option's hooks (one function, several, or none) as a list, for plugins that add
// their hooks to chosen routes from onRoute.
export function asList<T> (hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
}
