// What the describe protocol (animated triangles) stores per trial: the description and the
// clip's labels (condition, script, behaviour, variant, and the stimulus representation: grid,
// plain grid, frame sequence, native video or still; the pictures themselves are in the item).

import { z } from 'zod';
import type { RecordSchemas } from '../../../core/index.js';

export const DescribeDetailSchema = z
  .object({
    reply: z.string(),
    condition: z.string().optional(),
    script: z.string().optional(),
    behaviour: z.string().optional(),
    variant: z.string().optional(),
    representation: z.string().optional(),
  })
  .catchall(z.unknown());
export type DescribeDetail = z.infer<typeof DescribeDetailSchema>;

export const DescribeScoreDetailSchema = z.object({ judged: z.boolean() });
export type DescribeScoreDetail = z.infer<typeof DescribeScoreDetailSchema>;

/** The describe protocol's record schemas. */
export const DESCRIBE_RECORDS = {
  protocol: 'describe',
  scorer: 'described',
  // The last of the old heuristics: a reply and none of the other protocols' fields.
  legacy: (d) => 'reply' in d && !('presented' in d) && !('turns' in d) && !('probes' in d) && !('cQ2' in d),
  detail: DescribeDetailSchema,
  score: DescribeScoreDetailSchema,
} satisfies RecordSchemas;

/**
 * The labels a clip item carries for judges (the subject never sees them): the condition and
 * script (the paper's overlay layers i and ii) and, for the informed rubric only, the expected
 * Intent range (layer iii, which the canonical anchor-blinded rubric leaves out).
 */
export const ClipLabelsSchema = z.object({
  condition: z.string().optional(),
  script: z.string().optional(),
  expectedIntent: z.string().optional(),
});
