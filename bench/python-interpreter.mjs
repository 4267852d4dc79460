// The Python interpreter a peer runs on, resolved to the binary itself: a launcher in front of
// it (a pyenv shim is a bash script) would count its own start-up, about 0.25 s a run on the
// development machine, as the peer's time.

import { spawnSync } from 'node:child_process';

/** The executable `command` runs (sys.executable), or `command` itself when it cannot say. */
export function pythonInterpreter(command) {
  const r = spawnSync(command, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const path = r.status === 0 ? r.stdout.trim() : '';
  return path || command;
}
