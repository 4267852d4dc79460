// Who the viewer answers: only requests for the host names it serves (a page that points its
// own name at 127.0.0.1, DNS rebinding, gets nothing), from its own origin, that only read; and
// beyond loopback only when asked, with the token: through the real server, plain HTTP requests
// that set the Host header, the CLI, and Debian's Chromium following the printed URL.

import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { startViewer, VIEW_TOKEN_ENV, type Viewer } from '../src/view/index.js';
import { viewToken } from '../src/view/access-guard.js';
import { launchChromium } from './helpers/browser.js';
import { evaluate } from './helpers/evaluate.js';
import { runCli } from './helpers/run-cli.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'mindscope.js');
const TOKEN = 'test-token-0123456789abcdef';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request to 127.0.0.1:`port` with the given headers (Host included, as a browser under another name sends it). */
function get(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let db: string;
let local: Viewer;
let remote: Viewer;

beforeAll(async () => {
  db = join(mkdtempSync(join(tmpdir(), 'mindscope-view-access-')), 'm.db');
  const store = await openStore(db);
  try {
    await evaluate({ store, suites: ['generated-tom'], limit: 4, models: ['agent:oracle'], runId: 'tom' });
  } finally {
    await store.close();
  }
  local = await startViewer({ db });
  remote = await startViewer({ db, host: '0.0.0.0', allowRemote: true, token: TOKEN });
}, 60_000);

afterAll(async () => {
  await local?.close();
  await remote?.close();
});

describe('the viewer on loopback', () => {
  it('answers the loopback names with its port, and refuses any other Host (DNS rebinding) with 421', async () => {
    const p = local.port;
    for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, `LocalHost:${p}`, `[::1]:${p}`]) {
      const r = await get(p, '/api/info', { host });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toMatchObject({ location: db, backend: 'sqlite' });
    }
    for (const host of [`attacker.example:${p}`, '127.0.0.1', `127.0.0.1:${p + 1}`, `localhost.attacker.example:${p}`, `127.0.0.2:${p}`]) {
      for (const path of ['/api/info', '/api/runs', '/']) {
        const r = await get(p, path, { host });
        expect(r.status).toBe(421);
        expect(r.body).toBe('mindscope view does not serve this host name: open the URL it printed\n');
      }
    }
  });

  it('refuses requests from another origin (403) and anything but GET and HEAD (405)', async () => {
    const p = local.port;
    const host = `127.0.0.1:${p}`;
    expect((await get(p, '/api/runs', { host, origin: `http://${host}` })).status).toBe(200);
    expect((await get(p, '/api/runs', { host, origin: 'http://attacker.example' })).status).toBe(403);
    expect((await get(p, '/api/runs', { host, origin: `http://localhost:${p}` })).status).toBe(403);
    expect((await get(p, '/api/info', { host }, 'HEAD')).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await get(p, '/api/info', { host }, method);
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD');
    }
  });
});

describe('the viewer beyond loopback', () => {
  it('refuses a non-loopback address unless asked, in the library and the CLI', async () => {
    await expect(startViewer({ db, host: '0.0.0.0' })).rejects.toThrow(
      /--host 0\.0\.0\.0 is not a loopback address: .* add --allow-remote/,
    );
    const r = await runCli(['view', '--db', db, '--port', '0', '--host', '0.0.0.0']);
    expect(r.stderr).toMatch(/^mindscope: --host 0\.0\.0\.0 is not a loopback address: every transcript in the store would be served/);
    expect(r.code).toBe(1);
  });

  it('answers only with the token: ?token= once (then an HttpOnly SameSite=Strict cookie), or a Bearer header', async () => {
    const p = remote.port;
    const host = `127.0.0.1:${p}`;
    expect(remote.url).toBe(`http://127.0.0.1:${p}/?token=${TOKEN}`);
    for (const path of ['/api/info', '/api/runs', '/', '/index.html']) {
      const r = await get(p, path, { host });
      expect(r.status).toBe(401);
      expect(r.body).not.toContain(TOKEN);
    }
    expect((await get(p, '/?token=wrong-token-0123456789abcdef', { host })).status).toBe(401);
    expect((await get(p, '/api/info', { host, cookie: `mindscope_view_${p}=wrong` })).status).toBe(401);
    expect((await get(p, '/api/info', { host, authorization: 'Bearer wrong' })).status).toBe(401);
    const opened = await get(p, `/?token=${TOKEN}`, { host });
    expect(opened.status).toBe(200);
    expect(opened.headers['set-cookie']).toEqual([`mindscope_view_${p}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`]);
    // The page reloads itself without the token in its address.
    expect(opened.body).toContain('<meta http-equiv="refresh" content="0; url=/">');
    expect((await get(p, '/api/info', { host, cookie: `mindscope_view_${p}=${TOKEN}` })).status).toBe(200);
    expect((await get(p, '/api/runs', { host, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    // The token does not make another host name acceptable.
    expect((await get(p, '/api/info', { host: `attacker.example:${p}`, authorization: `Bearer ${TOKEN}` })).status).toBe(421);
  });

  it('takes the token from MINDSCOPE_VIEW_TOKEN (checked, never echoed) or draws one', () => {
    const drawn = new Set([viewToken({}), viewToken({}), viewToken({})]);
    expect(drawn.size).toBe(3);
    for (const t of drawn) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(viewToken({ [VIEW_TOKEN_ENV]: TOKEN })).toBe(TOKEN);
    for (const bad of ['short', 'has a space in it 0123456789', 'semi;colon-0123456789abc']) {
      let message = '';
      try {
        viewToken({ [VIEW_TOKEN_ENV]: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(`${VIEW_TOKEN_ENV}: the token must be 16 or more letters, digits, ".", "_", "~" or "-"`);
    }
  });

  it('the CLI prints the URL with the token once, and the page opens from it in Chromium', async () => {
    const child = spawn(process.execPath, [BIN, 'view', '--db', db, '--port', '0', '--host', '0.0.0.0', '--allow-remote'], {
      env: { ...process.env, [VIEW_TOKEN_ENV]: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    let browser: Browser | undefined;
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`mindscope view exited with ${code}`)));
      });
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+) /.exec(line)?.[1];
      expect(url).toMatch(new RegExp(`\\?token=${TOKEN}$`));
      expect(line.split(TOKEN)).toHaveLength(2);
      browser = await launchChromium();
      const page = await browser.newPage();
      await page.goto(url!);
      await page.waitForURL((u) => !u.search.includes('token'));
      await page.locator('.run-card').first().waitFor();
      expect(await page.locator('.run-card h2').allInnerTexts()).toEqual(['tom']);
      expect(page.url()).toBe(url!.replace(`?token=${TOKEN}`, ''));
      // The cookie is not readable by the page's scripts.
      expect(await page.evaluate(() => document.cookie)).toBe('');
    } finally {
      await browser?.close();
      child.kill('SIGTERM');
    }
    expect(stderr).toBe('');
  }, 60_000);
});
