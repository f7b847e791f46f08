/**
 * The names of Node's host globals every realm of the JavaScript sandbox has as its own (built by
 * sandbox/node-globals.js from the realm's primordials): one list for the isolate scripts, which
 * get it from the worker (`HOST_GLOBAL_NAMES`), and for the test planner, which never resolves
 * these names to the program (src/sandbox/test-plan.ts).
 */

/** Built in the program realm on its first use of one of them (see installNodeGlobals). */
export const HOST_GLOBALS: readonly string[] = [
  'queueMicrotask',
  'btoa',
  'atob',
  'TextEncoder',
  'TextDecoder',
  'Buffer',
  'structuredClone',
  'URL',
  'URLSearchParams',
  'DOMException',
  'Event',
  'CustomEvent',
  'EventTarget',
  'AbortController',
  'AbortSignal',
  'crypto',
  'performance',
  'process',
  'global',
];

/** Node's timer functions, on each realm's own queue or the port to the tests realm's. */
export const TIMER_GLOBALS: readonly string[] = [
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
];
