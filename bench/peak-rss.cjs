// Preloaded by bench scripts into a child process: prints its peak resident memory and CPU time (user + system) on exit.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`peak-rss-mb=${Math.round(process.resourceUsage().maxRSS / 1024)}\ncpu-ms=${Math.round((user + system) / 1000)}\n`);
});
