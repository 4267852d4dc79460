// Preloaded by bench scripts into a child process: prints its peak resident memory on exit.
process.on('exit', () => process.stderr.write(`peak-rss-mb=${Math.round(process.resourceUsage().maxRSS / 1024)}\n`));
