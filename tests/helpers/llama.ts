// node-llama-cpp is an optional peer dependency (`npm run setup:llama` installs its CPU build for
// the tests; CI does). Without it, the tests that run the GGUF model are skipped, saying why.

const MODULE_NAME = 'node-llama-cpp';

/** Whether node-llama-cpp can be imported here. */
export const llamaInstalled: boolean = await import(MODULE_NAME).then(
  () => true,
  () => false,
);

if (!llamaInstalled) console.warn('node-llama-cpp is not installed: the GGUF model tests are skipped (npm run setup:llama installs it)');
