/**
 * Slow subcommands defer before any work (on a league of 15,000 races `/race void` replays for
 * seconds, past Discord's 3 s): the first thing Discord hears is the deferred "thinking…", public like the answer.
 * `/race submit` without results still opens its form (a modal cannot follow a defer). `/league config` defers only
 * when slow (test/discord/defer-when-slow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { EPHEMERAL, flagsOf, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

const bot = useLeagueBot();

/** The first event of a slash command, then its final answer. */
async function firstAndLast(name: string, options: Parameters<typeof bot.run>[1]) {
	const handle = bot.fake.sendSlashCommand(name, options, ORGANIZER);
	const first = await handle.next();
	const last = first.kind === 'callback' && first.type === 5 ? await handle.next() : first;
	return { first, last };
}

describe('slow subcommands defer first', () => {
	it('/race void, restore, show and list, /player rename: a public defer, then the answer', async () => {
		await bot.run('league', [sub('create', [text('name', 'Deferred')])], ORGANIZER);
		const p = await bot.preview([text('results', '1. Ann 60.1\n2. Bob 61.2')]);
		await bot.click(p.confirm!);
		const cases: [string, ReturnType<typeof sub>, RegExp][] = [
			['race', sub('void', [text('race', 'R1'), text('reason', 'test')]), /^Voided/],
			['race', sub('restore', [text('race', 'R1'), text('reason', 'test')]), /^Restored/],
			['race', sub('show', [text('race', 'R1')]), /R1/],
			['race', sub('list', []), /Races of/],
			['player', sub('rename', [text('player', 'Bob'), text('name', 'Robert')]), /^Renamed/],
		];
		for (const [name, option, answer] of cases) {
			const { first, last } = await firstAndLast(name, [option]);
			expect(first.kind === 'callback' && first.type, `${name} ${option.name}`).toBe(5);
			expect(flagsOf(first) & EPHEMERAL).toBe(0);
			expect(visible(last)).toMatch(answer);
		}
	});

	it('/race submit without results still opens its form, undeferred', async () => {
		const { first } = await firstAndLast('race', [sub('submit', [])]);
		expect(first.kind === 'callback' && first.type).toBe(9);
	});
});
