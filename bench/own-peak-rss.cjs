// A process's own peak resident memory, in KiB. On Linux, VmHWM of /proc/self/status: the peak
// of this program's memory. process.resourceUsage().maxRSS is not that in a child process: the
// kernel keeps the largest of the memory the process had before its exec, which for a child
// spawned by a bench is the bench's own (a bench holding 350 MB spawned children reporting
// 350 MB whatever they used). Elsewhere, maxRSS.
const { readFileSync } = require('node:fs');

exports.ownPeakRssKiB = function ownPeakRssKiB() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
};
