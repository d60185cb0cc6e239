// Piscina loads this plain-JS file in every worker thread: it registers tsx's TypeScript loader (the main
// process runs under tsx, vitest or bench's tsx; a worker thread gets none of their loaders) and hands
// the tasks to server/verify/worker.ts.
import { register } from 'tsx/esm/api';

register();
const { default: verifyTask } = await import('./worker.ts');
export default verifyTask;
