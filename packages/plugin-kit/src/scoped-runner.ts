import { AsyncLocalStorage } from 'node:async_hooks';

type Runner<Request, Answer> = (request: Request) => Promise<Answer>;

/**
 * For a hook of `@agentest/expect` that live test functions (`runSuite`) share on this thread
 * (`setJudgeRunner`, `setSnapshotRunner`): installs one dispatcher on first use, which finds the
 * runner of the test that made the call through the async context, so parallel tests never answer
 * each other's calls. A call outside any test gets `outside`.
 */
export function scopedRunner<Request, Answer>(
  install: (dispatch: Runner<Request, Answer>) => unknown,
  outside: Answer,
): <T>(runner: Runner<Request, Answer>, fn: () => T) => T {
  const scope = new AsyncLocalStorage<Runner<Request, Answer>>();
  let installed = false;
  return (runner, fn) => {
    if (!installed) {
      installed = true;
      install(async (request) => {
        const current = scope.getStore();
        return current ? current(request) : outside;
      });
    }
    return scope.run(runner, fn);
  };
}
