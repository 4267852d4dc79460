// Protocol views: what each protocol's record says, shown the way its paper reads it.

import { useState } from 'preact/hooks';
import type { RecordView, TrialView } from '../../../src/view/api-types.js';
import { Content } from './transcript.js';

type Of<P extends string> = Extract<RecordView, { protocol: P }>;

/** The images and videos of the first call's messages: what the model saw. */
function Stimulus({ t }: { t: TrialView }) {
  const parts = (t.calls[0]?.messages ?? []).flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type !== 'text')));
  return parts.length ? <Content content={parts} /> : <p class="muted">no image in this trial</p>;
}

function Mcq({ r, t }: { r: Of<'mcq'>; t: TrialView }) {
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
        {r.mcq.presented.map((o) => (
          <li key={o.label} class={o.label === r.mcq.correctLabel ? 'ok' : o.label === r.mcq.parsed ? 'bad' : ''}>
            {o.label}. {o.text}
            {o.label === r.mcq.correctLabel ? ' (gold)' : ''}
            {o.label === r.mcq.parsed ? ' (answered)' : ''}
          </li>
        ))}
      </ul>
      <p>
        extraction rule: <b>{r.mcq.parseMethod ?? 'log-likelihood'}</b>; parsed answer:{' '}
        <b class="parsed">{r.mcq.parsed === null ? 'none (parse failure)' : (r.mcq.parsed ?? '-')}</b>; gold: <b>{r.mcq.correctLabel}</b>
      </p>
    </div>
  );
}

