/**
 * Web Worker running the stage generator (generate-api.ts) behind comlink; the PNG buffers are transferred,
 * not copied. Started and ended by client.ts (ending it is how a generation is cancelled).
 */
import { expose, transfer } from 'comlink';
import { stageGenApi, type StageGenApi } from './generate-api';

const api: StageGenApi = {
  generate(params, onProgress) {
    const r = stageGenApi.generate(params, onProgress);
    return transfer(r, [r.files.heightPng.buffer as ArrayBuffer, r.files.surfacePng.buffer as ArrayBuffer]);
  },
};
expose(api);
