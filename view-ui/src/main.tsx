// The viewer's page: Runs, Trials, Transcript, Compare and Reports views over the API (or a
// static export's snapshot). Every string from models and data files is rendered as text by
// Preact (escaped); nothing is ever inserted as HTML.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { getInfo, isStatic } from './data.js';
import { href, useRoute } from './route.js';
import { ReportsView } from './views/reports.js';
import { CompareView } from './views/compare.js';
import { RunsView } from './views/runs.js';
import { TranscriptView } from './views/transcript.js';
import { TrialsView } from './views/trials.js';
import './style.css';

/** The store's stamp, polled every two seconds: views reload when trials land. */
function useStamp(): string {
  const [stamp, setStamp] = useState('');
  useEffect(() => {
    let live = true;
    const poll = () =>
      getInfo()
        .then((i) => live && setStamp(i.stamp))
        .catch(() => {});
    poll();
    const timer = isStatic ? undefined : setInterval(poll, 2000);
    return () => {
      live = false;
      if (timer) clearInterval(timer);
    };
  }, []);
  return stamp;
}

function App() {
  const route = useRoute();
  const stamp = useStamp();
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
