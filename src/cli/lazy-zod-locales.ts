// zod's locales/index.js re-exports each of its locales, and zod's core re-exports that module
// (`z.locales`): a command that loads the record schemas loads and compiles every locale, about
// 60 of zod's 95 modules, though only English is used (zod's schemas import en.js themselves).
// The CLI serves that index as a module with the same names, each a function that loads its
// locale on the first call: `z.locales.fr()` gives what it gives without the hook.

import * as nodeModule from 'node:module';

/** The index zod's core and classic entries re-export as `locales`. */
const LOCALE_INDEX = /\/zod\/v4\/locales\/index\.js$/;
/** Each line of that index: `export { default as fr } from "./fr.js";`. */
const LOCALE_LINE = /^export \{ default as ([A-Za-z_$][\w$]*) \} from "(\.\/[\w-]+\.js)";$/;

/**
 * The source of a lazy locale index for the source of zod's: the same exports, each a function
 * that loads its locale (require of an ES module: the module the index would have imported) when
 * first called. Undefined for a source of another form: the index is then served as it is.
 */
export function lazyLocaleIndex(source: string): string | undefined {
  const out = [
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    'const lazy = (file) => { let locale; return (...args) => (locale ??= require(file).default)(...args); };',
  ];
  let names = 0;
  for (const line of source.split('\n')) {
    const text = line.trim();
    if (text === '') continue;
    const m = LOCALE_LINE.exec(text);
    if (!m) return undefined;
    out.push(`export const ${m[1]} = lazy(${JSON.stringify(m[2])});`);
    names++;
  }
  return names ? `${out.join('\n')}\n` : undefined;
}

/** Serve zod's locale index lazily in this process (Node 22.15+, whose module hooks run in the thread). */
export function registerLazyZodLocales(): void {
  const register = (nodeModule as { registerHooks?: typeof nodeModule.registerHooks }).registerHooks;
  if (typeof register !== 'function') return;
  const hooks = register({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!LOCALE_INDEX.test(url) || loaded.source == null) return loaded;
      // Served once: the modules loaded after it go without the hook.
      hooks.deregister();
      const source = lazyLocaleIndex(
        typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source as Uint8Array).toString('utf8'),
      );
      return source === undefined ? loaded : { ...loaded, source };
    },
  });
}
