// A real HTTP server (OpenAI chat completions) that plays the tool-using author of
// `mindscope embodied author` and its judge council, run as a child process. Each author reply
// ends with one JSON tool call {"tool", "args"}; the next step is chosen from the last tool result.
//   "tool-author": inspect_scene; test_task with a broken task (the fixture's valid task with
//     turn limit 1, category cooperative, tom_level 2 when the request shows no seed task); on a
//     FAIL it fixes what the result names (the turn limit, the category, a missing private goal),
//     never the claimed depth, and tests again; on a PASS it submits (refused: not judged); judges;
//     on a judge FAIL it adds the "Fact:" secret the fix asks for and tests again; on a judge PASS
//     it submits.
//   "tool-author-hasty": first a reply with no tool call; then tests the broken task again and
//     again, fixing nothing; judges and submits once a test passes.
// Judges answer criterion scores: "judge-good" 0.8 on every criterion; "judge-harsh" 0.8 but
// secret_quality 0.3; "judge-fact" scores secret_quality 0.3 with a required fix until agent_0
// has a "Fact:" secret. GET /stats returns request counts by model. On start it prints
// {"port": N} as its first line.

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
const SECRET_FIX = 'state a fact agent_0 knows, not an instruction';
const byModel = {};

const call = (note, tool, args = {}) => `${note}\n\`\`\`json\n${JSON.stringify({ tool, args })}\n\`\`\``;

/** The task of the author's last tool call. */
function lastTask(messages) {
  const reply = messages.findLast((m) => m.role === 'assistant').content;
  return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(reply)[1]).args.task;
}

function brokenTask(request) {
  const k = Number(/\(Draft (\d+) of \d+\.\)/.exec(request)?.[1] ?? 1);
  const task = structuredClone(drafts.valid);
  task.task_id = `tool-authored-${k}`;
  task.turn_limit = 1;
  if (!request.includes('Seed task 1')) task.tom_level = 2;
  return task;
}

function fix(task, result) {
  const t = structuredClone(task);
  if (result.includes('not solvable within 1 turns')) t.turn_limit = 12;
  const cat = /category: the task is (\w+) but (\w+) was requested/.exec(result);
  if (cat) t.category = cat[2];
  if (result.includes('a mixed task needs a private goal')) {
    t.private_goals = { agent_1: '(is_open drawer_20)' };
    t.agent_secrets.agent_1 = [...t.agent_secrets.agent_1, 'Privately, you want drawer_20 to end open.'];
  }
  if (result.includes(`required fix: secret_quality: ${SECRET_FIX}`)) t.agent_secrets.agent_0.push('Fact: table_23 is in hallway_1.');
  return t;
}

function authorReply(model, messages) {
  const request = messages.find((m) => m.role === 'user').content;
  const answers = messages.filter((m) => m.role === 'assistant').length;
  const result = answers ? messages.at(-1).content : '';
  if (model === 'tool-author-hasty') {
    if (answers === 0) return 'Let me think about the scene before I call anything.';
    if (result.startsWith('test_task: PASS')) return call('It passes.', 'judge', { task: lastTask(messages) });
    if (result.startsWith('judge: PASS')) return call('Submitting.', 'submit_task', { task: lastTask(messages) });
    return call('Testing my task.', 'test_task', { task: brokenTask(request) });
  }
  if (answers === 0) return call('First, the scene.', 'inspect_scene');
  if (result.startsWith('Scene '))
    return call('Goal first: the plate on table_23, known to agent_0.', 'test_task', { task: brokenTask(request) });
  if (result.startsWith('test_task: FAIL'))
    return call('Fixing what the verifier names.', 'test_task', { task: fix(lastTask(messages), result) });
  if (result.startsWith('test_task: PASS')) return call('Submitting.', 'submit_task', { task: lastTask(messages) });
  if (result.startsWith('submit_task: REFUSED')) return call('The council first.', 'judge', { task: lastTask(messages) });
  if (result.startsWith('judge: FAIL')) return call('Applying the required fix.', 'test_task', { task: fix(lastTask(messages), result) });
  if (result.startsWith('judge: PASS')) return call('Both passed.', 'submit_task', { task: lastTask(messages) });
  return call('Again.', 'inspect_scene');
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
    const text = model.startsWith('tool-author') ? authorReply(model, body.messages) : judgeReply(model, prompt);
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
