export * from './mcq/mcq-protocol.js';
export * from './mcq/extract-answer.js';
export * from './mcq/template.js';
export * from './episode/episode-protocol.js';
export * from './episode/episode-prompt.js';
export * from './conversation/conversation-protocol.js';
export * from './mcq/reasoning-trace.js';
export * from './director/director-protocol.js';
