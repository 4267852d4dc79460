// Ctrl-C and SIGTERM for commands that stop gracefully (run, worker): the first asks the work
// to stop through an AbortSignal (what is in flight finishes and is stored), a second quits at
// once.

export interface Interrupts {
  /** Fires at the first Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  /** Remove the handlers (the command is done). */
  release(): void;
}

/** Catch Ctrl-C and SIGTERM until `release`; `stopping` and `quitting` are written to stderr at the first and the second. */
export function catchInterrupts(messages: { stopping?: string; quitting?: string } = {}): Interrupts {
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) {
      if (messages.quitting) process.stderr.write(messages.quitting);
      process.exit(130);
    }
    stop.abort();
    if (messages.stopping) process.stderr.write(messages.stopping);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    release() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
