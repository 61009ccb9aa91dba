/**
 * The registry (STYLE.md 2): every slash command, listed explicitly. Adding a command is one import and one entry;
 * test/discord/command-registry.test.ts checks names are unique and every entry has the right shape.
 */
import type { ButtonHandler, Command } from '../src/discord/command.js';
import about from './about.js';

export const commands: readonly Command[] = [about];

/** Button handlers, routed by customId prefix. */
export const buttons: readonly ButtonHandler[] = [];
