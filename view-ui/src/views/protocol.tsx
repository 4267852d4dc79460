// Protocol views: what each protocol's record says, shown the way its paper reads it. Multiple
// choice is drawn here; every other protocol by its study's panel (panels.ts) or by the script of
// a user plugin's panel; a record no panel draws is shown as JSON.

import { useEffect, useRef, useState } from 'preact/hooks';
import type { McqDetail } from '../../../src/core/index.js';
import type { RecordView, TrialView } from '../../../src/view/api-types.js';
import { loadPanelScript } from '../data.js';
import type { PanelProps } from '../panel-kit.js';
import { PANELS } from '../panels.js';

function Mcq({ data: r, trial: t }: PanelProps<McqDetail>) {
  return (
    <div class="card protocol mcq">
      <h3>Multiple choice</h3>
      {t.item?.mcq && (
        <>
          <pre class="item-context">{t.item.mcq.context}</pre>
          <p>
            <b>{t.item.mcq.question}</b>
          </p>
        </>
      )}
      <ul>
        {r.presented.map((o) => (
          <li key={o.label} class={o.label === r.correctLabel ? 'ok' : o.label === r.parsed ? 'bad' : ''}>
            {o.label}. {o.text}
            {o.label === r.correctLabel ? ' (gold)' : ''}
            {o.label === r.parsed ? ' (answered)' : ''}
          </li>
        ))}
      </ul>
      <p>
        extraction rule: <b>{r.parseMethod ?? 'log-likelihood'}</b>; parsed answer:{' '}
        <b class="parsed">{r.parsed === null ? 'none (parse failure)' : (r.parsed ?? '-')}</b>; gold: <b>{r.correctLabel}</b>
      </p>
    </div>
  );
}

/** A user plugin's panel: its script's default export draws the data into the panel's element. */
function ScriptPanel({ protocol, script, data }: { protocol: string; script: string; data: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    setError(undefined);
    loadPanelScript(script)
      .then((draw) => {
        if (!live || !ref.current) return;
        ref.current.replaceChildren();
        draw(ref.current, data);
      })
      .catch((err: unknown) => live && setError(`${script}: ${err instanceof Error ? err.message : String(err)}`));
    return () => {
      live = false;
    };
  }, [script, data]);
  return (
    <div class={`card protocol plugin-panel ${protocol}`}>
      {error && <p class="error">{error}</p>}
      <div ref={ref} />
    </div>
  );
}

export function ProtocolView({ t, record }: { t: TrialView; record: RecordView }) {
  if (record.script) return <ScriptPanel protocol={record.protocol} script={record.script} data={record.data} />;
  if (!record.raw && record.protocol === 'mcq') return <Mcq data={record.data as McqDetail} trial={t} />;
  const Panel = record.raw ? undefined : PANELS[record.protocol];
  if (Panel) return <Panel data={record.data} trial={t} />;
  return (
    <div class="card protocol">
      <h3>{record.protocol} record</h3>
      <pre>{JSON.stringify(record.data, null, 2)}</pre>
    </div>
  );
}
