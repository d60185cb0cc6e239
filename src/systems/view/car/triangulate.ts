/**
 * Ear-clipping triangulation of a simple polygon (2D points in order, either winding): n − 2 triangles as index
 * triples. O(n³) worst case, meant for the few dozen points of a car's side profile.
 */
export function triangulatePolygon(poly: readonly [number, number][]): [number, number, number][] {
  const idx = poly.map((_, i) => i);
  const sign = signedArea(poly) >= 0 ? 1 : -1;
  const out: [number, number, number][] = [];
  let guard = poly.length;
  while (idx.length > 3 && guard-- > 0) {
    // a polygon that is not simple has no ear left: clip the first corner anyway, so the loop always ends
    let at = 0;
    for (let i = 0; i < idx.length; i++) {
      if (isEar(poly, idx, idx[(i + idx.length - 1) % idx.length]!, idx[i]!, idx[(i + 1) % idx.length]!, sign)) {
        at = i;
        break;
      }
    }
    out.push([idx[(at + idx.length - 1) % idx.length]!, idx[at]!, idx[(at + 1) % idx.length]!]);
    idx.splice(at, 1);
  }
  if (idx.length === 3) out.push([idx[0]!, idx[1]!, idx[2]!]);
  return out;
}

function signedArea(p: readonly [number, number][]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!;
    const b = p[(i + 1) % p.length]!;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

const cross2 = (o: [number, number], a: [number, number], b: [number, number]): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

function isEar(p: readonly [number, number][], idx: readonly number[], a: number, b: number, c: number, sign: number): boolean {
  const A = p[a]!;
  const B = p[b]!;
  const C = p[c]!;
  if (cross2(A, B, C) * sign <= 0) return false; // reflex or flat corner
  for (const k of idx) {
    if (k === a || k === b || k === c) continue;
    const P = p[k]!;
    if (cross2(A, B, P) * sign >= 0 && cross2(B, C, P) * sign >= 0 && cross2(C, A, P) * sign >= 0) return false;
  }
  return true;
}
