/**
 * Virtual standard-mapping gamepad, injected before the page scripts run (page.addInitScript).
 * window.__pad.set({axes:{0:-1}, buttons:{7:0.8}}), .press(i, ms), .connect(), .disconnect().
 */
export const PAD_INIT = () => {
  const pad = {
    id: 'Virtual Xbox Controller (STANDARD GAMEPAD)',
    index: 0,
    connected: false,
    mapping: 'standard',
    timestamp: 0,
    axes: [0, 0, 0, 0],
    buttons: Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 })),
    vibrationActuator: {
      effects: [],
      playEffect(type, params) {
        window.__padRumble = (window.__padRumble || 0) + 1;
        window.__padLastRumble = { type, ...params };
        return Promise.resolve('complete');
      },
    },
  };
  const fire = (type) => {
    const e = new Event(type);
    Object.defineProperty(e, 'gamepad', { value: pad });
    window.dispatchEvent(e);
  };
  navigator.getGamepads = () => [pad.connected ? pad : null, null, null, null];
  window.__pad = {
    pad,
    connect() {
      pad.connected = true;
      fire('gamepadconnected');
    },
    disconnect() {
      pad.connected = false;
      fire('gamepaddisconnected');
    },
    set({ axes = {}, buttons = {} } = {}) {
      for (const [i, v] of Object.entries(axes)) pad.axes[+i] = v;
      for (const [i, v] of Object.entries(buttons)) {
        pad.buttons[+i] = { pressed: v > 0.5, touched: v > 0, value: v };
      }
      pad.timestamp++;
    },
  };
};
