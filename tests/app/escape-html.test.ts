import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/app/escape-html';
import { boardLineHtml, resultRowHtml, type Standing } from '../../src/app/rallycross/standings-html';

const EVIL_NAME = `<img src=x onerror="alert('x')">&co`;
const EVIL_CAR = `"><script>alert(1)</script>`;
const standing = (over: Partial<Standing> = {}): Standing => ({
  name: EVIL_NAME, carId: EVIL_CAR, lap: 2, finishS: 61.5, penaltyS: 2, jokers: 1, jumpStart: false, player: false, ...over,
});

/** Text a browser would show for escaped markup (the five entities escapeHtml writes). */
const unescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe('escapeHtml', () => {
  it('escapes the five markup characters and round-trips to the same text', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    for (const s of [EVIL_NAME, EVIL_CAR, 'Ærø — 100 % & more', '&amp;']) expect(unescape(escapeHtml(s))).toBe(s);
    expect(escapeHtml(42)).toBe('42');
  });
});

describe('rallycross standings render names and car ids as text', () => {
  for (const [what, html] of [
    ['HUD board line', boardLineHtml(standing(), 0)],
    ['results row', resultRowHtml(standing(), 0)],
  ] as const) {
    it(`${what}: no tag or attribute from the name or the car id reaches the markup`, () => {
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<script');
      expect(html).not.toContain('onerror="');
      expect(html).toContain(escapeHtml(EVIL_NAME));
      expect(html).toContain(escapeHtml(EVIL_CAR));
      // the markup's own tags are the only ones: every '<' opens a known element
      const tags = [...html.matchAll(/<\/?([a-z]+)/g)].map((m) => m[1]);
      expect(new Set(tags)).toEqual(new Set(what === 'results row' ? ['tr', 'td', 'span'] : ['div', 'span']));
    });
  }
});
