// `mindscope view`: the API and the page on one local port. The store is opened for reading
// only, so a run may keep writing the same SQLite file (WAL) or PostgreSQL database meanwhile.
// Only requests for the host names served are answered (access-guard.ts); beyond the loopback
// interface only when asked (`allowRemote`), and then only with the token.

import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { PluginManifest } from '../app/index.js';
import { pluginManifests } from '../builtin-studies.js';
import { ConfigError } from '../core/index.js';
import { openStoreForReading, type Store } from '../store/index.js';
import { accessGuard, isLoopback, viewToken } from './access-guard.js';
import { viewerApi } from './api.js';
import { pageFolder, readInside } from './page-files.js';
import { servedPanels } from './panels.js';
import { reportFiles, storeFolder, viewerReportKinds } from './runs-view.js';

export interface Viewer {
  /** The URL to open; served beyond loopback, it carries the token (`?token=`). */
  url: string;
  port: number;
  store: Store;
  close(): Promise<void>;
}

/**
 * Serve the viewer on `host`:`port` (127.0.0.1 and 0, any free port, by default) for the store
 * at `db`. An address other than loopback needs `allowRemote`; every request then needs the
 * token (`token`, else MINDSCOPE_VIEW_TOKEN, else a random one), which the returned URL carries.
 * Trials are drawn by the viewer panels of the built-in studies and of `plugins` (a config's).
 */
export async function startViewer(opts: {
  db?: string;
  port?: number;
  host?: string;
  allowRemote?: boolean;
  token?: string;
  plugins?: readonly PluginManifest[];
}): Promise<Viewer> {
  const host = opts.host ?? '127.0.0.1';
  const remote = !isLoopback(host);
  if (remote && !opts.allowRemote)
    throw new ConfigError(
      `--host ${host} is not a loopback address: every transcript in the store would be served to the network; add --allow-remote to do so (each request then needs the token in the URL the command prints)`,
    );
  const token = remote ? (opts.token ?? viewToken()) : undefined;
  const store = await openStoreForReading(opts.db);
  const page = pageFolder();
  const folder = storeFolder(store);
  const manifests = pluginManifests(opts.plugins);
  const reports = viewerReportKinds(manifests);
  const api = viewerApi(
    store,
    async (kind, name) => {
      const of = reports.find((r) => r.kind === kind);
      if (!folder || !of || !reportFiles(folder, of).includes(name)) return undefined;
      const file = readInside(folder, name);
      return file ? new Response(new Uint8Array(file.body), { headers: { 'content-type': file.type } }) : undefined;
    },
    servedPanels(manifests),
    reports,
  );
  // The port is known once the server listens: the guard is built then, before any request is answered.
  let guard: ReturnType<typeof accessGuard> | undefined;
  const app = new Hono();
  app.use('*', async (c, next) => (guard ? guard(c, next) : c.text('starting\n', 503)));
  app.route('/', api);
  app.get('*', (c) => {
    const file = readInside(page, new URL(c.req.url).pathname) ?? readInside(page, 'index.html');
    if (!file) return c.text('not found', 404);
    return new Response(new Uint8Array(file.body), { headers: { 'content-type': file.type } });
  });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, (info) => {
      guard = accessGuard({ host, port: info.port, token });
      resolve({ server: s, port: info.port });
    });
    s.once('error', reject);
  });
  // A wildcard address is no address to open: this machine's loopback one is.
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/${token ? `?token=${token}` : ''}`,
    port,
    store,
    close: async () => {
      // A browser keeps connections open; close them, or close() would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      await store.close();
    },
  };
}
