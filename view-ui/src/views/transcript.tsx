// Transcript: the exact messages sent (images inline), each reply raw with its reasoning, how
// the answer was read, the gold answer, every score (judges' raw outputs with the rubric hash),
// and the protocol's own view, drawn by its panel (StoryTurn, EnactToM replay, Director scene, ...).

import type { TrialView } from '../../../src/view/api-types.js';
import { getTrial } from '../data.js';
import { Content } from '../panel-kit.js';
import type { Route } from '../route.js';
import { useData } from '../use-data.js';
import { ProtocolView } from './protocol.js';

type Call = TrialView['calls'][number];

function CallView({ call, n }: { call: Call; n: number }) {
  const r = call.response;
  return (
    <div class="card call">
      <h3>
        call {n + 1} <span class="muted">({call.kind}{call.cached ? ', from cache' : ''}, {call.attempts} attempt(s), temperature {call.settings.temperature})</span>
      </h3>
      {(call.messages ?? []).map((m, i) => (
        <div key={i} class={`msg ${m.role}`}>
          <div class="role">{m.role}</div>
          <Content content={m.content} />
        </div>
      ))}
      {r && (
        <div class="msg assistant reply">
          <div class="role">
            reply (raw) · {r.usage.inputTokens} in / {r.usage.outputTokens} out ·{' '}
            {r.batch ? `batch: ${Math.round(r.latencyMs)} ms from submission to collection` : `${Math.round(r.latencyMs)} ms`}
            {r.finishReason ? ` · ${r.finishReason}` : ''}
            {r.truncated ? ' · TRUNCATED' : ''}
          </div>
          <pre class="reply-text">{r.text}</pre>
          {r.reasoning && (
            <details open>
              <summary>reasoning{r.reasoning.tokens !== undefined ? ` (${r.reasoning.tokens} tokens)` : ''}</summary>
              <pre>{r.reasoning.text ?? '(text not returned by the provider)'}</pre>
            </details>
          )}
        </div>
      )}
      {call.loglik && (
        <table>
          <tbody>
            {call.loglik.continuations.map((c, i) => (
              <tr key={i}>
                <td>{c}</td>
                <td class="num">{call.loglik?.logprobs[i]?.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Scores({ t }: { t: TrialView }) {
  return (
    <div class="card scores">
      <h3>Scores</h3>
      {t.scores.map((s) => (
        <div key={s.scorer}>
          <b>{s.scorer}</b>: <span class={s.value >= 1 ? 'ok' : 'bad'}>{s.value}</span>
          {s.judge ? (
            <div>
              <span class="mono">
                rubric {s.judge.rubric.name} sha256 {s.judge.rubric.sha256}
              </span>{' '}
              · aggregation {s.judge.aggregation}
              {'judges' in s.judge && (
                <table>
                  <thead>
                    <tr>
                      <th>judge</th>
                      <th>values</th>
                      <th>raw output</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.judge.judges.map((j, i) => (
                      <tr key={i}>
                        <td>{j.judge}</td>
                        <td class="mono">{j.values ? JSON.stringify(j.values) : (j.error ?? 'none')}</td>
                        <td>
                          {j.raw.map((x, k) => (
                            <pre key={k}>{x}</pre>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {'turns' in s.judge &&
                s.judge.turns.map((turn) => (
                  <div key={turn.turn}>
                    turn {turn.turn}: {turn.correct ? 'right' : 'wrong'}
                    {turn.panel?.judges.map((j, i) => (
                      <pre key={i}>
                        {j.judge}: {j.raw.join('\n')}
                      </pre>
                    ))}
                  </div>
                ))}
            </div>
          ) : (
            <pre class="muted">{JSON.stringify(s.detail)}</pre>
          )}
        </div>
      ))}
    </div>
  );
}

export function TranscriptView({ route, stamp }: { route: Route; stamp: string }) {
  const p = route.params;
  const key = { subject: p.get('subject') ?? '', suite: p.get('suite') ?? '', item: p.get('item') ?? '', replicate: Number(p.get('replicate') ?? 0) };
  const { data: t, error } = useData(() => getTrial(route.runId, key), [route.runId, p.toString(), stamp]);
  if (error) return <p class="error">{error}</p>;
  if (!t) return <p class="muted">loading...</p>;
  return (
    <div class="transcript">
      <h2>
        <span class="subject">{t.spec}</span> on <span class="mono">{t.suite}/{t.itemId}</span> #{t.replicate}
      </h2>
      <div class="card">
        <dl class="kv">
          <dt>status</dt>
          <dd class={t.status === 'done' ? 'ok' : 'bad'}>{t.status}</dd>
          {t.error && (
            <>
              <dt>error</dt>
              <dd>
                <pre>{t.error}</pre>
              </dd>
            </>
          )}
          <dt>protocol</dt>
          <dd>{t.protocol}</dd>
          <dt>category</dt>
          <dd>
            {t.item?.category} {t.item?.originalLabel ? `(${t.item.originalLabel})` : ''}
          </dd>
          <dt>gold answer</dt>
          <dd class="gold">{t.item?.answer}</dd>
          <dt>usage</dt>
          <dd>
            {t.usage.inputTokens} in / {t.usage.outputTokens} out, {Math.round(t.usage.latencyMs)} ms
            {t.usage.batchLatencyMs > 0 ? ` (+ batch wait ${Math.round(t.usage.batchLatencyMs)} ms, submission to collection)` : ''}, $
            {t.usage.costUsd.toFixed(5)},{' '}
            {t.attempts} attempt(s), finished {t.finishedAt}
          </dd>
        </dl>
      </div>
      {t.record && <ProtocolView t={t} record={t.record} />}
      <Scores t={t} />
      <h3>Calls, exactly as sent and received</h3>
      {t.calls.map((c, i) => (
        <CallView key={i} call={c} n={i} />
      ))}
    </div>
  );
}
