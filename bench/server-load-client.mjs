// Load generator of the server benchmark (bench/suites/server.ts), in its own worker thread so the clients do
// not share the server's event loop: `clients` concurrent keep-alive clients each GET their `urls` in order and
// time every request (ms). Plain JS: a worker thread gets no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

const { perClient } = workerData;
const times = [];
await Promise.all(
  perClient.map(async (urls) => {
    for (const url of urls) {
      const t0 = performance.now();
      const r = await fetch(url);
      await r.arrayBuffer();
      times.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`bench: ${url} answered ${r.status}`);
    }
  }),
);
parentPort.postMessage(times);
