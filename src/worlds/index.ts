// The simulators: the EnactToM text world with knowledge tracking and its verifier, and the belief
// tracker behind the generated stories. Studies bring their own (src/studies/*/world).

export * from './embodied/index.js';
export * from './belief/index.js';
