// The three providers' batch APIs for model-server.mjs, on their real wire formats:
//   OpenAI:    POST /v1/files (multipart, purpose=batch), POST /v1/batches, GET /v1/batches/ID,
//              GET /v1/files/ID/content (output and error files, JSONL)
//   Anthropic: POST /v1/messages/batches, GET /v1/messages/batches/ID, GET .../ID/results (JSONL)
//   Gemini:    POST /v1beta/models/M:batchGenerateContent (inlined requests), GET /v1beta/batches/ID
// Each call of a batch is answered by this same server's synchronous endpoint (a loopback
// request marked x-batch-internal, which /stats does not count), so replies and injected faults
// are exactly the synchronous ones; a call whose synchronous answer is not 200 comes back as an
// errored entry. A batch stays in progress for BATCH_DELAY_MS (default 300) after its creation.
// GET /v1/batches, GET /v1/messages/batches and GET /v1beta/batches list the batches, newest
// first (OpenAI with their metadata, Gemini with their display names, Anthropic's with neither,
// as the real API; a listed batch past its delay has ended, as if polled). BATCH_CREATE_DELAY_MS
// delays the answer to a creation. GET /batch-stats: batches created per API, custom ids
// submitted, ids submitted twice. POST /batch-extra/anthropic ({ requests, delayMs? }) creates an
// Anthropic batch outside those counts: someone else's batch, in the same workspace.

const delayMs = Number(process.env.BATCH_DELAY_MS ?? 300);
// How long the answer to a batch creation takes (the batch exists from the start): a client killed meanwhile never learns its id.
const createDelayMs = Number(process.env.BATCH_CREATE_DELAY_MS ?? 0);
const later = (fn) => (createDelayMs ? setTimeout(fn, createDelayMs) : fn());
const files = new Map();
const batches = new Map();
const stats = { created: { openai: 0, anthropic: 0, google: 0 }, submitted: 0, duplicates: 0, batchSizes: [] };
const seen = new Set();
let counter = 0;

const AUTH_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'anthropic-version'];

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
  return true;
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** The parts of a multipart/form-data body, by field name. */
function multipart(buffer, contentType) {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType ?? '')?.[2];
  const parts = {};
  if (!boundary) return parts;
  for (const chunk of buffer.toString('utf8').split(`--${boundary}`)) {
    const sep = chunk.indexOf('\r\n\r\n');
    if (sep < 0) continue;
    const name = /name="([^"]+)"/.exec(chunk.slice(0, sep))?.[1];
    if (name) parts[name] = chunk.slice(sep + 4).replace(/\r\n$/, '');
  }
  return parts;
}

function count(api, ids) {
  stats.created[api]++;
  stats.batchSizes.push(ids.length);
  for (const id of ids) {
    stats.submitted++;
    if (seen.has(id)) stats.duplicates++;
    seen.add(id);
  }
}

/** Answer one call through this server's synchronous endpoint. */
async function callSync(port, path, body, headers) {
  const forwarded = { 'content-type': 'application/json', 'x-batch-internal': '1' };
  for (const h of AUTH_HEADERS) if (headers[h]) forwarded[h] = headers[h];
  const r = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: forwarded, body: JSON.stringify(body) });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { error: { message: `not JSON: ${text.slice(0, 80)}` } };
  }
  return { status: r.status, body: json };
}

/** Run a batch's calls once it is due (the first poll after BATCH_DELAY_MS). */
async function settle(b, port) {
  if (Date.now() < b.readyAt) return false;
  b.settled ??= Promise.all(b.calls.map((c) => callSync(port, c.path, c.body, b.headers))).then((out) => {
    b.results = out;
  });
  await b.settled;
  return true;
}

function openAiBatch(b) {
  const done = b.results !== undefined;
  const failed = done ? b.results.filter((r) => r.status !== 200).length : 0;
  return {
    id: b.id,
    object: 'batch',
    endpoint: b.endpoint,
    errors: null,
    input_file_id: b.inputFileId,
    completion_window: '24h',
    status: done ? 'completed' : 'in_progress',
    output_file_id: done ? `${b.id}-output` : null,
    error_file_id: done && failed ? `${b.id}-errors` : null,
    created_at: Math.floor(b.created / 1000),
    in_progress_at: Math.floor(b.created / 1000),
    completed_at: done ? Math.floor(Date.now() / 1000) : null,
    request_counts: { total: b.calls.length, completed: done ? b.calls.length - failed : 0, failed },
    metadata: b.metadata ?? null,
  };
}

