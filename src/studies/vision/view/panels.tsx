// The viewer's vision panels: a Director scene beside the four answers with their modes, and a
// triangles description beside the frames the model saw.

import type { DescribeDetail } from '../protocols/describe-records.js';
import type { DirectorDetail } from '../protocols/director-records.js';
import { type PanelComponents, type PanelProps, Stimulus } from '../../../../view-ui/src/panel-kit.js';

function Director({ data: d, trial }: PanelProps<DirectorDetail>) {
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
        <Stimulus t={trial} />
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

function Describe({ data, trial }: PanelProps<DescribeDetail>) {
  return (
    <div class="card protocol describe">
      <h3>
        Description {data.condition ? `· ${data.condition}` : ''} {data.representation ? `· ${data.representation}` : ''}
      </h3>
      <div class="side">
        <Stimulus t={trial} />
        <pre>{data.reply}</pre>
      </div>
    </div>
  );
}

/** The vision study's panels, by protocol. */
export const panels: PanelComponents = { director: Director, describe: Describe };
