// The leanest HTTP client the benches compare against: a POST through node:http on a keep-alive
// agent, the reply read whole and parsed as JSON, nothing else.

import { Agent, request } from 'node:http';

/** A keep-alive agent holding up to `sockets` connections, the most recently used first. */
export function keepAliveAgent(sockets) {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: 'lifo' });
}

/** POST `body` (a JSON string) to `url` with `headers`; resolves to the parsed reply. */
export function postJson(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
