// StoryTurn (CoMMET): multi-turn stories with answer-dependent feedback, judged turn by turn.

import { definePlugin } from '../../app/index.js';
import { conversationProtocol } from '../../protocols/index.js';
import { manifest } from './manifest.js';
import { STORYTURN_SUITES } from './suites.js';

/** The storyturn study as a plugin. */
export default definePlugin({
  ...manifest,
  protocols: [conversationProtocol],
  suites: [...STORYTURN_SUITES],
});
