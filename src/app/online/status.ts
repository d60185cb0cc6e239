/**
 * A submission's status as the finish screen says it: queued, offline (queued for later), verifying,
 * accepted (with the player's rank on the board), refused (with the server's reason).
 */
import type { SubmissionInfo } from './api';
import type { SendOutcome } from './queue';

export type SubmissionView =
  | { state: 'queued' }
  | { state: 'offline'; detail: string }
  | { state: 'verifying'; id: number }
  | { state: 'accepted'; id: number; rank: number | null; stageTimeS: number | null }
  | { state: 'refused'; reason: string };

/** The view of a server row (rank: the player's rank on its board, when known). */
export function viewOfSubmission(info: SubmissionInfo, rank: number | null = null): SubmissionView {
  if (info.status === 'accepted') return { state: 'accepted', id: info.id, rank, stageTimeS: info.stageTimeS };
  if (info.status === 'rejected') return { state: 'refused', reason: info.reason ?? info.reasonCode ?? 'refused' };
  return { state: 'verifying', id: info.id };
}

export function viewOfOutcome(o: SendOutcome): SubmissionView {
  if (o.kind === 'sent') return viewOfSubmission(o.info);
  if (o.kind === 'refused') return { state: 'refused', reason: o.reason };
  return { state: 'offline', detail: o.reason };
}

/** One line of text for the finish screen. */
export function describeSubmission(v: SubmissionView): string {
  switch (v.state) {
    case 'queued':
      return 'Online: queued, sending…';
    case 'offline':
      return 'Online: offline, queued for later';
    case 'verifying':
      return 'Online: verifying on the server…';
    case 'accepted':
      return `Online: accepted${v.rank !== null ? ` — rank ${v.rank}` : ''}`;
    case 'refused':
      return `Online: refused — ${v.reason}`;
  }
}
