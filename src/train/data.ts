/**
 * Deterministic prompt order: the train split is reshuffled each epoch from a seeded RNG, and
 * the loader's position and RNG state go into checkpoints so a resumed run sees the exact same
 * prompts. All arms of a run share the seed, so they see the same data order.
 */
import { Rng, type RngState } from '../util/rng.ts';
import { AnchorError } from '../util/errors.ts';

/** Serialisable loader state. */
export interface DataLoaderState {
  epoch: number;
  pos: number;
  order: number[];
  rng: RngState;
}

/** Yields problem indices in a seeded, epoch-wise shuffled order. */
export class DataLoader {
  private state: DataLoaderState;
  private rng: Rng;

  constructor(
    readonly size: number,
    seed: number,
  ) {
    if (size <= 0) throw new AnchorError('BAD_CONFIG', 'DataLoader needs at least one problem');
    this.rng = new Rng(seed).fork('data-order');
    this.state = { epoch: 0, pos: 0, order: this.rng.shuffle([...Array(size).keys()]), rng: this.rng.getState() };
  }

  /** The next `n` indices (wrapping into a fresh shuffle at the end of an epoch). */
  next(n: number): number[] {
    const out: number[] = [];
    while (out.length < n) {
      if (this.state.pos >= this.state.order.length) {
        this.state.epoch++;
        this.state.pos = 0;
        this.state.order = this.rng.shuffle([...Array(this.size).keys()]);
      }
      out.push(this.state.order[this.state.pos++]!);
    }
    this.state.rng = this.rng.getState();
    return out;
  }

  getState(): DataLoaderState {
    return structuredClone(this.state);
  }

  setState(s: DataLoaderState): void {
    this.state = structuredClone(s);
    this.rng.setState(s.rng);
  }
}
