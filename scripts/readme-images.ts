/**
 * `npm run docs:images`: the README's pictures of replies, drawn from the sample league as the bot builds them: the
 * /rating embed of its leader (dark) and a race preview (light), each as Discord lays out an embed
 * (src/charts/embed-card.ts), with the chart the reply attaches. Writes docs/images/embed-*.png.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ratingEmbed } from '../commands/rating.js';
import { previewEmbed } from '../commands/race/format.js';
import { createChartRenderer } from '../src/charts/create-chart-renderer.js';
import { drawEmbedCard } from '../src/charts/embed-card.js';
import { CONSOLE_GUILD_ID } from '../src/console/console-interaction.js';
import { ensureSampleLeague } from '../src/console/sample-league.js';
import { fitEmbed } from '../src/formats/embed.js';
import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { createMemoryStore } from '../src/storage/memory-store.js';

const out = join(import.meta.dirname, '..', 'docs', 'images');
const repo = createLeagueRepository(createMemoryStore());
const charts = createChartRenderer({ worker: false });
try {
	await ensureSampleLeague(repo, CONSOLE_GUILD_ID);
	const services = createServices(repo, { clock: () => new Date('2026-11-24T12:00:00Z') });
	const organizer = { guildId: CONSOLE_GUILD_ID, userId: '100000000000000003', manageGuild: true, roles: [] };

	const rating = await services.ratings.rating(organizer, { player: 'Argammon', chart: true, compare: 'Duplode' });
	const chart = await charts.ratingHistory(rating.chart!, 'dark');
	const card = await drawEmbedCard(fitEmbed(ratingEmbed(rating, 'rating.png')), { theme: 'dark', attachment: chart });
	writeFileSync(join(out, 'embed-rating-dark.png'), card);

	const scoreboard = [
		'1. Duplode 1:24.010',
		'2. Argammon +0.556',
		'3. CTG +2.1',
		'4. Alice Newcomer +9.75',
		'Bonzai Joe DNF',
	];
	const preview = await services.races.submit(organizer, { text: scoreboard.join('\n'), date: '2026-11-24' });
	writeFileSync(
		join(out, 'embed-preview-light.png'),
		await drawEmbedCard(fitEmbed(previewEmbed(preview)), { theme: 'light' }),
	);
	console.log(`wrote ${join(out, 'embed-rating-dark.png')} and embed-preview-light.png`);
} finally {
	await charts.close();
	await repo.close();
}
