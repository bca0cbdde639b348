// Preloaded into a bench's server (SERVER_NODE_ARGS='--import <this file>'): measures how long the event loop is
// held up (perf_hooks monitorEventLoopDelay, 10 ms resolution). On SIGUSR2 it writes what it saw since the last
// signal to LOOP_DELAY_FILE as JSON (ms) and starts again, so a bench can measure one phase at a time.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const figures = {
    max: ms(histogram.max),
    p99: ms(histogram.percentile(99)),
    p50: ms(histogram.percentile(50)),
    samples: histogram.count,
  };
  const file = process.env.LOOP_DELAY_FILE;
  if (file) {
    // Whole or not at all: the bench reads it as soon as it is there.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(figures));
    fs.renameSync(`${file}.tmp`, file);
  }
  histogram.reset();
});
