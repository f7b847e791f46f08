#!/usr/bin/env node
// Entry shim: the CLI is written in TypeScript and run through tsx's loader, so a fresh
// clone works after `npm ci` with no build step and stack traces point at the sources.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
