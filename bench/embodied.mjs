// bench/embodied: generate-and-verify time for 300 tasks (six families, depth 1-4, 2-6 agents)
// and the pool composition; verifier time per task by agent count and K-depth (median, worst; wall
// and CPU, with the load average; and six extra tasks at 6 agents, depth 5); world
// throughput (agent-actions per second) replaying reference
// plans, with and without who-knows-what tracking; and the reference teams on 100 generated
// tasks x 3 trials through the runner (functional and literal Avg, Pass@3, Pass^3).
//
//   npm run build && node bench/embodied.mjs [--tasks 300] [--team-tasks 100 (0: skip)] [--smoke]
//
// --smoke: 12 tasks, one stress task, 0.2 s of replay, 4 tasks for the teams: a check that the
// bench runs; it records nothing.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordPerformance } from './performance-table.mjs';

const m = {
  ...(await import('../dist/index.js')),
  ...(await import('../dist/studies/enacttom/index.js')),
};
const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const smoke = process.argv.includes('--smoke');
const N = arg('--tasks', smoke ? 12 : 300);
const TEAM_TASKS = arg('--team-tasks', smoke ? 4 : 100);
const STRESS_TASKS = smoke ? 1 : 6;
const REPLAY_MS = smoke ? 200 : 2000;

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const cpuSince = (c0) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e3;
};

// 1. Generate and verify (wall time, and this process's CPU time, which load distorts less).
let t = performance.now();
let c0 = process.cpuUsage();
const generated = m.generateTasks({ n: N, seed: 2026 });
const genSeconds = (performance.now() - t) / 1000;
const genCpu = cpuSince(c0) / 1000;
const attempts = generated.reduce((s, g) => s + g.attempts, 0);
console.log(
  `generate-and-verify: ${N} tasks in ${genSeconds.toFixed(1)} s, ${genCpu.toFixed(1)} s of CPU (${attempts} drafts verified; target under 60 s); load ${load()}`,
);
console.log(m.formatPoolComposition(m.poolComposition(generated.map((g) => g.task))));
const rows = [
  {
    figure: `generate and verify ${N} tasks (six families, depth 1-4, 2-6 agents); limit 60 s`,
    value: `${genSeconds.toFixed(1)} s (${genCpu.toFixed(1)} s CPU, ${attempts} drafts)`,
    peer: '60 s',
    ratio: genSeconds / 60,
  },
];

