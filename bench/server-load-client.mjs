// Load generator of the server benchmark (bench/suites/server.ts), a child process of its own so that the
// clients share neither the server's event loop nor its process (the OS schedules them like any other client).
// For each batch the parent sends ({ perClient: string[][] }), `perClient.length` concurrent keep-alive clients
// each GET their URLs in order and time every request (ms); the answer is { times, cpuMs } (this process's CPU
// time for the batch). It exits when the parent disconnects. Plain JS: run by node without a TypeScript loader.
import { performance } from 'node:perf_hooks';

async function runBatch(perClient) {
  const times = [];
  const cpu0 = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpu0);
  return { times, cpuMs: (cpu.user + cpu.system) / 1000 };
}

process.on('message', (msg) => {
  runBatch(msg.perClient).then(
    (result) => process.send(result),
    (e) => process.send({ error: String(e?.stack ?? e) }),
  );
});
process.on('disconnect', () => process.exit(0));
