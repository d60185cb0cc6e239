/**
 * The one HTML escape of the app: every name, id or message that goes into markup (innerHTML, html``,
 * insertAdjacentHTML) passes through it, so a driver name such as `<img onerror=…>` shows as text.
 * Prefer `textContent` where a whole element holds one value; use this where markup is built around values.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
