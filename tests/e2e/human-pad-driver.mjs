/**
 * A human-like driver on the virtual pad (tests/e2e/pad.mjs), for recordings: page.addInitScript(HUMAN_DRIVER_INIT,
 * cfg) after FRAME_CLOCK_INIT (tests/e2e/frame-clock.mjs) and PAD_INIT. Once per 60 Hz frame it reads the car's
 * state the game published for the last frame (`window.__bitrally`: carPos, steering.headingRad, speedKmh, phase)
 * and moves the stick and triggers the way a thumb and fingers do — what it sets goes through the browser's
 * Gamepad API, the game's bindings, dead zones and response curves, and the quantisation the recorder stores.
 *
 * * Perception: it acts on what it saw REACTION_FRAMES frames ago (≈ 0.15 s).
 * * Steering: pure pursuit towards the point `LOOKAHEAD_BASE_M + LOOKAHEAD_S · v` ahead on the road, the wanted
 *   lock turned into a stick deflection through the inverse of the game's default steer curve (a player learns
 *   it); the thumb follows with a first-order lag (THUMB_LAG_S), rests with a slowly wandering offset (a random
 *   walk, ±THUMB_DRIFT_MAX) and shakes by ±STICK_NOISE every frame.
 * * Speed: the road's speed profile (from Node: the AI's path and profile at a human's share of the grip), looked
 *   at ANTICIPATION_S ahead; throttle and brake ramp at a finger's speed (FINGER_RAMP_S to full travel), rest with
 *   jitter when half pressed and sit still against the end stops (fully pressed or released).
 * * Trouble: stopped for STUCK_S, or farther than LOST_M from the road for LOST_S, it presses Recover (the right
 *   stick click) as a player would.
 *
 * cfg: { x: number[], z: number[], v: number[] (road points every 2 m from before the start to the end, target
 * speed m/s), seed }. State for the recording script: window.__humanDriver { frames, recoveries, enabled }.
 */
