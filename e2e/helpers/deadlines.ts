/**
 * Deadlines in these tests only catch hangs. Each is far above (10× or more) what the awaited thing
 * takes on an idle machine, so a busy laptop or CI runner never trips one, and none is what a test
 * asserts: a test asserts what happened (a status, a reason, an exit code), never how fast.
 */

/** A CLI run of one test, or the state a test waits for in a running CLI, has been reached by then or hangs. */
export const HANG_MS = 120_000;
