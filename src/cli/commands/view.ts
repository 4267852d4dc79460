import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { join } from 'node:path';
import { exportViewer, startViewer, VIEW_TOKEN_ENV } from '../../view/index.js';
import { loadConfigOnce } from '../command-context.js';
import { resolveRunId } from '../../run-report.js';
import { assertStoreExists } from '../existing-store.js';
import { DEFAULT_DB, intOption } from '../options.js';
import { printResult } from '../output.js';

/** Open a URL in the desktop's browser; failing to is not an error (the URL is printed). */
function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}

export function registerView(program: Command): void {
  program
    .command('view')
    .description('browse runs, trials, transcripts, comparisons and episodes in a local web page (the store is only read)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--port <n>', 'port (0: any free one)', intOption('--port', 0, 65535), 5174)
    .option('--host <address>', 'address to listen on; one other than loopback needs --allow-remote', '127.0.0.1')
    .option(
      '--allow-remote',
      `serve a --host beyond this machine; every request then needs the token in the printed URL (from ${VIEW_TOKEN_ENV}, else a random one)`,
    )
    .option('--config <file>', 'config file whose plugins add viewer panels')
    .option('--open', 'open the page in the default browser')
    .option('--export <dir>', 'write a static copy of the views (page and data) to a folder instead of serving')
    .option('--force', 'with --export: replace an earlier export in the folder')
    .option('--json', 'print where the viewer serves (or what the export wrote) as JSON')
    .addHelpText(
      'after',
      [
        '',
        "The page's addresses name subjects as compare --subjects does: by spec (openai:gpt-4o),",
        'by the short name reports show, or by id (s-...):',
        '  #/trials/RUN?subject=S',
        '  #/trial/RUN?subject=S&suite=X&item=I&replicate=0',
        '  #/compare/RUN?subject=A&subject=B',
      ].join('\n'),
    )
    .action(
      async (f: {
        db: string;
        port: number;
        host: string;
        allowRemote?: boolean;
        config?: string;
        open?: boolean;
        export?: string;
        force?: boolean;
        json?: boolean;
      }) => {
        const plugins = f.config ? (await loadConfigOnce(f.config)).plugins : [];
        // As report does: a store that is not there is refused, naming the path.
        assertStoreExists(f.db);
        if (f.export) {
          const { runs, trials } = await exportViewer(f.db, f.export, { force: f.force, plugins, refuseEmpty: true });
          printResult(f.json, { out: f.export, runs, trials }, `wrote ${join(f.export, 'index.html')}: ${runs} run(s), ${trials} trial(s)`);
          return;
        }
        const viewer = await startViewer({ db: f.db, port: f.port, host: f.host, allowRemote: f.allowRemote, plugins });
        // A store without runs (report refuses it, with this message) is served all the same: the page shows runs as they are stored.
        await resolveRunId(viewer.store).catch((err: Error) =>
          process.stderr.write(`note: ${err.message}; the page shows runs as they are stored\n`),
        );
        printResult(
          f.json,
          { url: viewer.url, store: viewer.store.location },
          `mindscope view: ${viewer.url} (store ${viewer.store.location}; Ctrl-C to stop)`,
        );
        if (f.open) openBrowser(viewer.url);
        const stop = () => {
          viewer.close().then(
            () => process.exit(0),
            () => process.exit(1),
          );
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      },
    );
}
