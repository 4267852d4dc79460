// Who the viewer answers. A web page the user visits can point its own host name at 127.0.0.1
// (DNS rebinding) and read the viewer's answers as its own: such requests carry that page's
// host in the Host header, so only the names the viewer serves are accepted (loopback names and
// the bound address, with the port). Requests from another origin (Origin header) and anything
// but GET and HEAD are refused too: the viewer only reads. Served beyond the loopback interface,
// every request must also carry the token: `?token=` once (the URL the command prints), which
// becomes an HttpOnly, SameSite=Strict cookie, or an `Authorization: Bearer` header.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ConfigError } from '../core/index.js';

/** The environment variable that gives the token of a viewer served beyond loopback (else one is drawn). */
export const VIEW_TOKEN_ENV = 'MINDSCOPE_VIEW_TOKEN';

/** Whether a bind address only listens on this machine. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** A host name as the Host header writes it: IPv6 addresses in brackets, lower case. */
function hostForm(name: string): string {
  const h = name.toLowerCase().replace(/^\[|\]$/g, '');
  return isIP(h) === 6 ? `[${h}]` : h;
}

/** The host names a viewer bound to `host` serves: loopback names, and the address (every address of the machine, for a wildcard). */
function servedNames(host: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', hostForm(host)]);
  if (WILDCARD.has(host)) {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(hostForm(a.address));
    names.add(hostForm(hostname()));
  }
  return names;
}

/** The token of a viewer served beyond loopback: the environment's (checked), or 32 random bytes. */
export function viewToken(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[VIEW_TOKEN_ENV];
  if (given === undefined || given === '') return randomBytes(32).toString('base64url');
  if (!/^[A-Za-z0-9._~-]{16,}$/.test(given))
    throw new ConfigError(`${VIEW_TOKEN_ENV}: the token must be 16 or more letters, digits, ".", "_", "~" or "-"`);
  return given;
}

/** Equal texts, compared in time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The middleware that refuses requests for other host names (421), from other origins (403),
 * that would change anything (405), and, when `token` is given, that do not carry it (401).
 */
export function accessGuard(opts: { host: string; port: number; token?: string }): MiddlewareHandler {
  const names = servedNames(opts.host);
  const accepted = new Set([...names].map((n) => `${n}:${opts.port}`));
  // Port 80 is left out of the Host header by browsers.
  if (opts.port === 80) for (const n of names) accepted.add(n);
  const cookie = `mindscope_view_${opts.port}`;
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (!host || !accepted.has(host)) return c.text('mindscope view does not serve this host name: open the URL it printed\n', 421);
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== `http://${host}`) return c.text('requests from other origins are refused\n', 403);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('the viewer only reads\n', 405, { allow: 'GET, HEAD' });
    if (!opts.token) return next();
    const url = new URL(c.req.url);
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!sameSecret(given, opts.token)) return c.text('wrong token: open the URL mindscope view printed\n', 401);
      // The token moves to a cookie, and the page reloads without it in the address: a page
      // navigating itself is same-site, so the SameSite=Strict cookie goes with the reload.
      setCookie(c, cookie, opts.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      url.searchParams.delete('token');
      const target = `${url.pathname}${url.search}`.replace(/"/g, '%22');
      return c.html(`<!doctype html><meta http-equiv="refresh" content="0; url=${target}"><title>mindscope view</title>\n`);
    }
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const held = bearer ?? getCookie(c, cookie);
    if (held === undefined || !sameSecret(held, opts.token))
      return c.text('this viewer needs its token: open the URL mindscope view printed (it ends in ?token=...)\n', 401);
    return next();
  };
}
