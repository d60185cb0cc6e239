// Load generator of the server benchmark (bench/suites/server.ts), a child process of its own so that the
// clients share neither the server's event loop nor its process (the OS schedules them like any other client).
// Lean on purpose, so that the measuring side costs a small fraction of what it measures: each client is one
// keep-alive `node:net` socket that writes a prebuilt HTTP/1.1 GET (one Buffer per distinct path, built once) and
// reads only the status line and Content-Length of the answer, skipping its body. Closed loop: a client sends its
// next request when the answer to the previous one is complete (one request in flight per connection, as a
// browser's fetch on one connection). For each batch the parent sends ({ perClient: string[][] }), client c GETs
// perClient[c] in order and times every request (ms); the answer is { times, cpuMs } (this process's CPU time for
// the batch). The sockets stay open between batches and close when the parent disconnects. Plain JS: run by node
// without a TypeScript loader.
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
/** Prebuilt request bytes per URL (the benchmark reuses a few hundred distinct paths). */
const requests = new Map();
/** Open keep-alive connections, reused by client index across batches. */
const sockets = [];

function requestBytes(url) {
  let bytes = requests.get(url);
  if (!bytes) {
    const u = new URL(url);
    bytes = Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\n\r\n`, 'latin1');
    requests.set(url, bytes);
  }
  return bytes;
}

/**
 * One keep-alive connection: `get(bytes)` writes a request and resolves to its HTTP status once the whole answer
 * (headers and Content-Length bytes of body) has arrived. Answers without Content-Length are refused (the
 * server's JSON answers always carry it).
 */
class Connection {
  constructor(host, port) {
    this.socket = connect({ host, port, noDelay: true });
    this.pending = null;
    this.buf = null;
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => this.fail(new Error('bench: the server closed a keep-alive connection')));
  }

  get(bytes) {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, status: 0, remaining: -1 };
      this.socket.write(bytes);
    });
  }

  onData(chunk) {
    const p = this.pending;
    if (!p) return this.fail(new Error('bench: bytes arrived with no request in flight'));
    if (p.remaining < 0) {
      const data = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
      const end = data.indexOf(HEADER_END);
      if (end < 0) {
        this.buf = data;
        return undefined;
      }
      this.buf = null;
      const head = data.toString('latin1', 0, end);
      const length = CONTENT_LENGTH.exec(head);
      if (!length) return this.fail(new Error(`bench: an answer without Content-Length: ${head.split('\r\n')[0]}`));
      p.status = Number(head.slice(9, 12));
      p.remaining = Number(length[1]) - (data.length - end - HEADER_END.length);
    } else {
      p.remaining -= chunk.length;
    }
    if (p.remaining === 0) {
      this.pending = null;
      p.resolve(p.status);
    } else if (p.remaining < 0) {
      this.fail(new Error('bench: more bytes than Content-Length (pipelining is not used)'));
    }
    return undefined;
  }

  fail(e) {
    const p = this.pending;
    this.pending = null;
    p?.reject(e);
  }
}

function connection(i, url) {
  if (!sockets[i]) {
    const u = new URL(url);
    sockets[i] = new Connection(u.hostname, Number(u.port));
  }
  return sockets[i];
}

async function runBatch(perClient) {
  const times = [];
  const cpu0 = process.cpuUsage();
  await Promise.all(
    perClient.map(async (urls, i) => {
      const conn = connection(i, urls[0]);
      for (const url of urls) {
        const bytes = requestBytes(url);
        const t0 = performance.now();
        const status = await conn.get(bytes);
        times.push(performance.now() - t0);
        if (status !== 200) throw new Error(`bench: ${url} answered ${status}`);
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
process.on('disconnect', () => {
  for (const c of sockets) c.socket.destroy();
  process.exit(0);
});
