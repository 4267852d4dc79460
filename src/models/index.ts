export * from './chat-model.js';
export * from './call-error.js';
export * from './provider-registry.js';
export * from './capabilities.js';
export * from './structured-output.js';
export { OpenAiChatModel } from './providers/openai.js';
export { AnthropicChatModel } from './providers/anthropic.js';
export { GoogleChatModel } from './providers/google.js';
export { LlamaCppChatModel } from './providers/llamacpp.js';
