/**
 * The optional `[look]` table of a car file: body style and livery colours. Presentation only: the simulation
 * never reads it (it is not in any component, so not in the state hash), the car views build the body from it.
 */
import { z } from 'zod';

export const BODY_STYLES = ['hatch', 'saloon', 'coupe', 'van'] as const;
export type BodyStyle = (typeof BODY_STYLES)[number];

export const WING_KINDS = ['none', 'lip', 'big'] as const;
export type WingKind = (typeof WING_KINDS)[number];

/** Linear-ish display RGB, each 0..1 (what the renderer takes). */
export type Rgb = [number, number, number];

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** "#rrggbb" → [r, g, b] in 0..1. */
export function rgbFromHex(hex: string): Rgb {
  const v = Number.parseInt(hex.slice(1), 16);
  return [((v >> 16) & 255) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255];
}

const colour = (what: string) =>
  z
    .string({ error: `expected a colour "#rrggbb" (${what})` })
    .regex(HEX_COLOUR, { error: `expected a colour "#rrggbb" (${what})` })
    .meta({ description: `${what}: "#rrggbb"` });

export const LookSchema = z.strictObject({
  // "coupé" is accepted as the spelling people type; stored as "coupe"
  style: z
    .enum([...BODY_STYLES, 'coupé'], { error: `expected one of ${BODY_STYLES.join(', ')}` })
    .default('hatch')
    .meta({ description: 'Body style: hatch (two-box), saloon (three-box, boot), coupe (long bonnet, fastback), van (one-box panel van)' }),
  primary: colour('main body paint').default('#2a5fd8'),
  secondary: colour('roof, bonnet centre and lower sills').default('#f2f2f2'),
  stripe: colour('side stripe and door number panel').default('#d02020'),
  wing: z
    .enum(WING_KINDS, { error: `expected one of ${WING_KINDS.join(', ')}` })
    .optional()
    .meta({ description: 'Rear wing: none, lip (roof/boot spoiler) or big (rally wing); default lip for hatch, none otherwise' }),
});

export type LookFile = z.output<typeof LookSchema>;

/** The car's look as the views use it. */
export interface CarLook {
  style: BodyStyle;
  wing: WingKind;
  primary: Rgb;
  secondary: Rgb;
  stripe: Rgb;
}

/** The look of a file without `[look]`: every default of LookSchema. */
export const DEFAULT_LOOK_FILE: LookFile = LookSchema.parse({});

/** Validated `[look]` → the view's look (colours in 0..1, the style's default wing). */
export function lookConfig(l: LookFile = DEFAULT_LOOK_FILE): CarLook {
  const style: BodyStyle = l.style === 'coupé' ? 'coupe' : l.style;
  return {
    style,
    wing: l.wing ?? (style === 'hatch' ? 'lip' : 'none'),
    primary: rgbFromHex(l.primary),
    secondary: rgbFromHex(l.secondary),
    stripe: rgbFromHex(l.stripe),
  };
}
