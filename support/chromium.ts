/**
 * Headless Chromium for the report's browser test and screenshot script: Debian's `chromium`
 * package driven by playwright-core. Never downloads a browser.
 */
import { existsSync } from 'node:fs';

/** Where Debian's chromium package installs the browser (override with CHROMIUM_PATH). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a quiet, sandbox-free headless run in CI containers. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Null when Chromium is usable, else the reason it is not. */
export function chromiumMissingReason(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} not found (install Debian's chromium package; .ci/run does)`;
}

/** Launch headless Chromium through playwright-core. */
export async function launchChromium(): Promise<import('playwright-core').Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
