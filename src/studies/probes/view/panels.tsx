// The viewer's probe panel: a base item with its variants side by side (one column each): what
// the variant changed, the options as shown, the expected option and the subject's answer; for a
// belief-tracking trial, the listed and the tracked beliefs at each checkpoint.

import type { PanelComponents, PanelProps } from '../../../../view-ui/src/panel-kit.js';
import type { ProbeDetail } from '../protocol/records.js';

const key = (p: { holder: string[]; object: string; container: string }) => `${p.holder.join(' > ')}: ${p.object} in ${p.container}`;

function Variants({ data: d }: PanelProps<ProbeDetail>) {
  return (
    <div class="card protocol probe">
      <h3>
        {d.family} probe of {d.baseSuite}/{d.baseId} · {d.variants.filter((v) => v.correct).length} of {d.variants.length} variants right
      </h3>
      {d.variants.length > 0 && (
        <table class="probe-variants">
          <thead>
            <tr>
              <th />
              {d.variants.map((v) => (
                <th key={v.name} class="probe-variant">
                  {v.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th>story</th>
              {d.variants.map((v) => (
                <td key={v.name}>
                  <pre>{v.context || '(none)'}</pre>
                </td>
              ))}
            </tr>
            <tr>
              <th>question</th>
              {d.variants.map((v) => (
                <td key={v.name}>{v.question}</td>
              ))}
            </tr>
            <tr>
              <th>options</th>
              {d.variants.map((v) => (
                <td key={v.name}>
                  {v.presented.map((o) => (
                    <div key={o.label}>
                      {o.label}. {o.text}
                    </div>
                  ))}
                </td>
              ))}
            </tr>
            <tr>
              <th>expected</th>
              {d.variants.map((v) => (
                <td key={v.name}>
                  {v.expectedLabel}. {v.expectedText}
                  {v.flips !== undefined && v.kind !== 'original' ? (v.flips ? ' (flips)' : ' (holds)') : ''}
                </td>
              ))}
            </tr>
            <tr>
              <th>answer</th>
              {d.variants.map((v) => (
                <td key={v.name} class={`probe-answer ${v.correct ? 'ok' : 'bad'}`}>
                  {v.parsed ? `${v.parsed}. ${v.chosenText}` : 'no option read'}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      )}
      {d.lengthOnly && (
        <p>
          answer-length-only baseline: the answer is{' '}
          {d.lengthOnly.longest
            ? 'the unique longest option'
            : d.lengthOnly.shortest
              ? 'the unique shortest option'
              : 'neither the longest nor the shortest option'}
        </p>
      )}
      {(d.checkpoints ?? []).map((c) => {
        const listed = new Set((c.listed ?? []).map(key));
        return (
          <div key={c.sentences} class="probe-checkpoint">
            <h4>after {c.sentences} sentences</h4>
            {c.listed === null && <p class="bad">no belief list could be read from the reply</p>}
            <table>
              <thead>
                <tr>
                  <th>tracked belief</th>
                  <th>true</th>
                  <th>listed</th>
                </tr>
              </thead>
              <tbody>
                {c.gold.map((g) => (
                  <tr key={key(g)}>
                    <td>{key(g)}</td>
                    <td>{g.true ? 'yes' : 'no'}</td>
                    <td class={listed.has(key(g)) ? 'ok' : 'bad'}>{listed.has(key(g)) ? 'listed' : 'missed'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </div>
  );
}

/** The probes study's panels, by protocol. */
export const panels: PanelComponents = { probe: Variants };
