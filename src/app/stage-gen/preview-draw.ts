/**
 * Draws a stage preview (preview.ts) on 2D canvases: the road map coloured by the surface under it (start green,
 * finish red) and the elevation profile (height against distance, with the min/max heights).
 */
import type { StagePreview } from './preview';

export const SURFACE_COLOURS: Record<string, string> = { gravel: '#c9a86a', tarmac: '#6c7480', snow: '#f4f8fc', ice: '#7fc4ef', grass: '#6aa84f' };
const MAP_MARGIN = 0.08;

/** The road map: each 10 m piece in its surface's colour. */
export function drawPreviewMap(canvas: HTMLCanvasElement, p: StagePreview): void {
  const ctx = canvas.getContext('2d');
  if (!ctx || p.x.length < 2) return;
  const { width: w, height: h } = canvas;
  const minX = Math.min(...p.x), maxX = Math.max(...p.x), minZ = Math.min(...p.z), maxZ = Math.max(...p.z);
  const sc = (1 - 2 * MAP_MARGIN) * Math.min(w / Math.max(1, maxX - minX), h / Math.max(1, maxZ - minZ));
  const px = (i: number): number => w / 2 + sc * (p.x[i]! - (minX + maxX) / 2);
  const pz = (i: number): number => h / 2 - sc * (p.z[i]! - (minZ + maxZ) / 2);
  ctx.fillStyle = '#1d2a1b';
  ctx.fillRect(0, 0, w, h);
  ctx.lineCap = 'round';
  ctx.lineWidth = 4;
  for (let i = 1; i < p.x.length; i++) {
    ctx.strokeStyle = SURFACE_COLOURS[p.surface[i]!] ?? '#fff';
    ctx.beginPath();
    ctx.moveTo(px(i - 1), pz(i - 1));
    ctx.lineTo(px(i), pz(i));
    ctx.stroke();
  }
  const dot = (i: number, c: string): void => {
    ctx.fillStyle = c;
    ctx.beginPath();
    ctx.arc(px(i), pz(i), 6, 0, 2 * Math.PI);
    ctx.fill();
  };
  dot(0, '#2c2');
  dot(p.x.length - 1, '#d22');
}

/** Height (m) against distance (km), filled below the line. */
export function drawElevationProfile(canvas: HTMLCanvasElement, p: StagePreview): void {
  const ctx = canvas.getContext('2d');
  if (!ctx || p.y.length < 2) return;
  const { width: w, height: h } = canvas;
  const lo = Math.min(...p.y), hi = Math.max(...p.y);
  const span = Math.max(10, hi - lo);
  const pad = 18;
  const X = (i: number): number => (w * i) / (p.y.length - 1);
  const Y = (y: number): number => h - pad - ((h - 2 * pad) * (y - lo)) / span;
  ctx.fillStyle = '#182028';
  ctx.fillRect(0, 0, w, h);
  ctx.beginPath();
  ctx.moveTo(0, h);
  p.y.forEach((y, i) => ctx.lineTo(X(i), Y(y)));
  ctx.lineTo(w, h);
  ctx.closePath();
  ctx.fillStyle = '#3d5a73';
  ctx.fill();
  ctx.strokeStyle = '#cfe3f5';
  ctx.lineWidth = 2;
  ctx.beginPath();
  p.y.forEach((y, i) => (i ? ctx.lineTo(X(i), Y(y)) : ctx.moveTo(X(i), Y(y))));
  ctx.stroke();
  ctx.fillStyle = '#fff';
  ctx.font = '12px sans-serif';
  ctx.fillText(`${hi.toFixed(0)} m`, 4, 12);
  ctx.fillText(`${lo.toFixed(0)} m`, 4, h - 4);
  ctx.fillText(`${(p.lengthM / 1000).toFixed(2)} km`, w - 60, h - 4);
}