function Story({ r }: { r: Of<'conversation'> }) {
  const s = r.story;
  return (
    <div class="card protocol story">
      <h3>
        StoryTurn {s.storyId} · {s.state} · {s.setting} · story {s.correct ? <span class="ok">right</span> : <span class="bad">wrong</span>}
      </h3>
      <table>
        <thead>
          <tr>
            <th>turn</th>
            <th>question</th>
            <th>reply</th>
            <th>answer / expected</th>
            <th>feedback branch taken</th>
          </tr>
        </thead>
        <tbody>
          {s.turns.map((turn) => (
            <tr key={turn.turn} class="story-turn">
              <td>{turn.turn}</td>
              <td>
                <pre>{turn.question}</pre>
              </td>
              <td>
                <pre>{turn.reply}</pre>
              </td>
              <td>
                <span class={turn.correct ? 'ok' : 'bad'}>{turn.answer}</span> / {turn.expected.join(' | ')}
              </td>
              <td>
                <span class="branch">{turn.correct ? 'right-answer branch' : 'wrong-answer branch'}</span>
                <pre>{turn.feedbackShown}</pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {s.feedbackEvents.length > 0 && (
        <p>
          feedback after a wrong answer:{' '}
          {s.feedbackEvents.map((e) => `turn ${e.afterTurn} ${e.recovered ? 'recovered' : 'not recovered'}`).join('; ')}
        </p>
      )}
    </div>
  );
}

function Episode({ r }: { r: Of<'episode'> }) {
  const [step, setStep] = useState(0);
  const e = r.episode;
  const cur = r.replay[step];
  return (
    <div class="card protocol episode">
      <h3>
        EnactToM {e.taskId} · {e.category} · K-depth {e.kDepth} · functional {e.functional ? <span class="ok">yes</span> : <span class="bad">no</span>}{' '}
        · epistemic {e.epistemic ? 'yes' : 'no'} · literal {e.literal.correct}/{e.literal.total}
      </h3>
      {r.failures.length > 0 && (
        <div class="failures">
          <b>failure mode(s):</b>
          <ul>
            {r.failures.map((f, i) => (
              <li key={i}>
                <b class="failure-mode">{f.mode}</b>: {f.explanation} {f.rounds.length ? `(rounds ${f.rounds.join(', ')})` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.start && (
        <details>
          <summary>task, goal and each agent's private knowledge</summary>
          <pre>{r.start.text}</pre>
          <p class="mono">goal: {r.start.goal}</p>
          {r.start.agents.map((a) => (
            <div key={a.name}>
              <b>{a.name}</b> knows: {a.knows.join('; ') || 'nothing private'}
            </div>
          ))}
          <pre>{r.start.world.join('\n')}</pre>
        </details>
      )}
      <div class="pager replay-controls">
        <button type="button" class="prev" disabled={step === 0} onClick={() => setStep(step - 1)}>
          previous turn
        </button>
        <span class="step">
          turn {r.replay.length ? step + 1 : 0} of {r.replay.length}
        </span>
        <button type="button" class="next" disabled={step >= r.replay.length - 1} onClick={() => setStep(step + 1)}>
          next turn
        </button>
      </div>
      {cur && (
        <div class="side replay-step">
          <div>
            <p>
              round {cur.turn.round} · <b class="agent">{cur.turn.agent}</b> · action{' '}
              <span class={`mono ${cur.turn.ok ? 'ok' : 'bad'}`}>{cur.turn.action ?? '(none)'}</span>
              {cur.turn.delivered ? ` · delivered to ${cur.turn.delivered.join(', ')}` : ''}
            </p>
            <div class="msg assistant">
              <div class="role">{cur.turn.agent} said</div>
              <pre>{cur.turn.reply}</pre>
            </div>
            <div class="msg user">
              <div class="role">what {cur.turn.agent} was told (its view)</div>
              <pre class="observation">{cur.turn.observation}</pre>
            </div>
            {cur.turn.conveyed?.length ? <p>conveyed: {cur.turn.conveyed.join('; ')}</p> : null}
          </div>
          <div>
            <div class="role">world state after this turn</div>
            <pre class="world">{cur.world.join('\n') || 'task not stored: state unknown'}</pre>
          </div>
        </div>
      )}
      <h3>Probes</h3>
      <table>
        <tbody>
          {e.probes.map((p, i) => (
            <tr key={i}>
              <td>{p.agent}</td>
              <td>{p.question}</td>
              <td>
                <pre>{p.reply}</pre>
              </td>
              <td class={p.correct ? 'ok' : 'bad'}>
                {p.answer ?? 'none'} (expected {p.expected})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Director({ r, t }: { r: Of<'director'>; t: TrialView }) {
  const d = r.director;
  const answers = [
    ['a', d.a],
    ['b', d.b],
    ['c.Q1', d.cQ1],
    ['c.Q2', d.cQ2],
  ] as const;
  return (
    <div class="card protocol director">
      <h3>
        Director scene {d.sceneId} · arm {d.arm} · {d.blocks} blocks
      </h3>
      <div class="side">
        <Stimulus t={t} />
        <table>
          <tbody>
            {answers.map(([name, a]) => (
              <tr key={name}>
                <td>({name})</td>
                <td>
                  <pre>{a.reply}</pre>
                </td>
                <td class={a.letter ? 'ok' : 'bad'}>
                  {a.mode ?? (a.letter ? 'correct' : 'wrong')}
                  {'egocentric' in a && a.egocentric && a.mode !== 'egocentric' ? ' · egocentric' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Describe({ r, t }: { r: Of<'describe'>; t: TrialView }) {
  return (
    <div class="card protocol describe">
      <h3>
        Description {r.describe.condition ? `· ${r.describe.condition}` : ''} {r.describe.representation ? `· ${r.describe.representation}` : ''}
      </h3>
      <div class="side">
        <Stimulus t={t} />
        <pre>{r.describe.reply}</pre>
      </div>
    </div>
  );
}

export function ProtocolView({ t, record }: { t: TrialView; record: RecordView }) {
  switch (record.protocol) {
    case 'mcq':
      return <Mcq r={record} t={t} />;
    case 'conversation':
      return <Story r={record} />;
    case 'episode':
      return <Episode r={record} />;
    case 'director':
      return <Director r={record} t={t} />;
    case 'describe':
      return <Describe r={record} t={t} />;
    default:
      return (
        <div class="card protocol">
          <h3>{record.name} record</h3>
          <pre>{JSON.stringify(record.raw, null, 2)}</pre>
        </div>
      );
  }
}
