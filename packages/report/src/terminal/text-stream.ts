/**
 * What agentest prints to: `process.stdout` or `process.stderr`, a test's capture, or an embedding
 * program's bare `{ write }`. Declared here rather than as `NodeJS.WritableStream` so that the
 * published declarations type-check in a project without `@types/node`.
 */
export interface TextStream {
  write(text: string): unknown;
  /** A terminal: the console shows its live progress line and, unless told otherwise, colour. */
  isTTY?: boolean;
  /** A real stream's errors (a closed pipe); a bare sink has none. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
}
