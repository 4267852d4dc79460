// Hash routes: #/runs, #/trials/RUN?filters, #/trial/RUN?subject&suite&item&replicate,
// #/compare/RUN?subject=A&subject=B, #/reports/RUN. The hash keeps every view linkable, in the
// server and in a static export alike.

import { useEffect, useState } from 'preact/hooks';

export interface Route {
  view: string;
  runId: string;
  params: URLSearchParams;
}

function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [view = 'runs', ...rest] = path.split('/');
  return { view: view || 'runs', runId: decodeURIComponent(rest.join('/')), params: new URLSearchParams(query) };
}

export function href(view: string, runId = '', params?: URLSearchParams | Record<string, string>): string {
  const p = params instanceof URLSearchParams ? params : new URLSearchParams(params);
  const q = p.toString();
  return `#/${view}${runId ? `/${encodeURIComponent(runId)}` : ''}${q ? `?${q}` : ''}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
