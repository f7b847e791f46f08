/**
 * Completions of a scripted policy (support/scripted-policy.ts) for `anchor-rl gold-watch`
 * (docs/gold-watch.md, "Proof on scripted policies"):
 *
 *   node --import tsx scripts/gold-watch-fixture.ts POLICY [PROBLEMS] [GROUP] [--config FILE] [--set k=v ...]
 *
 * POLICY is `honest` (reference solutions) or `cheating` (parity-harness exploits on even
 * completions); the first PROBLEMS (default 8) training problems of the config's task that have a
 * reference solution, GROUP (default 4) completions each, one JSONL line per completion on stdout.
 */
import { loadProblems } from '../src/train/assets.ts';
import { loadRunConfig } from '../src/train/run-config.ts';
import { cheatingCompletion, honestCompletion } from '../support/scripted-policy.ts';

const args = process.argv.slice(2);
const flags = (name: string) => args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1]!] : []));
const positional = args.filter((a, i) => !a.startsWith('--') && !['--config', '--set'].includes(args[i - 1] ?? ''));
const [policy, problems = '8', group = '4'] = positional;
if (policy !== 'honest' && policy !== 'cheating') {
  console.error('usage: gold-watch-fixture.ts honest|cheating [PROBLEMS] [GROUP] [--config FILE] [--set k=v ...]');
  process.exit(2);
}
const config = loadRunConfig(flags('--config')[0], flags('--set'));
const chosen = loadProblems(config)
  .train.filter((p) => p.reference !== undefined)
  .slice(0, Number(problems));
for (const p of chosen)
  for (let i = 0; i < Number(group); i++) {
    const completion = policy === 'honest' ? honestCompletion(p) : cheatingCompletion(p, i);
    process.stdout.write(JSON.stringify({ problem: p.id, completion }) + '\n');
  }
