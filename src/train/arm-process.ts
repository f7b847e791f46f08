/**
 * Entry point of an arm's own process (forked by ./run.ts), so arms keep memory and crashes
 * apart. Reads the run's manifest, applies the arm's overlay, trains, and reports progress to
 * the parent over IPC. Exit code 0 = done or stopped cleanly (resumable), 1 = failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedArmConfig } from './run-config.ts';
import { runArm, type ArmProgress } from './arm-runner.ts';
import type { RunManifest } from './run-format.ts';
import { configHash } from './run-dir.ts';

/** Message from an arm process to its parent. */
export type ArmMessage =
  | { type: 'progress'; progress: ArmProgress }
  | { type: 'log'; message: string }
  | { type: 'error'; message: string };

/** How long a finished arm process may linger on open handles before it exits anyway, ms. */
const ARM_EXIT_GRACE_MS = 10_000;

const send = (m: ArmMessage) => {
  if (process.send && process.connected) process.send(m);
  else if (!process.send) process.stderr.write(JSON.stringify(m) + '\n');
};

// If the parent goes away (killed, crashed), stop like on SIGTERM: finish the step, checkpoint,
// exit — an orphaned arm must not keep training into a run directory nobody is watching.
const onParentGone = () => process.kill(process.pid, 'SIGTERM');
process.on('disconnect', onParentGone);

async function main(): Promise<number> {
  const [runDir, armName, stopAfter] = process.argv.slice(2);
  if (!runDir || !armName) {
    process.stderr.write('usage: arm-process RUN_DIR ARM [STOP_AFTER]\n');
    return 2;
  }
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as RunManifest;
  // A config edited in manifest.json is applied only through `resume --allow-config-change`,
  // which records it; never silently by an arm (re)started by a sweep rerun or a queue worker.
  if (manifest.configHash && configHash(manifest.config) !== manifest.configHash) {
    send({
      type: 'error',
      message: `${join(runDir, 'manifest.json')}: the config was changed since the run started (it no longer matches configHash); \`anchor-rl resume ${runDir}\` lists the changes`,
    });
    return 2;
  }
  // Read as the versions that wrote it ran it (options added since keep their earlier behaviour).
  const armConfig = recordedArmConfig(manifest.config, armName);
  if (!armConfig) {
    send({ type: 'error', message: `arm ${armName} is not in ${runDir}/manifest.json` });
    return 2;
  }
  const { config, arm } = armConfig;
  try {
    await runArm({
      runDir,
      config,
      arm,
      onProgress: (progress) => send({ type: 'progress', progress }),
      log: (message) => send({ type: 'log', message }),
      ...(stopAfter ? { stopAfter: Number(stopAfter) } : {}),
    });
    return 0;
  } catch (err) {
    send({ type: 'error', message: (err as Error).stack ?? String(err) });
    return 1;
  }
}

process.exitCode = await main();
// Native handles (ORT, isolated-vm workers) are closed by runArm; disconnect so the process ends.
// Our own disconnect at the end is not the parent going away.
process.off('disconnect', onParentGone);
if (process.connected) process.disconnect();
// The driver waits for this process to exit, so anything a library leaves running (a Redis
// client still reconnecting after the arm failed on a Redis timeout, say) must not keep it alive.
// Everything the arm writes is written by now; unref'd, this fires only if the process lingers.
setTimeout(() => {
  process.stderr.write(`arm process: exiting with handles still open (${process.getActiveResourcesInfo().join(', ')})\n`);
  process.exit();
}, ARM_EXIT_GRACE_MS).unref();
