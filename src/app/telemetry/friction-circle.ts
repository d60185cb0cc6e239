/**
 * Friction circle per tyre: the tyre force over its load (F_x/N forward, F_y/N left) against the circle of
 * radius μ of the surface under it (the brush model's combined-slip limit |F| ≤ μN). A short trail shows
 * the last half second.
 */
import { CH } from './channels';
import type { TelemetryRing } from './ring';

const WHEELS = ['fl', 'fr', 'rl', 'rr'] as const;
const TRAIL = 60;

export class FrictionCircles {
  readonly el: HTMLCanvasElement;

  constructor(size = 300) {
    this.el = document.createElement('canvas');
    this.el.className = 'tele-friction';
    this.el.width = size;
    this.el.height = size;
  }

  draw(ring: TelemetryRing): void {
    const g = this.el.getContext('2d');
    if (!g) return;
    const W = this.el.width, H = this.el.height;
    g.clearRect(0, 0, W, H);
    const cell = W / 2;
    const scale = (cell / 2 - 14) / 1.3; // μ up to 1.3 fits
    for (let k = 0; k < 4; k++) {
      const w = WHEELS[k]!;
      const cx = (k % 2) * cell + cell / 2;
      const cy = Math.floor(k / 2) * (H / 2) + H / 4 + 6;
      const mu = ring.count ? ring.at(ring.count - 1, CH[`mu_${w}`]) || 1 : 1;
      g.strokeStyle = 'rgba(255,255,255,0.25)';
      g.beginPath();
      g.moveTo(cx - cell / 2 + 10, cy);
      g.lineTo(cx + cell / 2 - 10, cy);
      g.moveTo(cx, cy - cell / 2 + 16);
      g.lineTo(cx, cy + cell / 2 - 10);
      g.stroke();
      g.strokeStyle = '#ffb020';
      g.lineWidth = 2;
      g.beginPath();
      g.arc(cx, cy, mu * scale, 0, Math.PI * 2);
      g.stroke();
      g.lineWidth = 1;
      g.fillStyle = '#ddd';
      g.font = '12px monospace';
      g.fillText(`${w.toUpperCase()} μ ${mu.toFixed(2)}`, cx - cell / 2 + 8, cy - cell / 2 + 18);
      const n = Math.min(TRAIL, ring.count);
      for (let i = 0; i < n; i++) {
        const idx = ring.count - n + i;
        // screen: up = forward (+F_x), left = +F_y (car's left)
        const x = cx - ring.at(idx, CH[`fyn_${w}`]) * scale;
        const y = cy - ring.at(idx, CH[`fxn_${w}`]) * scale;
        const last = i === n - 1;
        g.fillStyle = last ? '#4cf' : `rgba(80,200,255,${(0.15 + (0.5 * i) / n).toFixed(3)})`;
        g.beginPath();
        g.arc(x, y, last ? 5 : 2, 0, Math.PI * 2);
        g.fill();
      }
    }
  }
}
