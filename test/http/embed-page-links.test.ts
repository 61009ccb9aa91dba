/**
 * `/leaderboard` and `/rating` embeds link to the league's and the player's web page (the embed's url) when the league
 * is public and the bot has a public address (HTTP_PUBLIC_URL); the link opens that page on the bot's HTTP server.
 * Not when the league is private or unlisted (an unlisted league's secret is not for a channel), nor without an address.
 */
import { describe, expect, it } from 'vitest';
import { embedOf } from '../../commands/embed.js';
import { leaderboardEmbed } from '../../commands/leaderboard.js';
import { ratingEmbed } from '../../commands/rating.js';
import { buildHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { createLeagueWebService } from '../../src/services/web/league-web-service.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, organizer, world } from '../services/helpers.js';

const WEB = 'https://bot.example.org';

async function league(visibility: 'public' | 'unlisted' | 'private') {
	const w = world(createMemoryStore());
	const created = await w.services.leagues.create(organizer, { name: 'Club Racing', headline: 'glicko' });
	await addRace(w, '1. Alice\n2. Bob\n3. Carol\n', undefined, '2026-02-01');
	await addRace(w, '1. Bob\n2. Alice\n', undefined, '2026-02-08');
	await w.services.leagues.configure(organizer, undefined, { visibility });
	const board = await w.services.leaderboard.page(organizer, {});
	const rating = await w.services.ratings.rating(organizer, { player: 'Bob' });
	return { w, id: created.id, board, rating };
}

describe('embed links to the web pages', () => {
	it('a public league: the leaderboard links to its page, /rating to the player’s; both pages answer', async () => {
		const { w, id, board, rating } = await league('public');
		const page = `${WEB}/leagues/${encodeURIComponent(id)}`;
		expect(embedOf(leaderboardEmbed(board, undefined, WEB)).toJSON().url).toBe(page);
		const player = rating.player.id.replace(/^#/, '');
		expect(embedOf(ratingEmbed(rating, undefined, `${WEB}/`)).toJSON().url).toBe(`${page}/players/${player}`);

		const web = createLeagueWebService(w.repo, w.services.leaderboard, () => new Date(w.now.ms));
		const app = buildHttpServer({ log: createLogger({ level: 'silent', write: () => {} }), web });
		try {
			for (const url of [page, `${page}/players/${player}`]) {
				const res = await app.inject({ method: 'GET', url: url.slice(WEB.length) });
				expect(res.statusCode).toBe(200);
			}
			expect((await app.inject({ method: 'GET', url: `/leagues/${id}/players/${player}` })).body).toContain(
				'<h1>Bob</h1>',
			);
		} finally {
			await app.close();
		}
	});

	it.each(['private', 'unlisted'] as const)('a %s league: no link', async (visibility) => {
		const { board, rating } = await league(visibility);
		expect(embedOf(leaderboardEmbed(board, undefined, WEB)).toJSON().url).toBeUndefined();
		expect(embedOf(ratingEmbed(rating, undefined, WEB)).toJSON().url).toBeUndefined();
	});

	it('without the bot’s public address (HTTP_PUBLIC_URL): no link', async () => {
		const { w, board, rating } = await league('public');
		expect(w.services.webUrl()).toBeUndefined();
		expect(embedOf(leaderboardEmbed(board, undefined, w.services.webUrl())).toJSON().url).toBeUndefined();
		expect(embedOf(ratingEmbed(rating, undefined, undefined)).toJSON().url).toBeUndefined();
	});
});
