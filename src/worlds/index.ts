// The simulators of the kernel's own suites: the belief tracker behind the generated stories.
// Studies bring their own (src/studies/*/world).

export * from './belief/index.js';
