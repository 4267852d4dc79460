// The protocols mindscope ships; a user's protocols are added to these through the config's
// plugins (see app/registry.ts).

import { conversationProtocol } from './conversation/conversation-protocol.js';
import { describeProtocol } from './describe/describe-protocol.js';
import { directorProtocol } from './director/director-protocol.js';
import { episodeProtocol } from './episode/episode-protocol.js';
import { mcqProtocol } from './mcq/mcq-protocol.js';
import type { ProtocolModule } from './protocol.js';

export const BUILTIN_PROTOCOLS: readonly ProtocolModule[] = [
  mcqProtocol,
  conversationProtocol,
  episodeProtocol,
  directorProtocol,
  describeProtocol,
];
