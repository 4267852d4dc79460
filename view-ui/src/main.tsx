// The viewer's page: Runs, Trials, Transcript, Compare and Reports views over the API (or a
// static export's snapshot). Every string from models and data files is rendered as text by
// Preact (escaped); nothing is ever inserted as HTML.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ViewerInfo } from '../../src/view/api-types.js';
import { getInfo, isStatic } from './data.js';
import { href, useRoute } from './route.js';
import { ReportsView } from './views/reports.js';
import { CompareView } from './views/compare.js';
import { RunsView } from './views/runs.js';
import { TranscriptView } from './views/transcript.js';
import { TrialsView } from './views/trials.js';
import './style.css';

/** What the server says of itself and the store; its stamp, polled every two seconds, changes when trials land (views reload). */
function useInfo(): ViewerInfo | undefined {
  const [info, setInfo] = useState<ViewerInfo>();
  useEffect(() => {
    let live = true;
    const poll = () =>
      getInfo()
        .then((i) => live && setInfo((was) => (was?.stamp === i.stamp ? was : i)))
        .catch(() => {});
    poll();
    const timer = isStatic ? undefined : setInterval(poll, 2000);
    return () => {
      live = false;
      if (timer) clearInterval(timer);
    };
  }, []);
  return info;
}

function App() {
  const route = useRoute();
  const info = useInfo();
  const stamp = info?.stamp ?? '';
  const { view, runId } = route;
  return (
    <>
      <header>
        <a href={href('runs')} class="brand">
          mindscope view
        </a>
        {runId && (
          <nav>
            <span class="run">{runId}</span>
            <a href={href('trials', runId)}>Trials</a>
            <a href={href('compare', runId)}>Compare</a>
            <a href={href('reports', runId)}>Reports</a>
          </nav>
        )}
        {isStatic && <span class="badge">static export</span>}
        {info && <span class="version">mindscope {info.version}</span>}
      </header>
      <main>
        {/* Views load once the stamp is known, and again whenever it changes. */}
        {!stamp ? (
          <p class="muted">connecting...</p>
        ) : view === 'trials' ? (
          <TrialsView route={route} stamp={stamp} />
        ) : view === 'trial' ? (
          <TranscriptView route={route} stamp={stamp} />
        ) : view === 'compare' ? (
          <CompareView route={route} stamp={stamp} />
        ) : view === 'reports' ? (
          <ReportsView route={route} stamp={stamp} />
        ) : (
          <RunsView stamp={stamp} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
