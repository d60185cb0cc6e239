/**
 * Binary messages between a multiplayer client and the race room's collider (docs/multiplayer.md has the layout
 * table). Little-endian, fixed sizes, a type byte and a version byte first; every decoder checks the size, the
 * type, the version and that each number is finite, and returns null for anything malformed (the room drops it).
 * Headless: used by the server (server/rooms/) and by the client (src/net/client.ts).
 */

/** Layout version (2: the state packet's recovery counter): a client of another version is refused packet by packet. */
export const PACKET_VERSION = 2;
export const STATE_PACKET_TYPE = 1;
export const IMPULSE_PACKET_TYPE = 2;
/** State packet: header 4 + tick 4 + ack 4 + recoveries 4 + position 24 + forward 16 + velocity 24 + 1/I_yy 8 bytes. */
export const STATE_PACKET_BYTES = 88;
/** Offset of the state packet's first f64 (the CG's x). */
const STATE_F64_OFFSET = 16;
/** Impulse packet: header 4 + seq 4 + tick 4 + other slot 4 + impulse 16 + point 24 bytes. */
export const IMPULSE_PACKET_BYTES = 56;

/** A state relayed to the other clients ('car') carries the sender's room slot here (u16, the reserved field). */
export const RELAY_SLOT_OFFSET = 2;

/** The slot of a relayed state and the state, or null when malformed. */
export function decodeRelayed(bytes: Uint8Array): { slot: number; state: CarState } | null {
  const state = decodeState(bytes);
  if (!state) return null;
  return { slot: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(RELAY_SLOT_OFFSET, true), state };
}

/** One car's state at the end of a tick, as the collision model needs it (yaw plane + CG height). */
export interface CarState {
  tick: number;
  /** Sequence number of the last impulse the client has applied (0: none yet). */
  ackImpulse: number;
  /** Recoveries since 'go' (the client put its car back on the circuit: src/net/race-finish.ts `netRecoveryPose`). */
  recoveries: number;
  /** CG position, m. */
  px: number;
  py: number;
  pz: number;
  /** Unit forward axis in the yaw plane. */
  fx: number;
  fz: number;
  /** CG velocity, m/s, and yaw rate ω_y, rad/s. */
  vx: number;
  vz: number;
  wy: number;
  /** (I_world⁻¹)_yy, 1/(kg·m²): the yaw inertia at the car's present attitude. */
  invIyy: number;
}

/** One impulse the collider sends to a car: J (N·s, horizontal) at a world point, stamped with its contact tick. */
export interface ImpulsePacket {
  seq: number;
  tick: number;
  /** Room slot of the other car of the contact. */
  other: number;
  jx: number;
  jz: number;
  x: number;
  y: number;
  z: number;
}

const U32_MAX = 0xffffffff;

function header(view: DataView, type: number): void {
  view.setUint8(0, type);
  view.setUint8(1, PACKET_VERSION);
  view.setUint16(2, 0, true);
}

/**
 * What is wrong with a packet's header and size for `type` (null: nothing), as a sentence: a packet of another
 * layout version says which version it is, so a room can tell an old client from garbage.
 */
export function packetHeaderProblem(bytes: Uint8Array, type: number, size: number): string | null {
  if (bytes.byteLength < 2) return `packet of ${bytes.byteLength} bytes, expected ${size}`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(0) !== type) return `packet type ${view.getUint8(0)}, expected ${type}`;
  const version = view.getUint8(1);
  if (version !== PACKET_VERSION) return `packet layout version ${version}, expected ${PACKET_VERSION} (client and server differ)`;
  if (bytes.byteLength !== size) return `packet of ${bytes.byteLength} bytes, expected ${size}`;
  return null;
}

/** True when the packet's type is right but its layout version is not this build's (an old or newer client). */
export function isOtherPacketVersion(bytes: Uint8Array, type: number): boolean {
  return bytes.byteLength >= 2 && bytes[0] === type && bytes[1] !== PACKET_VERSION;
}

function checkHeader(bytes: Uint8Array, type: number, size: number): DataView | null {
  if (packetHeaderProblem(bytes, type, size) !== null) return null;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function readF64s(view: DataView, from: number, n: number): number[] | null {
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const v = view.getFloat64(from + 8 * k, true);
    if (!Number.isFinite(v)) return null;
    out.push(v);
  }
  return out;
}

function writeF64s(view: DataView, from: number, values: readonly number[]): void {
  values.forEach((v, k) => view.setFloat64(from + 8 * k, v, true));
}

export function encodeState(s: CarState): Uint8Array {
  const bytes = new Uint8Array(STATE_PACKET_BYTES);
  const view = new DataView(bytes.buffer);
  header(view, STATE_PACKET_TYPE);
  view.setUint32(4, s.tick, true);
  view.setUint32(8, s.ackImpulse, true);
  view.setUint32(12, s.recoveries, true);
  writeF64s(view, STATE_F64_OFFSET, [s.px, s.py, s.pz, s.fx, s.fz, s.vx, s.vz, s.wy, s.invIyy]);
  return bytes;
}

/** A state packet, or null when malformed (size, type, version, a non-finite number). */
export function decodeState(bytes: Uint8Array): CarState | null {
  const view = checkHeader(bytes, STATE_PACKET_TYPE, STATE_PACKET_BYTES);
  if (!view) return null;
  const f = readF64s(view, STATE_F64_OFFSET, 9);
  if (!f) return null;
  const [px, py, pz, fx, fz, vx, vz, wy, invIyy] = f as [number, number, number, number, number, number, number, number, number];
  return { tick: view.getUint32(4, true), ackImpulse: view.getUint32(8, true), recoveries: view.getUint32(12, true), px, py, pz, fx, fz, vx, vz, wy, invIyy };
}

export function encodeImpulse(p: ImpulsePacket): Uint8Array {
  const bytes = new Uint8Array(IMPULSE_PACKET_BYTES);
  const view = new DataView(bytes.buffer);
  header(view, IMPULSE_PACKET_TYPE);
  view.setUint32(4, p.seq, true);
  view.setUint32(8, p.tick, true);
  view.setUint32(12, p.other, true);
  writeF64s(view, 16, [p.jx, p.jz, p.x, p.y, p.z]);
  return bytes;
}

/** An impulse packet, or null when malformed. */
export function decodeImpulse(bytes: Uint8Array): ImpulsePacket | null {
  const view = checkHeader(bytes, IMPULSE_PACKET_TYPE, IMPULSE_PACKET_BYTES);
  if (!view) return null;
  const f = readF64s(view, 16, 5);
  if (!f) return null;
  const seq = view.getUint32(4, true);
  if (seq === 0 || seq === U32_MAX) return null;
  const [jx, jz, x, y, z] = f as [number, number, number, number, number];
  return { seq, tick: view.getUint32(8, true), other: view.getUint32(12, true), jx, jz, x, y, z };
}
