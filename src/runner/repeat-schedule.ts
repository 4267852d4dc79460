// Repetitions of a run at set times of day: each replicate of the run is a repetition, due at
// its own slot, so that the calls of one replicate meet the providers' load of one time of day
// and the replicates spread over several (the VLM paper's Appendix A schedules its replicates
// across non-contiguous windows and calendar days). The schedule is a list of times of day
// (HH:MM, UTC) repeated over a number of days; its slots are the first days x times occurrences
// of those times at or after the start (the moment of planning, or 00:00 UTC of a given date),
// in time order; replicate r is due at slot r. Workers take a replicate's trials once it is due.

import { ConfigError } from '../core/index.js';

export interface RepeatSchedule {
  /** Times of day, HH:MM in UTC, each once. */
  at: string[];
  /** Days the times repeat over (default 1). */
  days: number;
  /** The first day, YYYY-MM-DD (slots from 00:00 UTC that day); absent: from the moment of planning. */
  from?: string;
}

export interface RepeatSlot {
  replicate: number;
  /** When the replicate is due (ISO, UTC). */
  due: string;
  /** Its time of day (HH:MM, UTC). */
  timeOfDay: string;
}

const DAY_MS = 24 * 3600 * 1000;

/** "21:00,09:00,15:00" -> ["09:00", "15:00", "21:00"]; a malformed or repeated time is an error. */
export function parseRepeatAt(text: string, flag = '--repeat-at'): string[] {
  const times = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (times.length === 0) throw new ConfigError(`${flag}: give times of day as HH:MM (UTC), separated by commas`);
  for (const t of times)
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(t)) throw new ConfigError(`${flag}: "${t}" is not a time of day HH:MM (00:00 to 23:59, UTC)`);
  const sorted = [...times].sort();
  const twice = sorted.find((t, i) => sorted[i + 1] === t);
  if (twice) throw new ConfigError(`${flag}: ${twice} is given twice`);
  return sorted;
}

/** Check a schedule's fields (as a spec or a stored record gives them). */
export function checkRepeatSchedule(s: RepeatSchedule): RepeatSchedule {
  const at = parseRepeatAt(s.at.join(','));
  if (!Number.isInteger(s.days) || s.days < 1 || s.days > 366)
    throw new ConfigError(`--repeat-days must be a whole number from 1 to 366, not ${s.days}`);
  if (s.from !== undefined) {
    const d = new Date(`${s.from}T00:00:00Z`);
    if (!/^\d{4}-\d\d-\d\d$/.test(s.from) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s.from)
      throw new ConfigError(`--repeat-from must be a date YYYY-MM-DD, not "${s.from}"`);
  }
  return { at, days: s.days, ...(s.from !== undefined ? { from: s.from } : {}) };
}

const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

/** The schedule's slots in time order: replicate r at slot r (`now`: the moment of planning). */
export function repeatSlots(schedule: RepeatSchedule, now: Date): RepeatSlot[] {
  const s = checkRepeatSchedule(schedule);
  const n = s.at.length * s.days;
  const start = s.from !== undefined ? Date.parse(`${s.from}T00:00:00Z`) : now.getTime();
  const midnight = Math.floor(start / DAY_MS) * DAY_MS;
  const slots: RepeatSlot[] = [];
  for (let day = 0; slots.length < n; day++)
    for (const t of s.at) {
      const due = midnight + day * DAY_MS + minutes(t) * 60_000;
      if (due >= start && slots.length < n) slots.push({ replicate: slots.length, due: new Date(due).toISOString(), timeOfDay: t });
    }
  return slots;
}
