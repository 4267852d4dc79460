// The embodied part of a run report: functional and literal metrics per subject and scope,
// failure-mode counts with examples, and episode transcripts turn by turn (collapsed).

import type { EpisodeSummary } from '../analysis/index.js';
import { escapeHtml } from '../../../report/index.js';

const pct = (x: number | null) => (x === null || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`);
/** Pass@k or Pass^k over the planned attempts, starred when some are missing (counted as non-passes). */
const pass = (r: { partial: boolean }, x: number | null) => `${pct(x)}${r.partial && x !== null ? '*' : ''}`;

/** The run report's embodied section: metrics per subject and scope, and the failure modes. */
export function renderEpisodeSection(s: EpisodeSummary, opts: { transcriptsPerSubject?: number } = {}): string {
  const perSubject = opts.transcriptsPerSubject ?? 3;
  const row = (cells: string[]) => `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  const k = s.metrics[0]?.k ?? 3;
  const metrics = s.metrics
    .flatMap((m) =>
      m.scopes.map((x) =>
        row([
          m.subject,
          x.scope,
          String(x.tasks),
          String(x.runs),
          `${pct(x.functional.avg)} ± ${pct(x.functional.se)} [${pct(x.functional.lower)}, ${pct(x.functional.upper)}]`,
          pass(x.functional, x.functional.passAtK),
          pass(x.functional, x.functional.passHatK),
          `${pct(x.literal.avg)} ± ${pct(x.literal.se)} [${pct(x.literal.lower)}, ${pct(x.literal.upper)}]`,
          pass(x.literal, x.literal.passHatK),
          pct(x.probeAccuracy),
          `${pct(x.divergentAccuracy)} (${x.divergentProbes})`,
          pct(x.gap),
        ]),
      ),
    )
    .join('');
  const modes = Object.keys(s.failures[0]?.counts ?? {});
  const failures = s.failures
    .map((f) => row([f.subject, String(f.failed), ...modes.map((m) => String(f.counts[m as keyof typeof f.counts]))]))
    .join('');
  const examples = s.failures
    .flatMap((f) =>
      f.examples.map(
        (e) =>
          `<li><b>${escapeHtml(f.subject)}</b>, ${escapeHtml(e.taskId)} #${e.replicate}, ${escapeHtml(e.mode)}: ${escapeHtml(e.explanation)}${e.turns.length ? `<br><code>${e.turns.map((t) => escapeHtml(`turn ${t.round} ${t.agent}: ${t.action ?? '(no action)'} → ${t.observation}`)).join('<br>')}</code>` : ''}</li>`,
      ),
    )
    .join('');
  const subjects = [...new Set(s.episodes.map((e) => e.subject))];
  const transcripts = subjects
    .map((subject) =>
      s.episodes
        .filter((e) => e.subject === subject)
        .slice(0, perSubject)
        .map((e) => {
          const turns = e.detail.turns
            .map((t) => row([String(t.round), t.agent, t.action ?? '(none)', t.observation, (t.conveyed ?? []).join('; ')]))
            .join('');
          const probes = e.detail.probes
            .map((p) =>
              row([
                p.agent,
                p.about ?? '(itself)',
                p.question,
                p.answer ?? '(unreadable)',
                p.expected,
                p.worldAnswer ?? '',
                p.correct ? 'right' : 'wrong',
              ]),
            )
            .join('');
          return `<details><summary>${escapeHtml(subject)} · ${escapeHtml(e.taskId)} #${e.replicate} · ${e.detail.functional ? 'solved' : 'failed'} in ${e.detail.rounds} round(s) · probes ${e.detail.literal.correct}/${e.detail.literal.total}</summary>
<table><tr><th>turn</th><th>agent</th><th>action</th><th>observation</th><th>knowledge conveyed</th></tr>${turns}</table>
${probes ? `<table><tr><th>asked</th><th>about</th><th>question</th><th>answer</th><th>partner's belief</th><th>world</th><th></th></tr>${probes}</table>` : ''}</details>`;
        })
        .join('\n'),
    )
    .join('\n');
  const legacy = s.metrics.reduce((n, m) => n + (m.scopes.find((x) => x.scope === 'overall')?.legacyRuns ?? 0), 0);
  const notes = [
    "<p>Literal probes ask an agent what a partner thinks or knows; the right answer is the partner's belief as the episode tracked it. “Belief ≠ world” is the accuracy on probes whose right answer is not what the world shows (the partner's belief false or missing), with their number: reporting the world there is wrong.</p>",
    s.metrics.some((m) => m.scopes.some((x) => x.functional.partial || x.literal.partial))
      ? `<p>* Partial: some of the ${k} planned attempts per task are missing (the trial failed, or never ran); Pass@${k} and Pass^${k} count them as non-passes. <code>mindscope embodied results</code> gives the figures over the attempts made.</p>`
      : '',
    legacy
      ? `<p>${legacy} run(s) were stored with the earlier literal probes (the agent asked whether the fact itself held, graded against the world); their literal scores are left out.</p>`
      : '',
  ].join('');
  return `${notes}<table><tr><th>subject</th><th>scope</th><th>tasks</th><th>runs</th><th>functional Avg ± SE [95% CI over tasks]</th><th>Pass@${k}</th><th>Pass^${k}</th><th>literal Avg ± SE [95% CI over tasks]</th><th>literal Pass^${k}</th><th>probes right</th><th>belief ≠ world right (n)</th><th>act-report gap</th></tr>${metrics}</table>
<h3>Failure modes</h3>
<table><tr><th>subject</th><th>failed episodes</th>${modes.map((m) => `<th>${escapeHtml(m)}</th>`).join('')}</tr>${failures}</table>
<ul>${examples}</ul>
<h3>Transcripts</h3>
${transcripts}`;
}
