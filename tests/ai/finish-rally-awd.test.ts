import { describe } from 'vitest';
import { finishAllStages } from './finish';

describe('AI autopilot: every shipped stage on the rally-awd', () => finishAllStages('rally-awd'));
