/**
 * The car file editor: CodeMirror 6 with TOML highlighting (legacy-modes toml via StreamLanguage), lint
 * against the game's car loader (checkCarDraft: zod schema + semantic checks, underlined at the value with
 * the schema's message) and key completion from the JSON Schema generated from the same zod schema.
 * Slider moves arrive as single-span changes (`applyTextEdit`), so the user's text, comments and undo
 * history stay intact.
 */
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, highlightSpecialChars, type ViewUpdate } from '@codemirror/view';
import { EditorState, Prec, type Extension } from '@codemirror/state';
import { StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching, indentOnInput } from '@codemirror/language';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { linter, lintGutter, lintKeymap, forceLinting, type Diagnostic } from '@codemirror/lint';
import { autocompletion, completionStatus, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { carJsonSchema } from '../../content/car-schema';
import { checkCarDraft, type DraftCheck, type ReadExtends } from './car-draft';
import { completeKeys, type JsonSchema } from './schema-complete';
import type { TextEdit } from './toml-spans';

export interface CarEditorOptions {
  text: string;
  /** File name used in messages and for the car id. */
  file: string;
  readExtends?: ReadExtends;
  /** Every document change (typing, slider). */
  onChange?: (text: string) => void;
  /** After each validation (debounced while typing). */
  onCheck?: (check: DraftCheck, text: string) => void;
}

let schemaCache: JsonSchema | null = null;
const schema = (): JsonSchema => (schemaCache ??= carJsonSchema() as JsonSchema);

export class CarEditor {
  readonly view: EditorView;
  file: string;
  lastCheck: DraftCheck | null = null;
  private lastCheckedText: string | null = null;

  constructor(
    parent: HTMLElement,
    private readonly opts: CarEditorOptions,
  ) {
    this.file = opts.file;
    this.view = new EditorView({ parent, state: EditorState.create({ doc: opts.text, extensions: this.extensions() }) });
    // The game's input devices listen on window (Backspace/Escape = menu back, arrows = menu moves, WASD =
    // driving): keys typed in the editor stop here, after CodeMirror (listening on its content) handled them.
    this.view.dom.addEventListener('keydown', (e) => e.stopPropagation());
  }

  /** Validate now (also what the linter runs). */
  check(text = this.text): DraftCheck {
    if (this.lastCheck && this.lastCheckedText === text) return this.lastCheck;
    const c = checkCarDraft(text, this.file, this.opts.readExtends);
    this.lastCheck = c;
    this.lastCheckedText = text;
    this.opts.onCheck?.(c, text);
    return c;
  }

  private lint(text: string): Diagnostic[] {
    const c = this.check(text);
    const len = text.length;
    return c.problems.map((p) => ({
      from: Math.min(p.from, len),
      to: Math.min(Math.max(p.to, p.from), len),
      severity: 'error' as const,
      message: p.message,
      source: 'car schema',
    }));
  }

  private complete(ctx: CompletionContext): CompletionResult | null {
    const r = completeKeys(ctx.state.doc.toString(), ctx.pos, schema());
    if (!r) return null;
    if (r.from === ctx.pos && !ctx.explicit) return null;
    return {
      from: r.from,
      options: r.options.map((o) => ({ label: o.label, detail: o.detail, type: o.type, apply: o.apply, boost: o.detail.includes('required') ? 1 : 0 })),
      validFor: /^[A-Za-z0-9_.-]*$/,
    };
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  /** Replace the whole document (another car opened); resets undo history. */
  setText(text: string, file = this.file): void {
    this.file = file;
    this.lastCheck = null;
    this.view.setState(EditorState.create({ doc: text, extensions: this.extensions() }));
    forceLinting(this.view);
  }

  private extensions(): Extension[] {
    return [
      // the usual "basic setup" (the installed `codemirror` package is CodeMirror 5, so it is composed here)
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
      Prec.highest(
        EditorView.domEventHandlers({
          keydown: (e, v) => {
            // Escape (when no completion list is open) gives the keyboard back to the menu
            if (e.key === 'Escape' && completionStatus(v.state) === null) {
              e.preventDefault();
              v.contentDOM.blur();
              return true;
            }
            return false;
          },
        }),
      ),
      StreamLanguage.define(toml),
      linter((view) => this.lint(view.state.doc.toString()), { delay: 250 }),
      lintGutter(),
      autocompletion({ override: [(ctx) => this.complete(ctx)], activateOnTyping: true }),
      EditorView.updateListener.of((u: ViewUpdate) => {
        if (u.docChanged) this.opts.onChange?.(u.state.doc.toString());
      }),
      EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { fontFamily: 'ui-monospace, Menlo, Consolas, monospace' } }),
    ];
  }

  /** One surgical change (a slider move): only [from, to) is replaced; undoable. */
  applyTextEdit(e: TextEdit): void {
    this.view.dispatch({ changes: { from: e.from, to: e.to, insert: e.insert }, userEvent: 'input.slider' });
  }

  /** Re-run the lint now (e.g. before apply). */
  relint(): void {
    forceLinting(this.view);
  }

  focus(): void {
    this.view.focus();
  }

  get hasFocus(): boolean {
    return this.view.hasFocus;
  }

  blur(): void {
    this.view.contentDOM.blur();
  }

  destroy(): void {
    this.view.destroy();
  }
}
