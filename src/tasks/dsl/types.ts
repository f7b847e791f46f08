/**
 * Types of the DSL worlds of the reference study (docs/design.md, "The synthetic worlds").
 * A program is a string with one character per token, e.g. `'ADQS'`, applied left to right
 * to an integer register that starts at the input x.
 */
import type { Problem } from '../../datasets/problem.ts';
import type { Rng } from '../../util/rng.ts';

/** Names of the built-in DSL worlds. */
export type DslWorldName = 'dsl6' | 'richdsl';

/** A DSL program: one character per token. */
export type DslProgram = string;

/** A task: a hidden target program and its outputs on the world's inputs. */
export interface DslTask {
  id: string;
  world: DslWorldName;
  /** The hidden target program. */
  target: DslProgram;
  /** The world's inputs, in order. */
  inputs: readonly number[];
  /** The target's outputs on `inputs` (all defined, by construction). */
  outputs: readonly number[];
}

/** A DSL world: tokens, semantics, task sampler, evaluator, features and compiler. */
export interface DslWorld {
  readonly name: DslWorldName;
  /** Token alphabet in feature order. */
  readonly tokens: readonly string[];
  /** Inputs every task is evaluated on. */
  readonly inputs: readonly number[];
  /** A value with |v| > limit after any operation makes the run invalid. */
  readonly limit: number;
  /** Length of sampled target programs. */
  readonly targetLength: number;
  /** Longest legal program; random candidates have length uniform in 1..maxLength. */
  readonly maxLength: number;
  /** A task needs strictly more than this many distinct outputs. */
  readonly minDistinctExclusive: number;
  /** Feature set names; the first is the default. */
  readonly featureSets: readonly string[];
  /** True when the program has 1..maxLength characters, all tokens of this world. */
  isProgram(program: string): boolean;
  /** Run on one input; `null` means invalid (overflow or not a program). */
  run(program: DslProgram, x: number): number | null;
  /** Run on several inputs (default: the world's inputs). */
  outputs(program: DslProgram, inputs?: readonly number[]): (number | null)[];
  /** Sample a task satisfying the spec's constraints (rejection sampling). */
  sampleTask(rng: Rng, id?: string): DslTask;
  /** A random candidate: length uniform in 1..maxLength, tokens uniform i.i.d. */
  randomProgram(rng: Rng): DslProgram;
  /** Gold: fraction of the task's I/O pairs the program matches (invalid = mismatch). */
  evaluate(program: DslProgram, task: DslTask): number;
  /** Feature vector of a program for the named set (default: first set). */
  features(program: DslProgram, set?: string): Float32Array;
  featureDim(set?: string): number;
  featureNames(set?: string): string[];
  /** A self-contained JS program: the compiled function `f` plus one assert per I/O pair. */
  compileToJs(program: DslProgram, task: DslTask): string;
  /** The task as a Problem: completion = the token string; tests interpret it and assert. */
  toProblem(task: DslTask, source?: string): Problem;
}