function anthropicBatch(b, port) {
  const done = b.results !== undefined;
  const errored = done ? b.results.filter((r) => r.status !== 200).length : 0;
  return {
    id: b.id,
    type: 'message_batch',
    processing_status: done ? 'ended' : 'in_progress',
    request_counts: {
      processing: done ? 0 : b.calls.length,
      succeeded: done ? b.calls.length - errored : 0,
      errored,
      canceled: 0,
      expired: 0,
    },
    ended_at: done ? new Date().toISOString() : null,
    created_at: new Date(b.created).toISOString(),
    expires_at: new Date(b.created + 86_400_000).toISOString(),
    archived_at: null,
    cancel_initiated_at: null,
    results_url: done ? `http://127.0.0.1:${port}/v1/messages/batches/${b.id}/results` : null,
  };
}

function geminiOperation(b) {
  const done = b.results !== undefined;
  const metadata = {
    '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch',
    model: `models/${b.model}`,
    displayName: b.displayName,
    name: b.id,
    state: done ? 'BATCH_STATE_SUCCEEDED' : 'BATCH_STATE_RUNNING',
    createTime: new Date(b.created).toISOString(),
    batchStats: { requestCount: String(b.calls.length), pendingRequestCount: String(done ? 0 : b.calls.length) },
  };
  if (done) {
    metadata.output = {
      inlinedResponses: {
        inlinedResponses: b.results.map((r, i) =>
          r.status === 200
            ? { response: r.body, metadata: b.calls[i].metadata }
            : { error: { code: r.status, message: r.body?.error?.message ?? 'error' }, metadata: b.calls[i].metadata },
        ),
      },
    };
  }
  return { name: b.id, metadata, done, ...(done ? { response: { '@type': metadata['@type'], ...metadata } } : {}) };
}

