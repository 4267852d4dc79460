// The kernel's protocol: multiple choice. The seed studies add theirs as plugins (src/studies);
// a user's protocols are added through the config's plugins (see app/registry.ts).

import { mcqProtocol } from './mcq/mcq-protocol.js';
import type { ProtocolModule } from './protocol.js';

export const KERNEL_PROTOCOLS: readonly ProtocolModule[] = [mcqProtocol];
