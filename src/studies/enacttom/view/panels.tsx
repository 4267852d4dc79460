// The viewer's EnactToM panel: an episode replayed turn by turn (what each agent said, did and
// was told, the world after each turn, and who knows and thinks what after it: knowledge gained
// in the turn shown as new, beliefs the world contradicts as false), its failure modes, and the
// literal probes.

import { useState } from 'preact/hooks';
import type { PanelComponents, PanelProps } from '../../../../view-ui/src/panel-kit.js';
import type { EpisodeView, ReplayMind } from './episode-replay.js';

/** Each agent's knowledge and beliefs after a turn: one row per agent. */
function Minds({ minds }: { minds: ReplayMind[] }) {
  return (
    <div class="minds">
      <div class="role">who knows what after this turn</div>
      <table class="minds-table">
        <thead>
          <tr>
            <th>agent</th>
            <th>knows</th>
            <th>thinks</th>
          </tr>
        </thead>
        <tbody>
          {minds.map((m) => (
            <tr key={m.agent} class="mind" data-agent={m.agent}>
              <td class="agent">{m.agent}</td>
              <td class="knows">
                <ul>
                  {m.knows.map((k) => (
                    <li key={k} class={m.learned.includes(k) ? 'learned ok' : undefined}>
                      {m.learned.includes(k) ? `new: ${k}` : k}
                    </li>
                  ))}
                </ul>
                {m.lost.length > 0 && <p class="lost bad">no longer knows: {m.lost.join('; ')}</p>}
              </td>
              <td class="thinks">
                <ul>
                  {m.thinks.map((t) => (
                    <li key={t.text} class={t.false ? 'false-belief bad' : undefined}>
                      {t.false ? `${t.text} (false: ${t.false})` : t.text}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Episode({ data: r }: PanelProps<EpisodeView>) {
  const [step, setStep] = useState(0);
  const e = r.episode;
  const cur = r.replay[step];
  return (
    <div class="card protocol episode">
      <h3>
        EnactToM {e.taskId} · {e.category} · K-depth {e.kDepth} · functional{' '}
        {e.functional ? <span class="ok">yes</span> : <span class="bad">no</span>} · epistemic {e.epistemic ? 'yes' : 'no'} · literal{' '}
        {e.literal.correct}/{e.literal.total}
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
      {cur && cur.minds.length > 0 && <Minds minds={cur.minds} />}
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

/** The EnactToM study's panels, by protocol. */
export const panels: PanelComponents = { episode: Episode };
