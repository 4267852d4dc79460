// Load data for a view, again whenever its inputs or the store's stamp change (trials landing).

import { useEffect, useState } from 'preact/hooks';

export function useData<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data }),
      (err: Error) => live && setState({ error: err.message }),
    );
    return () => {
      live = false;
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  }, deps);
  return state;
}