export const HUMAN_DRIVER_INIT = (cfg) => {
  const REACTION_FRAMES = 9;
  const LOOKAHEAD_BASE_M = 6;
  const LOOKAHEAD_S = 0.8;
  /** Wheelbase over full lock (m/rad) of a small car: the pursuit's lock per unit of path curvature. */
  const WHEELBASE_M = 2.6;
  const FULL_LOCK_RAD = 0.55;
  /** The game's default steer tuning (src/app/input/actions.ts DEFAULT_TUNING.steer). */
  const STEER_DEADZONE = 0.08;
  const STEER_LINEARITY = 1.3;
  const THUMB_LAG_S = 0.1;
  const THUMB_DRIFT_MAX = 0.04;
  const THUMB_DRIFT_STEP = 0.0015;
  const STICK_NOISE = 0.004;
  const TRIGGER_JITTER = 0.003;
  const FINGER_RAMP_S = 0.12;
  const ANTICIPATION_S = 0.6;
  const STUCK_S = 4;
  const STUCK_SPEED_MS = 0.5;
  const LOST_M = 14;
  const LOST_S = 2;
  const RECOVER_PRESS_FRAMES = 6;
  const BUTTON = { LT: 6, RT: 7, RS: 11 };
  const hz = window.__frameClock.hz;
  const dtS = 1 / hz;
  const n = cfg.x.length;

  // mulberry32: a seeded stream, so the same seed drives the same hands
  let seed = cfg.seed >>> 0;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));

  const state = { frames: 0, recoveries: 0, enabled: false, index: 0 };
  window.__humanDriver = state;
  const seen = [];
  const hand = { stick: 0, drift: 0, throttle: 0, brake: 0, stuckFrames: 0, lostFrames: 0, recoverFrames: 0 };

  /** Nearest road point, searched around the last one (the car moves a few metres per frame at most). */
  const nearest = (x, z) => {
    let best = state.index;
    let bestD = Infinity;
    for (let i = Math.max(0, state.index - 20); i < Math.min(n, state.index + 60); i++) {
      const d = (cfg.x[i] - x) ** 2 + (cfg.z[i] - z) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    state.index = best;
    return { i: best, distM: Math.sqrt(bestD) };
  };

  /** The stick deflection whose shaped value (dead zone, then |r|^linearity) is `s`. */
  const stickFor = (s) => (s === 0 ? 0 : Math.sign(s) * (STEER_DEADZONE + (1 - STEER_DEADZONE) * Math.abs(s) ** (1 / STEER_LINEARITY)));

  const steerTarget = (p, near) => {
    const look = LOOKAHEAD_BASE_M + LOOKAHEAD_S * p.v;
    const j = Math.min(n - 1, near.i + Math.round(look / 2));
    const alpha = wrap(Math.atan2(cfg.x[j] - p.x, cfg.z[j] - p.z) - p.heading);
    // pure pursuit: curvature 2 sin α / L, lock = atan(wheelbase · curvature); sim + = left, stick + = right
    const lock = Math.atan((2 * WHEELBASE_M * Math.sin(alpha)) / look);
    return -stickFor(clamp(lock / FULL_LOCK_RAD, -1, 1));
  };

  const pedalTargets = (p, near) => {
    let vt = Infinity;
    const ahead = Math.round((p.v * ANTICIPATION_S) / 2) + 1;
    for (let k = near.i; k < Math.min(n, near.i + ahead); k++) vt = Math.min(vt, cfg.v[k]);
    const e = vt - p.v;
    if (e < -1.5) return { throttle: 0, brake: clamp(-(e + 1.5) * 0.25, 0.15, 0.9) };
    return { throttle: e > 3 ? 1 : clamp(0.35 + 0.22 * e, 0, 1), brake: 0 };
  };

  /** A finger moves a trigger at most full travel in FINGER_RAMP_S; off the end stops it jitters. */
  const moveTrigger = (cur, target) => {
    const step = dtS / FINGER_RAMP_S;
    const v = cur + clamp(target - cur, -step, step);
    if (v <= 0 || v >= 1) return clamp(v, 0, 1);
    return clamp(v + TRIGGER_JITTER * (rand() + rand() - 1), 0.001, 0.999);
  };

  const recoverIfStuck = (p, near) => {
    hand.stuckFrames = p.v < STUCK_SPEED_MS ? hand.stuckFrames + 1 : 0;
    hand.lostFrames = near.distM > LOST_M ? hand.lostFrames + 1 : 0;
    if (hand.recoverFrames > 0) return --hand.recoverFrames > 0;
    if (hand.stuckFrames > STUCK_S * hz || hand.lostFrames > LOST_S * hz) {
      hand.recoverFrames = RECOVER_PRESS_FRAMES;
      hand.stuckFrames = 0;
      hand.lostFrames = 0;
      state.recoveries++;
      state.index = Math.max(0, state.index - 5);
      return true;
    }
    return false;
  };

  const step = () => {
    const h = window.__bitrally;
    if (!state.enabled || !h || !h.carPos || !h.steering || !window.__pad) return;
    state.frames++;
    seen.push({ x: h.carPos[0], z: h.carPos[2], heading: h.steering.headingRad, v: h.speedKmh / 3.6 });
    if (seen.length > REACTION_FRAMES + 1) seen.shift();
    const p = seen[0];
    const near = nearest(p.x, p.z);
    const running = h.phase === 'running';
    const want = running ? steerTarget(p, near) : 0;
    hand.drift = clamp(hand.drift + THUMB_DRIFT_STEP * (rand() * 2 - 1), -THUMB_DRIFT_MAX, THUMB_DRIFT_MAX);
    hand.stick += (want - hand.stick) * (1 - Math.exp(-dtS / THUMB_LAG_S));
    const stick = clamp(hand.stick + hand.drift + STICK_NOISE * (rand() + rand() - 1), -1, 1);
    const pedals = running ? pedalTargets(p, near) : { throttle: 0, brake: 0 };
    hand.throttle = moveTrigger(hand.throttle, pedals.throttle);
    hand.brake = moveTrigger(hand.brake, pedals.brake);
    const recover = running && recoverIfStuck(p, near);
    window.__pad.set({ axes: { 0: stick }, buttons: { [BUTTON.RT]: hand.throttle, [BUTTON.LT]: hand.brake, [BUTTON.RS]: recover ? 1 : 0 } });
  };
  window.__frameClock.beforeFrame.push(step);
};
