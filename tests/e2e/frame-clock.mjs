/**
 * A virtual 60 Hz display for recordings (page.addInitScript(FRAME_CLOCK_INIT, hz), before the page scripts run):
 * `requestAnimationFrame` callbacks run one frame at a time, as fast as the page renders, and `performance.now()`
 * reads a clock that advances exactly 1/hz s per frame. The game then sees the frame times of a 60 Hz monitor
 * (the pad polled once per frame, 1/60 s of simulation per frame) whatever the software renderer's real speed:
 * a 10-minute run takes as long as 36 000 frames take to render, and its input stream has the 60 Hz timing a
 * player's browser gives.
 *
 * Before each frame's callbacks, the functions in `window.__frameClock.beforeFrame` run with the frame's time
 * (ms): a driver reads the last frame's state and sets the virtual pad there, as a player reacts to the last
 * frame shown. `window.__frameClock.frames` counts the frames run.
 */
export const FRAME_CLOCK_INIT = (hz) => {
  const frameMs = 1000 / hz;
  const IDLE_POLL_MS = 5;
  const realNow = performance.now.bind(performance);
  let now = realNow();
  let queue = [];
  let nextId = 1;
  const clock = { frames: 0, beforeFrame: [], hz };
  window.__frameClock = clock;
  performance.now = () => now;
  window.requestAnimationFrame = (cb) => {
    const id = nextId++;
    queue.push({ id, cb });
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    queue = queue.filter((e) => e.id !== id);
  };
  // a macrotask per frame: the page's other work (loading, IndexedDB, workers) runs between frames; with no
  // frame requested the clock stands still and looks again shortly (no busy loop while the page loads)
  const channel = new MessageChannel();
  const runFrame = () => {
    if (!queue.length) {
      setTimeout(runFrame, IDLE_POLL_MS);
      return;
    }
    now += frameMs;
    const due = queue;
    queue = [];
    for (const f of clock.beforeFrame) f(now);
    for (const e of due) e.cb(now);
    clock.frames++;
    channel.port2.postMessage(0);
  };
  channel.port1.onmessage = runFrame;
  channel.port2.postMessage(0);
};
