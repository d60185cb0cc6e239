import { describe } from 'vitest';
import { finishAllStages } from './finish';

describe('AI autopilot: every shipped stage on the classic-rwd', () => finishAllStages('classic-rwd'));
