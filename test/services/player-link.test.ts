/**
 * `/player link` never replaces a link silently: a player already linked to another Discord user is refused naming
 * that user and how to change it (unlink, then link), as a user already linked to another player is; linking again
 * to the same user stores nothing.
 */
import { describe, expect, it } from 'vitest';
import { consoleActor, consoleWorld } from '../console/console-session.js';

const ALICE_USER = '200000000000000001';
const OTHER_USER = '200000000000000002';

describe('/player link', () => {
	it('refuses to replace a player’s link and names it; the same link again changes nothing', async () => {
		const w = consoleWorld(() => new Date('2026-11-20T12:00:00Z'));
		const league = await w.services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		await w.services.races.confirm(
			consoleActor,
			(await w.services.races.submit(consoleActor, { text: '1. Alice\n2. Bob' })).id,
		);
		const { players } = w.services;
		await players.link(consoleActor, { player: 'Alice', user: ALICE_USER });
		const events = async () => (await w.repo.loadState(league.id)).seq();
		const before = await events();

		await expect(players.link(consoleActor, { player: 'Alice', user: OTHER_USER })).rejects.toMatchObject({
			code: 'bad-link',
			message:
				`**Alice** is already linked to <@${ALICE_USER}>: unlink them first with /player unlink player:Alice, ` +
				'then link again. Nothing was changed.',
		});
		await expect(players.link(consoleActor, { player: 'Alice', user: ALICE_USER })).rejects.toMatchObject({
			code: 'already-linked',
			message: `**Alice** is already linked to <@${ALICE_USER}>: nothing was changed.`,
		});
		// The other direction, as before: a user linked to Alice cannot be linked to Bob.
		await expect(players.link(consoleActor, { player: 'Bob', user: ALICE_USER })).rejects.toMatchObject({
			code: 'bad-link',
		});
		expect(await events()).toBe(before);
		expect((await w.repo.loadState(league.id)).playerByUser(ALICE_USER)?.name).toBe('Alice');

		// The way the refusal names: unlink, then link.
		await players.unlink(consoleActor, { player: 'Alice' });
		const relinked = await players.link(consoleActor, { player: 'Alice', user: OTHER_USER });
		expect(relinked.player.user).toBe(OTHER_USER);
	});
});
