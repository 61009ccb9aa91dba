/**
 * `/league delete` and `/league undelete` end to end (the REAL discord.js client, the fake Discord): the preview is
 * the organizer's alone, with the export attached and Confirm / Cancel; members without Manage Server are refused on
 * the server side, also at the button; Confirm hides the league from every command; undelete brings it back.
 */
import { describe, expect, it } from 'vitest';
import {
	content,
	EPHEMERAL,
	expectWithinDiscordLimits,
	flagsOf,
	MEMBER,
	mentionsOf,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
} from './league-bot.js';
import type { Actor, Json } from './fake-discord-wire.js';

const bot = useLeagueBot();
const { run, expectRefusal, preview, click } = bot;
/** An organizer by role only: may run the league, not delete it. */
const ROLE_ORGANIZER: Actor = { userId: '400000000000000009', roles: ['500000000000000001'] };

function buttonIds(data: Json): string[] {
	const rows = (data['components'] ?? []) as Json[];
	return rows.flatMap((row) => (row['components'] as Json[]).map((c) => String(c['custom_id'])));
}

describe('/league delete and undelete', () => {
	it('a league with a race', async () => {
		const created = await run('league', [sub('create', [text('name', 'Sun Cup')])], ORGANIZER);
		expect(content(created)).toContain('Created league **Sun Cup**');
		const p = await preview([text('results', '1. Alice\n2. Bob\n3. Cy')]);
		expect(content((await click(p.confirm!))[1]!)).toMatch(/^Stored as \*\*R1\*\*/);
	});

	it('refuses a member without Manage Server, ephemerally', async () => {
		await expectRefusal('league', [sub('delete')], MEMBER, /Manage Server/);
	});

	let confirm = '';
	it('previews to the organizer alone, with the export attached and Confirm / Cancel, within 3 s', async () => {
		const started = performance.now();
		const handle = bot.fake.sendSlashCommand('league', [sub('delete')], ORGANIZER);
		const defer = await handle.next();
		expect(defer).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(defer) & EPHEMERAL).toBe(EPHEMERAL);
		const edit = await handle.next();
		expect(performance.now() - started).toBeLessThan(3000);
		if (edit.kind !== 'edit') throw new Error(`expected the preview edit, got ${edit.kind}`);
		expect(content(edit)).toMatch(/^Delete \*\*Sun Cup\*\*\? 1 race, 3 players: /);
		expectWithinDiscordLimits(edit);
		expect(edit.files.map((f) => f.filename).sort()).toEqual(['sun-cup-history.csv', 'sun-cup-standings.csv']);
		const history = edit.files.find((f) => f.filename === 'sun-cup-history.csv')!.data.toString('utf8');
		expect(history).toContain('Alice');
		const ids = buttonIds(edit.data);
		expect(ids).toHaveLength(2);
		confirm = ids.find((id) => id.startsWith('league-delete:confirm:'))!;
		expect(confirm).toBeDefined();
	});

	it('the Confirm of a member without Manage Server is refused at the press, and nothing is deleted', async () => {
		const handle = bot.fake.clickButton(confirm, ROLE_ORGANIZER);
		const events = [await handle.next(), await handle.next()];
		expect(events.map(content).join('\n')).toMatch(/Manage Server/);
		expect(content(await run('league', [sub('info')], MEMBER))).toMatch(/^\*\*Sun Cup\*\*/);
	});

	it('Confirm deletes it: the organizer is told how to undo, the channel is told, every command stops', async () => {
		const handle = bot.fake.clickButton(confirm, ORGANIZER);
		const events = [await handle.next(), await handle.next(), await handle.next()];
		expect(content(events[1]!)).toBe('Deleted **Sun Cup**. /league undelete name:Sun Cup brings it back.');
		expect(events[1]!.kind === 'edit' && buttonIds(events[1]!.data)).toEqual([]);
		expect(events[2]).toMatchObject({ kind: 'followup' });
		expect(content(events[2]!)).toBe('The league **Sun Cup** was deleted by an organizer.');
		expect(mentionsOf(events[2]!)).toEqual({ parse: [] });
		await expectRefusal('rating', [text('player', 'Alice')], MEMBER, /^This server has no league yet/);
	});

	it('undelete brings it back with its race', async () => {
		await expectRefusal(
			'league',
			[sub('undelete', [text('name', 'Moon Cup')])],
			ORGANIZER,
			/^There is no deleted league "Moon Cup" in this server\. Deleted: \*\*Sun Cup\*\*\.$/,
		);
		const back = await run('league', [sub('undelete', [text('name', 'Sun Cup')])], ORGANIZER);
		expect(content(back)).toBe('**Sun Cup** is back, with every race and rating it had.');
		expect(content(await run('league', [sub('info')], MEMBER))).toContain('Players: 3 · Races: 1');
	});
});
