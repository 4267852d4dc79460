// The viewer's StoryTurn panel: each turn's question, reply and expected answer, and the feedback
// branch the conversation took.

import type { StoryTurnDetail } from '../protocol/records.js';
import type { PanelComponents, PanelProps } from '../../../../view-ui/src/panel-kit.js';

function Story({ data: s }: PanelProps<StoryTurnDetail>) {
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

/** The StoryTurn study's panels, by protocol. */
export const panels: PanelComponents = { conversation: Story };