/** Handle a batch-API request; returns false for any other request. */
export function handleBatch(req, res, port) {
  const url = (req.url ?? '').split('?')[0];
  const route = (method, re) => req.method === method && re.exec(url);
  let m;
  if (route('GET', /^\/batch-stats$/)) return send(res, 200, stats);
  if (route('POST', /^\/v1\/files$/)) {
    readBody(req).then((buf) => {
      const parts = multipart(buf, req.headers['content-type']);
      if (parts.purpose !== 'batch' || parts.file === undefined)
        return send(res, 400, { error: { message: 'need purpose=batch and a file' } });
      const id = `file-${++counter}`;
      files.set(id, parts.file);
      send(res, 200, {
        id,
        object: 'file',
        bytes: Buffer.byteLength(parts.file),
        created_at: 0,
        filename: 'batch.jsonl',
        purpose: 'batch',
        status: 'processed',
      });
    });
    return true;
  }
  if (route('POST', /^\/v1\/batches$/)) {
    readBody(req).then((buf) => {
      const body = JSON.parse(buf.toString('utf8'));
      const text = files.get(body.input_file_id);
      if (text === undefined) return send(res, 404, { error: { message: `no file ${body.input_file_id}` } });
      const lines = text
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l));
      if (lines.some((l) => l.url !== body.endpoint || l.method !== 'POST'))
        return send(res, 400, { error: { message: 'every line must POST to the batch endpoint' } });
      const b = {
        id: `batch_${++counter}`,
        endpoint: body.endpoint,
        inputFileId: body.input_file_id,
        metadata: body.metadata,
        created: Date.now(),
        readyAt: Date.now() + delayMs,
        headers: req.headers,
      };
      b.calls = lines.map((l) => ({ customId: l.custom_id, path: l.url, body: l.body }));
      count(
        'openai',
        lines.map((l) => l.custom_id),
      );
      batches.set(b.id, b);
      later(() => send(res, 200, openAiBatch(b)));
    });
    return true;
  }
  if (route('GET', /^\/v1\/batches$/)) {
    const data = [...batches.values()]
      .filter((b) => b.endpoint)
      .reverse()
      .map(openAiBatch);
    return send(res, 200, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false });
  }
  if (route('GET', /^\/v1beta\/batches$/)) {
    return send(res, 200, {
      operations: [...batches.values()]
        .filter((b) => b.model)
        .reverse()
        .map(geminiOperation),
    });
  }
  if ((m = route('GET', /^\/v1\/batches\/([^/]+)$/))) {
    const b = batches.get(m[1]);
    if (!b) return send(res, 404, { error: { message: 'no such batch' } });
    settle(b, port).then(() => send(res, 200, openAiBatch(b)));
    return true;
  }
  if ((m = route('GET', /^\/v1\/files\/([^/]+)\/content$/))) {
    const id = m[1];
    const b = batches.get(id.replace(/-(output|errors)$/, ''));
    if (!b?.results) return send(res, 404, { error: { message: 'no such file' } });
    const wantErrors = id.endsWith('-errors');
    const lines = b.calls
      .map((c, i) => ({ c, r: b.results[i] }))
      .filter(({ r }) => (r.status === 200) !== wantErrors)
      .map(({ c, r }) =>
        JSON.stringify({
          id: `req_${c.customId.slice(0, 8)}`,
          custom_id: c.customId,
          response: { status_code: r.status, request_id: 'r', body: r.body },
          error: null,
        }),
      );
    send(res, 200, `${lines.join('\n')}\n`, 'application/jsonl');
    return true;
  }
  if ((m = route('POST', /^\/(v1\/messages\/batches|batch-extra\/anthropic)$/))) {
    const extra = m[1] !== 'v1/messages/batches';
    readBody(req).then((buf) => {
      const body = JSON.parse(buf.toString('utf8'));
      const wait = extra && body.delayMs !== undefined ? body.delayMs : delayMs;
      const b = { id: `msgbatch_${++counter}`, created: Date.now(), readyAt: Date.now() + wait, headers: req.headers, anthropic: true };
      b.calls = body.requests.map((r) => ({ customId: r.custom_id, path: '/v1/messages', body: r.params }));
      batches.set(b.id, b);
      if (extra) return send(res, 200, { id: b.id });
      count(
        'anthropic',
        body.requests.map((r) => r.custom_id),
      );
      later(() => send(res, 200, anthropicBatch(b, port)));
    });
    return true;
  }
  if (route('GET', /^\/v1\/messages\/batches$/)) {
    const listed = [...batches.values()].filter((b) => b.anthropic).reverse();
    Promise.all(listed.map((b) => settle(b, port))).then(() => {
      const data = listed.map((b) => anthropicBatch(b, port));
      send(res, 200, { data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false });
    });
    return true;
  }
  if ((m = route('GET', /^\/v1\/messages\/batches\/([^/]+)$/))) {
    const b = batches.get(m[1]);
    if (!b) return send(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'no such batch' } });
    settle(b, port).then(() => send(res, 200, anthropicBatch(b, port)));
    return true;
  }
  if ((m = route('GET', /^\/v1\/messages\/batches\/([^/]+)\/results$/))) {
    const b = batches.get(m[1]);
    if (!b?.results) return send(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'no results' } });
    const lines = b.calls.map((c, i) => {
      const r = b.results[i];
      const result =
        r.status === 200
          ? { type: 'succeeded', message: r.body }
          : {
              type: 'errored',
              error: { type: 'error', error: { type: 'api_error', message: r.body?.error?.message ?? `HTTP ${r.status}` } },
            };
      return JSON.stringify({ custom_id: c.customId, result });
    });
    send(res, 200, `${lines.join('\n')}\n`, 'application/binary');
    return true;
  }
  if ((m = route('POST', /^\/v1beta\/models\/([^:]+):batchGenerateContent$/))) {
    const model = decodeURIComponent(m[1]);
    readBody(req).then((buf) => {
      const body = JSON.parse(buf.toString('utf8'));
      const requests = body.batch?.inputConfig?.requests?.requests ?? [];
      const b = {
        id: `batches/b${++counter}`,
        model,
        displayName: body.batch?.displayName,
        created: Date.now(),
        readyAt: Date.now() + delayMs,
        headers: req.headers,
      };
      b.calls = requests.map((r) => {
        const { model: _model, ...request } = r.request;
        return {
          customId: r.metadata?.key,
          metadata: r.metadata,
          path: `/v1beta/models/${encodeURIComponent(model)}:generateContent`,
          body: request,
        };
      });
      count(
        'google',
        b.calls.map((c) => c.customId),
      );
      batches.set(b.id, b);
      later(() => send(res, 200, geminiOperation(b)));
    });
    return true;
  }
  if ((m = route('GET', /^\/v1beta\/(batches\/[^/]+)$/))) {
    const b = batches.get(m[1]);
    if (!b) return send(res, 404, { error: { code: 404, message: 'no such batch', status: 'NOT_FOUND' } });
    settle(b, port).then(() => send(res, 200, geminiOperation(b)));
    return true;
  }
  return false;
}
