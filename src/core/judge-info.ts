// What a judge call tells the offline reference judges (agent:exact-judge, agent:keyword-judge):
// the rubric's fields and keywords, the response judged and the expected answer.

import { callInfoKey } from './call-info.js';

export interface JudgeCallInfo {
  fields: Array<{ name: string; min: number; max: number }>;
  keywords?: Record<string, string[]>;
  response: string;
  expected?: string;
}

export const JUDGE_INFO = callInfoKey<JudgeCallInfo>('judge');
