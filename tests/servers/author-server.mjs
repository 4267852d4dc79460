// A real HTTP server (OpenAI chat completions) for `mindscope embodied author` tests, run as a
// child process. The author model ("author") answers draft k (from "(Draft k of n.)") with, in
// turn: a valid task, an unsolvable one (turn limit 1), a reply that is not JSON. Without seed
// tasks in the prompt it claims depth 2 for a depth-1 goal. Judges answer with criterion scores:
// "judge-good" 0.8 on every criterion; "judge-harsh" 0.8 but secret_quality 0.3.
// The revising author ("author-fix") answers draft k with, in turn: the valid task with no secret
// for agent_1, the unsolvable task, the valid task claiming depth 2. Asked to revise (its previous
// reply and the feedback in the messages), it starts from its previous draft and fixes only what
// the feedback names: the missing secret, the claimed depth, the council's secret_quality fix
// (adds a "Fact:" secret); the unsolvable task it never fixes. "judge-fact" scores secret_quality
// 0.3 with a required fix (criterion-keyed fixes) until agent_0 has a "Fact:" secret.
// GET /stats returns request counts by model. On start it prints {"port": N} as its first line.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const drafts = JSON.parse(readFileSync(new URL('../fixtures/embodied-author-drafts.json', import.meta.url), 'utf8'));
const CRITERIA = [
  'agent_necessity',
  'secret_quality',
  'public_private_grounding',
  'narrative_consistency',
  'goal_relevance',
  'mechanic_utilization',
  'formal_goal_quality',
  'task_interdependence',
  'subgoal_tension',
];
const byModel = {};

function authorReply(prompt) {
  const k = Number(/\(Draft (\d+) of \d+\.\)/.exec(prompt)?.[1] ?? 1);
  const seeded = prompt.includes('Seed task 1:');
  const kind = (k - 1) % 3;
  if (kind === 2) return 'Here is a task: {"task_id": "broken", "title": ';
  const task = structuredClone(kind === 0 ? drafts.valid : drafts.unsolvable);
  task.task_id = `${task.task_id}-${k}`;
  if (!seeded) task.tom_level = 2;
  return `\`\`\`json\n${JSON.stringify(task, null, 2)}\n\`\`\``;
}

const SECRET_FIX = 'state a fact agent_0 knows, not an instruction';

function authorFixReply(messages) {
  const k = Number(/\(Draft (\d+) of \d+[.,]/.exec(messages[0].content)?.[1] ?? 1);
  const previous = messages.findLast((m) => m.role === 'assistant');
  let task;
  if (previous) {
    task = JSON.parse(/```json\n([\s\S]*)\n```/.exec(previous.content)[1]);
    const feedback = messages.at(-1).content;
    if (feedback.includes('secrets: agent_1 has no secret')) task.agent_secrets.agent_1 = drafts.valid.agent_secrets.agent_1;
    if (feedback.includes('K-depth: the task claims 2 but depth 1 was requested')) task.tom_level = 1;
    if (feedback.includes(`required fix: secret_quality: ${SECRET_FIX}`))
      task.agent_secrets.agent_0.push('Fact: table_23 is in hallway_1.');
  } else {
    const kind = (k - 1) % 3;
    task = structuredClone(kind === 1 ? drafts.unsolvable : drafts.valid);
    task.task_id = `authored-fix-${k}`;
    if (kind === 0) task.agent_secrets.agent_1 = [];
    if (kind === 2) task.tom_level = 2;
  }
  return `\`\`\`json\n${JSON.stringify(task, null, 2)}\n\`\`\``;
}

function judgeReply(model, prompt) {
  const scores = Object.fromEntries(CRITERIA.map((c) => [c, 0.8]));
  if (model === 'judge-harsh') scores.secret_quality = 0.3;
  if (model === 'judge-fact' && !prompt.includes('Fact: ')) {
    scores.secret_quality = 0.3;
    return JSON.stringify({ ...scores, fixes: { secret_quality: SECRET_FIX } });
  }
  return JSON.stringify({ ...scores, fixes: model === 'judge-harsh' ? ['add a secret that states a fact, not an instruction'] : [] });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      // No keep-alive: the test's blocking spawnSync would outlive the idle socket.
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      return res.end(JSON.stringify({ byModel }));
    }
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const model = body.model;
    byModel[model] = (byModel[model] ?? 0) + 1;
    const prompt = body.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    const text =
      model === 'author' ? authorReply(prompt) : model === 'author-fix' ? authorFixReply(body.messages) : judgeReply(model, prompt);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 },
      }),
    );
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
