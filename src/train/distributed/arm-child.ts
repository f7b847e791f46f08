/**
 * Process entry of an arm run by a trainer worker (`anchor-rl worker --role trainer`): the
 * ordinary arm process (src/train/arm-process.ts), plus one rule — if the trainer worker that
 * forked it dies (IPC channel gone), the arm dies too. Otherwise an orphaned arm would keep
 * writing to the run directory while another worker resumes the same arm from its checkpoint.
 * Checkpoints are written atomically and logs are truncated to the checkpoint on resume, so
 * dying at any point is safe.
 */
process.on('disconnect', () => {
  // arm-process sets exitCode before it disconnects on its own; only an unexpected loss kills.
  if (process.exitCode === undefined) process.kill(process.pid, 'SIGKILL');
});
await import('../arm-process.ts');
