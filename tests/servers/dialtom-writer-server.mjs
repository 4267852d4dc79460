// A real HTTP server (OpenAI chat completions) for the DialToM item-writing tests, run as a child
// process. It answers the paper's writing prompts (templates/dialtom-write-*.yaml) by their first words:
//   states ("Assume you are a ..."): four numbered answers "N. State: PREFIX ... answer N (H)", H a
//     hash of the conversation; model "writer-short-once" gives two answers for Belief until it
//     is asked again (a follow-up turn in the messages);
//   trajectory ("Given the following conversation ..."): one line per "speaker: {dialogue k}" line
//     of the prompt's format, naming the first distractor state;
//   counterfactual ("... generating counterfactual statements."): "Counterfactual: PREFIX the
//     opposite of: STATE", STATE the given one without its prefix;
//   summary ("Generate a summary ..."): 12 words; model "summ-long" 60 words until asked again,
//     then 20; model "summ-stubborn" always 60;
//   anything else (a multiple-choice prompt): "A".
// GET /stats returns { requests, byModel, prompts } (prompts: the last 200 requests' messages).
// On start it prints {"port": N} as its first line.

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

const stats = { requests: 0, byModel: {}, prompts: [] };
const hash = (s) => createHash('sha256').update(s).digest('hex').slice(0, 6);
const words = (n, tag) => Array.from({ length: n }, (_, i) => (i === 0 ? `Summary${tag}` : `w${i}`)).join(' ');

function reply(model, messages) {
  const prompt = messages[0].content;
  const askedAgain = messages.some((m) => m.role === 'assistant');
  if (prompt.startsWith('Assume you are a')) {
    const state = /Answer the following questions for the (\w+) state\./.exec(prompt)[1];
    const prefix = prompt
      .trim()
      .split('\n')
      .at(-1)
      .slice(state.length + 2);
    const h = hash(prompt.split('The current state of')[1]);
    const n = model === 'writer-short-once' && state === 'Belief' && !askedAgain ? 2 : 4;
    return Array.from({ length: n }, (_, i) => `${i + 1}. ${state}: ${prefix} ${state.toLowerCase()} answer ${i + 1} (${h})`).join('\n');
  }
  if (prompt.startsWith('Given the following conversation between two agents:')) {
    const distractor = prompt.split('for the following mental state:\n')[1].split('\n')[0];
    const format = prompt.split('Format:\n')[1].split('\n');
    return format.map((line, k) => `${line.split(':')[0]}: alternative line ${k + 1} for "${distractor}"`).join('\n');
  }
  if (prompt.includes('generating counterfactual statements.')) {
    const prefix = /strictly follow the structure "([^"]+)"/.exec(prompt)[1];
    const current = /\nMental State: (.*)\n/.exec(prompt)[1];
    return `Counterfactual: ${prefix} the opposite of: ${current.slice(prefix.length).trim()}`;
  }
  if (prompt.startsWith('Generate a summary of the conversation context in less than 50 words.')) {
    const tag = hash(prompt);
    if (model === 'summ-stubborn' || (model === 'summ-long' && !askedAgain)) return words(60, tag);
    return words(model === 'summ-long' ? 20 : 12, tag);
  }
  return 'A';
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      return res.end(JSON.stringify(stats));
    }
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const messages = body.messages.map((m) => ({
      role: m.role,
      content: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('\n'),
    }));
    stats.requests++;
    stats.byModel[body.model] = (stats.byModel[body.model] ?? 0) + 1;
    stats.prompts.push({ model: body.model, messages });
    if (stats.prompts.length > 200) stats.prompts.shift();
    const text = reply(
      body.model,
      messages.filter((m) => m.role !== 'system'),
    );
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
