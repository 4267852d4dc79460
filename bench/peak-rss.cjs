// Preloaded by bench scripts into a child process: prints its peak resident memory (its own:
// own-peak-rss.cjs) and CPU time (user + system) on exit.
const { ownPeakRssKiB } = require('./own-peak-rss.cjs');

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`peak-rss-mb=${Math.round(ownPeakRssKiB() / 1024)}\ncpu-ms=${Math.round((user + system) / 1000)}\n`);
});
