/**
 * Deadlines in these tests only catch hangs. Each is far above (10× or more) what the awaited thing
 * takes on an idle machine, so a busy laptop or CI runner never trips one, and none is what a test
 * asserts: a test asserts what happened (a status, a reason, an exit code), never how fast.
 */

/**
 * A CLI run of one test, or the state a test waits for in a running CLI, has been reached by then or
 * hangs. The heaviest run here (a 20 MB reply through five assertions) takes seconds when the machine
 * is idle and has taken 90 s at a load of 37 on two cores.
 */
export const HANG_MS = 300_000;
