// DialToM's written (free-text) mental-state inference task: the prompt that written() in
// benchmark.py (Stealth-py/DialToM @0250277, MIT) sends for each unit of the human reference set
// (written_inference.csv: a dataset, a mental state and a window id; the dialogue comes from
// combined_written_data.json). The reply must begin with the state's prefix ("I believe", "I
// want", ..., "I view the Counselor as"), as the paper's Appendix K.1 gives them.

import { DIALTOM_ROLES } from './dialtom.js';

/** The sentence each state's inference begins with (utils.py AGENT2_BELIEF_STEER_PREPROMPT). */
export const DIALTOM_STATE_PREFIX: Record<string, string> = {
  Belief: 'I believe',
  Desires: 'I want',
  Intentions: 'I will',
  Emotions: 'I feel',
  Knowledge: 'I know',
  Trust: 'I view the {initiator} as',
};

/** The dialogue as the written task shows it: turns on lines, "agent 1"/"agent 2" named by role. */
export function writtenDialogue(dataset: string, turns: readonly string[]): string {
  const roles = DIALTOM_ROLES[dataset] ?? { initiator: 'Initiator', recipient: 'Recipient' };
  return turns
    .join('\n')
    .replaceAll('agent 1', roles.initiator)
    .replaceAll('agent 2', roles.recipient)
    .replaceAll('agent1', roles.initiator)
    .replaceAll('agent2', roles.recipient);
}

/** The written-inference prompt for one unit, byte for byte as benchmark.py writes it. */
export function writtenInferencePrompt(dataset: string, state: string, turns: readonly string[]): string {
  const roles = DIALTOM_ROLES[dataset] ?? { initiator: 'Initiator', recipient: 'Recipient' };
  const prefix = (DIALTOM_STATE_PREFIX[state] ?? `My ${state.toLowerCase()}:`).replace('{initiator}', roles.initiator);
  return `
You are an expert in Theory of Mind reasoning.

Task:
You will be provided with a context of a conversation between ${roles.initiator} and ${roles.recipient}.

Your goal is to accurately infer the ${state} mental state of the ${roles.recipient} in one line.
The correct option must be consistent with the provided conversational context.

Conversation Context:
${writtenDialogue(dataset, turns)}

Instruction
Output only a line inference. Your response should always start with "${prefix}". Do not add explanations or other verbosity. STRICTLY FOLLOW THIS FORMAT AND OUTPUT ONLY ONE LINE.

Answer:
`;
}
