/**
 * The pre-action gate ("Verified before acting", docs/design.md): oracle, simulator, critic,
 * uncertainty, gate, failure library, memory, and the {@link GateLoop} composing them.
 */
export * from './types.ts';
export * from './config.ts';
export * from './oracle.ts';
export * from './simulator.ts';
export * from './critic.ts';
export * from './uncertainty.ts';
export * from './gate.ts';
export * from './failure-library.ts';
export * from './memory.ts';
export * from './loop.ts';
export * from './transaction.ts';
