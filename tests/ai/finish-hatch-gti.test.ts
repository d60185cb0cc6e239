import { describe } from 'vitest';
import { finishAllStages } from './finish';

describe('AI autopilot: every shipped stage on the hatch-gti', () => finishAllStages('hatch-gti'));
