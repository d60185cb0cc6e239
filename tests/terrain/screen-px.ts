/** Test helper: the brute-force screen-space error of a drawn height against the true one (geomipmap and RTIN tests). */
import type { LodCamera } from '../../terrain';

/**
 * Pixels between (x, drawnY, z) and (x, trueY, z) projected through `cam.viewProj` (16:9 viewport), or null
 * when the drawn point is off screen (an error nobody sees is not bounded).
 */
export function screenErrorPx(cam: LodCamera, x: number, drawnY: number, trueY: number, z: number): number | null {
  const m = cam.viewProj, H = cam.viewportHeightPx, W = H * (16 / 9);
  const px = (y: number): [number, number, boolean] => {
    const cx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!, cy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    const cz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!, cw = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    return [((cx / cw) * W) / 2, ((cy / cw) * H) / 2, cw > 0 && Math.abs(cx) <= cw && Math.abs(cy) <= cw && Math.abs(cz) <= cw];
  };
  const [x0, y0, seen] = px(drawnY), [x1, y1] = px(trueY);
  return seen ? Math.hypot(x1 - x0, y1 - y0) : null;
}
