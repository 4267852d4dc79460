// What a protocol's panel in the page is given and may use: its data and the trial (PanelProps),
// the stimulus the model saw, message content drawn safely. The built-in studies' panels
// (src/studies/*/view/panels.tsx) are written on this.

import type { ComponentType } from 'preact';
import type { TrialView } from '../../src/view/api-types.js';

type Message = NonNullable<TrialView['calls'][number]['messages']>[number];

/** What a panel component is given: the data its protocol's `record` hook built on the server, and the trial. */
export interface PanelProps<D> {
  data: D;
  trial: TrialView;
}

/** The panel components of a study, by protocol: what its panels.tsx exports as `panels`. */
// biome-ignore lint/suspicious/noExplicitAny: each protocol's component takes its own data
export type PanelComponents = Readonly<Record<string, ComponentType<PanelProps<any>>>>;

/** Only data:, http(s): and relative URLs as src; anything else (javascript:) is dropped. */
function safeUrl(url: string): string {
  return /^(data:image\/|data:video\/|https?:)/i.test(url) ? url : '';
}

/** A message's content: text as text, images and videos inline (URLs from the store are only ever used as src). */
export function Content({ content }: { content: Message['content'] }) {
  if (typeof content === 'string') return <pre>{content}</pre>;
  return (
    <>
      {content.map((part, i) =>
        part.type === 'text' ? (
          <pre key={i}>{part.text}</pre>
        ) : part.type === 'image' ? (
          <img key={i} class="inline" src={safeUrl(part.url)} alt="image sent to the model" />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: a stimulus clip has no captions
          <video key={i} class="inline" src={safeUrl(part.url)} controls />
        ),
      )}
    </>
  );
}

/** The images and videos of the first call's messages: what the model saw. */
export function Stimulus({ t }: { t: TrialView }) {
  const parts = (t.calls[0]?.messages ?? []).flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type !== 'text')));
  return parts.length ? <Content content={parts} /> : <p class="muted">no image in this trial</p>;
}
