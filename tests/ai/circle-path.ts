/** A closed AI path on a circle of radius `R` (m), 2 m segments, racing line on the centreline (race tests). */
import { AiPath } from '../../src/systems/sim/ai/path';

export function circlePath(R: number): AiPath {
  const n = Math.round((2 * Math.PI * R) / 2);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    p[3 * i] = R * Math.cos(a);
    p[3 * i + 2] = -R * Math.sin(a);
  }
  return AiPath.fromCentreline({ points: p, widths: [12] }, { closed: true, racingLine: 0 });
}
