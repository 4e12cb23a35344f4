/**
 * SIGINT, SIGTERM and SIGHUP for one run. The first SIGINT interrupts (no new case starts, running
 * ones finish, every reporter writes what finished); a second SIGINT, a SIGTERM or a SIGHUP aborts
 * the running cases too. SIGHUP is what CI runners send when a job is cancelled and what a closed
 * terminal sends; left to Node's default it would end the process with no report written.
 * `onAbort` lets the caller arm a last-resort exit in case something ignores the abort.
 */
export interface SignalWatch {
  interrupt: AbortSignal;
  abort: AbortSignal;
  dispose(): void;
}

export function watchSignals(options: { onInterrupt?: () => void; onAbort?: () => void } = {}): SignalWatch {
  const interrupt = new AbortController();
  const abort = new AbortController();
  const stop = (hard: boolean) => {
    if (!interrupt.signal.aborted) {
      interrupt.abort(new Error('interrupted'));
      if (!hard) {
        options.onInterrupt?.();
        return;
      }
    }
    if (!abort.signal.aborted) {
      abort.abort(new Error('aborted'));
      options.onAbort?.();
    }
  };
  const onSigint = () => stop(false);
  const onSigterm = () => stop(true);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSigterm);
  return {
    interrupt: interrupt.signal,
    abort: abort.signal,
    dispose() {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      process.off('SIGHUP', onSigterm);
    },
  };
}
