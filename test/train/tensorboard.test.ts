/**
 * TensorBoard event files, read back by an independent decoder (test/helpers/tfevents-reader.ts:
 * its own CRC-32C and protobuf walker): framing, checksums, file version, every numeric metric as
 * a scalar at its step, the purge marker of a resumed arm, and the `logging` config section.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../src/train/run-config.ts';
import { KvLogger } from '../../src/train/logger.ts';
import { crc32c, TensorBoardWriter } from '../../src/train/tensorboard.ts';
import { errorOf } from '../helpers/errors.ts';
import { readEventFile, readTfRecords } from '../helpers/tfevents-reader.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-tb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const eventFiles = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n.startsWith('events.out.tfevents.'))
    .sort();

describe('TensorBoard event files', () => {
  it('CRC-32C matches the standard check value', () => {
    // RFC 3720 / the CRC catalogue: CRC-32C("123456789") = 0xE3069283.
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it('writes every numeric metric as a scalar at its step, in valid TFRecords', () => {
    const dir = join(root, 'arm');
    mkdirSync(dir, { recursive: true });
    const tb = new TensorBoardWriter(dir);
    const log = new KvLogger([tb]);
    for (let s = 0; s < 5; s++) {
      log.record('reward/proxy', 0.1 * s);
      log.record('reward/gold', s === 2 ? null : 0.5 + 0.01 * s);
      log.record('kl/ref', Number.NaN); // non-finite: recorded as null, not plotted
      log.record('gate/decision', 'AUTHORIZE'); // a string: not a scalar
      log.record('gate/applied', s % 2 === 0);
      log.dump(s);
    }
    tb.writeScalars(4, { step: 4, drift: 0.25, gap: null, fit: { mse: 1 } }, 'refit');
    log.close();

    const files = eventFiles(dir);
    expect(files).toHaveLength(1);
    const events = readEventFile(join(dir, files[0]!));
    expect(events[0]!.fileVersion).toBe('brain.Event:2');
    expect(events[0]!.wallTime).toBeGreaterThan(1.7e9);
    const scalars = events.filter((e) => e.scalars);
    expect(scalars.map((e) => e.step)).toEqual([0, 1, 2, 3, 4, 4]);
    expect(scalars[3]!.scalars).toEqual({
      'reward/proxy': Math.fround(0.1 * 3),
      'reward/gold': Math.fround(0.53),
      'gate/applied': 0,
    });
    expect(scalars[2]!.scalars).not.toHaveProperty('reward/gold');
    expect(scalars[5]!.scalars).toEqual({ 'refit/drift': 0.25 });
    expect(events.some((e) => e.sessionStatus !== undefined)).toBe(false);
  });

  it('the reader rejects a flipped byte (the checksums are real)', () => {
    const dir = join(root, 'arm');
    const path = join(dir, eventFiles(dir)[0]!);
    const bytes = readFileSync(path);
    expect(readTfRecords(bytes).length).toBeGreaterThan(5);
    const bad = Buffer.from(bytes);
    bad.writeUInt8(bad.readUInt8(bad.length - 6) ^ 0x01, bad.length - 6);
    expect(() => readTfRecords(bad)).toThrow(/bad data CRC/);
    const badLen = Buffer.from(bytes);
    badLen.writeUInt8(badLen.readUInt8(0) ^ 0x01, 0);
    expect(() => readTfRecords(badLen)).toThrow(/bad length CRC/);
  });

  it('a resumed writer starts a new file that purges the old steps from its resume step', () => {
    const dir = join(root, 'resumed');
    mkdirSync(dir, { recursive: true });
    const first = new TensorBoardWriter(dir);
    for (let s = 0; s < 6; s++) first.write({ step: s, 'reward/gold': s });
    first.close();
    const second = new TensorBoardWriter(dir, 4);
    for (let s = 4; s < 8; s++) second.write({ step: s, 'reward/gold': 10 + s });
    second.close();
    const files = eventFiles(dir);
    expect(files).toHaveLength(2);
    const resumed = files.map((f) => readEventFile(join(dir, f))).find((ev) => ev.some((e) => e.sessionStatus !== undefined))!;
    expect(resumed[0]).toMatchObject({ fileVersion: 'brain.Event:2', step: 4 });
    expect(resumed[1]).toMatchObject({ sessionStatus: 1, step: 4 }); // SessionLog.START at the resume step
    expect(resumed.filter((e) => e.scalars).map((e) => [e.step, e.scalars!['reward/gold']])).toEqual([
      [4, 14],
      [5, 15],
      [6, 16],
      [7, 17],
    ]);
  });
});

describe('logging config', () => {
  it('defaults to no event files and accepts logging.tensorboard', () => {
    expect(loadRunConfig(undefined).logging).toEqual({ tensorboard: false });
    expect(loadRunConfig(undefined, ['logging.tensorboard=true']).logging.tensorboard).toBe(true);
  });

  it('rejects a bad value and an unknown key, quoting the key path', () => {
    const cfg = join(root, 'bad.yaml');
    writeFileSync(cfg, 'logging:\n  tensorboard: "yes"\n');
    expect(errorOf(() => loadRunConfig(cfg)).message).toMatch(/logging\.tensorboard/);
    writeFileSync(cfg, 'logging:\n  tensorbord: true\n');
    expect(errorOf(() => loadRunConfig(cfg)).message).toMatch(/tensorbord/);
  });
});
