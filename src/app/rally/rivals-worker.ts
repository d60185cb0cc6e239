/** Web Worker computing a rally stage's rival times (rivals-api.ts) behind comlink, off the UI thread. */
import { expose } from 'comlink';
import { rivalTimesApi } from './rivals-api';

expose(rivalTimesApi);
