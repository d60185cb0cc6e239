/** Side-effect module for Node entry points (CLIs): loads Havok once, before any world is built. */
import { loadHavokNode } from './havok-node';

await loadHavokNode();
