// node-llama-cpp is an optional peer dependency: installing mindscope does not bring it (with its
// GPU builds it is several hundred megabytes), and `llamacpp:` models and BERTScore ask for it by
// name. The module name is held in a variable so that the compiler does not need its types.

import { ConfigError } from '../core/index.js';

/** The node-llama-cpp version the `llamacpp:` provider is tested with. */
const LLAMA_CPP_VERSION = '3.21.1';

const MODULE_NAME = 'node-llama-cpp';

/**
 * Load node-llama-cpp, or refuse with how to install it. `who` names what needed it
 * (`llamacpp:FILE.gguf`, `BERTScore`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the optional module's types are not a dependency
export async function loadLlamaCpp(who: string): Promise<any> {
  try {
    return await import(MODULE_NAME);
  } catch {
    throw new ConfigError(
      `${who}: the optional peer dependency node-llama-cpp is not installed; install it beside mindscope (npm i -E node-llama-cpp@${LLAMA_CPP_VERSION})`,
    );
  }
}
