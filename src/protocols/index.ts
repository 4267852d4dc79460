export * from './mcq/mcq-protocol.js';
export * from './mcq/extract-answer.js';
export * from './mcq/template.js';
