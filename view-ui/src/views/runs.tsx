// Runs: every run with its name, configuration, subjects, suites, progress, accuracy and cost.

import type { RunView } from '../../../src/view/api-types.js';
import { getRuns } from '../data.js';
import { href } from '../route.js';
import { useData } from '../use-data.js';

const usd = (x: number | null) => (x === null ? 'unknown' : `$${x.toFixed(4)}`);
const percent = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

function Run({ run }: { run: RunView }) {
  const planned = run.status.reduce((s, r) => s + r.planned, 0);
  const done = run.status.reduce((s, r) => s + r.done, 0);
  const failed = run.status.reduce((s, r) => s + r.failed, 0);
  const costs = run.usage.map((u) => u.costUsd);
  const cost = costs.some((c) => c === null) ? null : costs.reduce<number>((s, c) => s + (c ?? 0), 0);
  return (
    <div class="card run-card">
      <h2>
        <a href={href('trials', run.id)}>{run.id}</a>
        {run.name && <span class="run-name">{run.name}</span>}
      </h2>
      <dl class="kv">
        <dt>status</dt>
        <dd class={`state state-${run.state}`}>{run.state}</dd>
        <dt>created</dt>
        <dd>{run.createdAt}</dd>
        <dt>trials finished</dt>
        <dd>
          {run.activity.firstFinishedAt ?? '-'} to {run.activity.lastFinishedAt ?? '-'}
        </dd>
        <dt>tool version</dt>
        <dd>{run.toolVersion ?? <span class="muted">not recorded</span>}</dd>
        <dt>suites</dt>
        <dd>{run.suites.join(', ')}</dd>
        <dt>progress</dt>
        <dd class="progress">
          {done} done, {failed} failed, {Math.max(0, planned - done - failed)} pending of {planned}
        </dd>
        <dt>cost</dt>
        <dd>{usd(cost)}</dd>
        {run.rubrics.length > 0 && (
          <>
            <dt>rubrics</dt>
            <dd class="mono">{run.rubrics.map((r) => `${r.rubric} ${r.sha256.slice(0, 12)}`).join(', ')}</dd>
          </>
        )}
      </dl>
      <h3>Accuracy</h3>
      <table class="accuracy">
        <thead>
          <tr>
            <th>subject</th>
            <th class="num">accuracy</th>
            <th class="num">items scored</th>
          </tr>
        </thead>
        <tbody>
          {run.accuracy.map((a) => (
            <tr key={a.spec}>
              <td>{a.spec}</td>
              <td class="num">{percent(a.accuracy)}</td>
              <td class="num">{a.items}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Subjects</h3>
      <table>
        <thead>
          <tr>
            <th>subject</th>
            <th>suite</th>
            <th class="num">planned</th>
            <th class="num">done</th>
            <th class="num">failed</th>
            <th class="num">pending</th>
          </tr>
        </thead>
        <tbody>
          {run.status.map((r) => (
            <tr key={`${r.subjectId}/${r.suite}`}>
              <td>
                <a href={href('trials', run.id, { subject: r.subjectId })}>{r.spec}</a>
              </td>
              <td>{r.suite}</td>
              <td class="num">{r.planned}</td>
              <td class="num">{r.done}</td>
              <td class="num">{r.failed}</td>
              <td class="num">{r.pending}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Usage</h3>
      <table>
        <thead>
          <tr>
            <th>subject</th>
            <th class="num">input tokens</th>
            <th class="num">output tokens</th>
            <th class="num">calls (cached)</th>
            <th class="num">cost</th>
          </tr>
        </thead>
        <tbody>
          {run.usage.map((u) => (
            <tr key={u.subjectId}>
              <td>{u.spec}</td>
              <td class="num">{u.inputTokens}</td>
              <td class="num">{u.outputTokens}</td>
              <td class="num">
                {u.totalCalls} ({u.cachedCalls})
              </td>
              <td class="num">{usd(u.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>configuration</summary>
        <pre>{JSON.stringify(run.config, null, 2)}</pre>
      </details>
    </div>
  );
}

export function RunsView({ stamp }: { stamp: string }) {
  const { data, error } = useData(getRuns, [stamp]);
  if (error) return <p class="error">{error}</p>;
  if (!data) return <p class="muted">loading...</p>;
  if (!data.length) return <p>This store has no runs yet.</p>;
  return (
    <div>
      {data.map((r) => (
        <Run key={r.id} run={r} />
      ))}
    </div>
  );
}
