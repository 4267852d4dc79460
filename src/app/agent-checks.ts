// Reference agents that cannot answer a suite: the belief-tracking agents (agent:oracle,
// agent:reality, agent:first-order) need items that carry a world model (generated suites,
// parsed ToMi stories). On a released benchmark they decline every item, which used to show only
// as 400 of 400 parse failures; the run now says so at its start and names agent:answer-key.

import type { Task } from '../core/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import type { RunSubject } from '../runner/index.js';

/** One warning per reference agent and suite whose items the agent cannot answer. */
export function referenceAgentWarnings(
  subjects: readonly RunSubject[],
  tasks: readonly Task[],
  protocols: readonly ProtocolModule[],
): string[] {
  const warnings: string[] = [];
  for (const { model } of subjects) {
    if (model.provider !== 'agent') continue;
    for (const task of tasks) {
      const policy = protocols.find((p) => p.name === task.records.protocol)?.policies?.[model.model];
      if (!policy?.answers || task.items.length === 0) continue;
      const declined = task.items.filter((item) => !policy.answers!(item)).length;
      if (declined === 0) continue;
      const which = declined === task.items.length ? `any of the ${declined}` : `${declined} of the ${task.items.length}`;
      warnings.push(
        `${model.spec} cannot answer ${which} items of ${task.suite}: it needs items that carry a world model ` +
          `(a generated suite such as generated-tom, or parsed ToMi stories), so those trials will be parse failures. ` +
          'To check the pipeline on a released benchmark, use agent:answer-key.',
      );
    }
  }
  return warnings;
}