// 2. Verifier time per accepted task, by agent count and depth: wall and CPU milliseconds.
const cells = new Map();
for (const g of generated) {
  c0 = process.cpuUsage();
  const s = performance.now();
  const v = m.verifyTask(g.task);
  const ms = performance.now() - s;
  const cpu = cpuSince(c0);
  const key = `${g.task.agents.length} agents, depth ${v.kDepth}`;
  cells.set(key, [...(cells.get(key) ?? []), { ms, cpu, capped: v.solvable === 'undecided' || v.calibrates === 'undecided' }]);
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const all = [...cells.values()].flat();
const wall = all.map((x) => x.ms);
const cpu = all.map((x) => x.cpu);
console.log(
  `verifier: median ${median(wall).toFixed(1)} ms (CPU ${median(cpu).toFixed(1)} ms), worst ${Math.max(...wall).toFixed(1)} ms (CPU ${Math.max(...cpu).toFixed(1)} ms) over ${all.length} tasks, ${all.filter((x) => x.capped).length} undecided at the node cap (targets: median < 100 ms, worst < 2 s); load ${load()}`,
);
rows.push(
  {
    figure: `verifier, median over ${all.length} tasks; limit 100 ms`,
    value: `${median(wall).toFixed(1)} ms (CPU ${median(cpu).toFixed(1)} ms)`,
    peer: '100 ms',
    ratio: median(wall) / 100,
  },
  {
    figure: `verifier, worst of ${all.length} tasks; limit 2 s`,
    value: `${Math.max(...wall).toFixed(0)} ms (CPU ${Math.max(...cpu).toFixed(0)} ms; ${all.filter((x) => x.capped).length} undecided)`,
    peer: '2,000 ms',
    ratio: Math.max(...wall) / 2000,
  },
);
for (const [key, xs] of [...cells].sort())
  console.log(
    `  ${key}: n ${xs.length}, median ${median(xs.map((x) => x.ms)).toFixed(1)} ms (CPU ${median(xs.map((x) => x.cpu)).toFixed(1)}), worst ${Math.max(...xs.map((x) => x.ms)).toFixed(1)} ms (CPU ${Math.max(...xs.map((x) => x.cpu)).toFixed(1)})`,
  );

// 2b. Stress: six agents at K-depth 5, beyond the pool's 1-4 (six generated tasks, verified again).
{
  const stress = m.generateTasks({ n: STRESS_TASKS, seed: 2026, depth: 5, agents: 6 }).map((g) => {
    const c = process.cpuUsage();
    const s = performance.now();
    m.verifyTask(g.task);
    return { ms: performance.now() - s, cpu: cpuSince(c) };
  });
  rows.push({
    figure: 'verifier, 6 agents at depth 5 (six tasks), worst; limit 2 s',
    value: `${Math.max(...stress.map((x) => x.ms)).toFixed(0)} ms (median ${median(stress.map((x) => x.ms)).toFixed(1)} ms)`,
    peer: '2,000 ms',
    ratio: Math.max(...stress.map((x) => x.ms)) / 2000,
  });
  console.log(
    `  stress, 6 agents, depth 5: n ${stress.length}, median ${median(stress.map((x) => x.ms)).toFixed(1)} ms (CPU ${median(stress.map((x) => x.cpu)).toFixed(1)}), worst ${Math.max(...stress.map((x) => x.ms)).toFixed(1)} ms (CPU ${Math.max(...stress.map((x) => x.cpu)).toFixed(1)}); load ${load()}`,
  );
}

// 3. World throughput: replay each task's plan many times.
const plans = generated.map((g) => ({ task: g.task, plan: m.verifyTask(g.task).plan }));
for (const tracking of [false, true]) {
  let actions = 0;
  t = performance.now();
  while (performance.now() - t < REPLAY_MS) {
    for (const { task, plan } of plans) {
      const search = new m.TaskSearch(task);
      const ws = search.world.initialState();
      const ks = m.KnowledgeState.initial(search.universe);
      for (const step of plan) {
        const agent = search.world.agents.indexOf(step.agent);
        if (tracking) search.step(ws, ks, agent, step.action);
        else search.world.apply(ws, agent, step.action);
        actions++;
      }
    }
  }
  const seconds = (performance.now() - t) / 1000;
  rows.push({
    figure: `world throughput replaying the plans${tracking ? ', with who-knows-what tracking' : ''}; target 50,000 agent-actions/s`,
    value: `${Math.round(actions / seconds).toLocaleString('en')}/s`,
    peer: '50,000/s',
    ratio: actions / seconds / 50000,
  });
  console.log(
    `world throughput${tracking ? ' with knowledge tracking' : ''}: ${Math.round(actions / seconds).toLocaleString('en')} agent-actions/s (target 50,000)`,
  );
}

// 4. Reference teams through the runner (skipped with --team-tasks 0).
if (TEAM_TASKS === 0) {
  recordPerformance('embodied', rows);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-embodied-'));
const file = join(dir, 'tasks.json');
writeFileSync(file, JSON.stringify(generated.slice(0, TEAM_TASKS).map((g) => g.json)));
const store = await m.openStore(join(dir, 'm.db'));
t = performance.now();
await m.evaluate(
  { suites: ['enacttom'], data: file, models: ['agent:planner', 'agent:silent', 'agent:broadcast', 'agent:random'], trials: 3 },
  { store, runId: 'teams' },
);
const { metrics, failures } = await m.summarizeEpisodes(store, 'teams');
const teamSeconds = (performance.now() - t) / 1000;
console.log(`reference teams on ${TEAM_TASKS} tasks x 3 trials (${teamSeconds.toFixed(1)} s):`);
rows.push({
  figure: `the four reference teams on ${TEAM_TASKS} generated tasks x 3 trials through the runner`,
  value: `${teamSeconds.toFixed(1)} s (${TEAM_TASKS * 12} episodes)`,
});
const pct = (x) => (x === null || Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);
for (const s of metrics) {
  const o = s.scopes.find((x) => x.scope === 'overall');
  console.log(
    `  ${s.subject}: functional Avg ${pct(o.functional.avg)} ± ${pct(o.functional.se)}, Pass@3 ${pct(o.functional.passAtK)}, Pass^3 ${pct(o.functional.passHatK)}; literal Avg ${pct(o.literal.avg)}, Pass@3 ${pct(o.literal.passAtK)}, Pass^3 ${pct(o.literal.passHatK)}`,
  );
}
for (const f of failures)
  console.log(
    `  failures ${f.subject}: ${f.failed} failed episodes; ${
      Object.entries(f.counts)
        .filter(([, n]) => n)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
  );
await store.close();
recordPerformance('embodied', rows);
