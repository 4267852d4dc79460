// `mindscope view`: the API and the page on one local port. The store is opened for reading
// only, so a run may keep writing the same SQLite file (WAL) or PostgreSQL database meanwhile.

import { serve } from '@hono/node-server';
import { openStoreForReading, type Store } from '../store/index.js';
import { viewerApi } from './api.js';
import { pageFolder, readInside } from './page-files.js';
import { auditFiles, storeFolder } from './runs-view.js';

export interface Viewer {
  url: string;
  port: number;
  store: Store;
  close(): Promise<void>;
}

/** Serve the viewer on 127.0.0.1:`port` (0: any free port) for the store at `db`. */
export async function startViewer(opts: { db?: string; port?: number; host?: string }): Promise<Viewer> {
  const store = await openStoreForReading(opts.db);
  const page = pageFolder();
  const folder = storeFolder(store);
  const app = viewerApi(store, async (name) => {
    if (!folder || !auditFiles(folder).includes(name)) return undefined;
    const file = readInside(folder, name);
    return file ? new Response(new Uint8Array(file.body), { headers: { 'content-type': file.type } }) : undefined;
  });
  app.get('*', (c) => {
    const file = readInside(page, new URL(c.req.url).pathname) ?? readInside(page, 'index.html');
    if (!file) return c.text('not found', 404);
    return new Response(new Uint8Array(file.body), { headers: { 'content-type': file.type } });
  });
  const host = opts.host ?? '127.0.0.1';
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, (info) => resolve({ server: s, port: info.port }));
    s.once('error', reject);
  });
  return {
    url: `http://${host}:${port}/`,
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
