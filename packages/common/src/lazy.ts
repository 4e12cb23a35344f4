/**
 * A value made by its first use and kept: for what a module would otherwise build as it loads, such as a
 * zod schema, which costs every start-up of a process that never validates with it.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
