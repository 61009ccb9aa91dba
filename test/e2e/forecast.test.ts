/**
 * `/forecast` end to end: the REAL discord.js client against the fake Discord, the real router,
 * services and chart renderer (worker thread) over a memory store, on a fixed clock. The answer is a public embed
 * within Discord's limits with the P(title) chart attached; refusals are ephemeral and specific.
 */
import { Events, type Client } from 'discord.js';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { fmtMcError } from '../../commands/forecast.js';
import { fmtPct } from '../../commands/shared.js';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import type { ChartRenderer } from '../../src/charts/chart-types.js';
import { startBot } from '../../src/discord/client.js';
import { embedLength, type EmbedData } from '../../src/formats/embed.js';
import { createLogger } from '../../src/logger.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { PNG_SIGNATURE } from '../jobs/helpers.js';
import { startFakeDiscord, type FakeDiscord, type RawOption } from './fake-discord.js';
import { dataOf, EPHEMERAL, flagsOf, MEMBER, mentionsOf, ORGANIZER, content, text, visible } from './league-bot.js';

const now = () => new Date('2026-06-15T12:00:00Z');
let fake: FakeDiscord;
let client: Client;
let services: Services;
let charts: ChartRenderer;

/** Twelve drivers, six races this year: names A1..A12, the order rotating a little each race. */
const DRIVERS = Array.from({ length: 12 }, (_, i) => `Driver ${i + 1}`);

beforeAll(async () => {
	fake = await startFakeDiscord();
	const repo = createLeagueRepository(createMemoryStore(), { clock: now });
	charts = createChartRenderer();
	services = createServices(repo, { clock: now, charts });
	client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log: createLogger({ level: 'silent' }), services, charts },
		commands,
		buttons,
	});
	if (!client.isReady()) await once(client, Events.ClientReady);
	const actor = { userId: ORGANIZER.userId!, guildId: fake.guildId, manageGuild: true, roles: [] };
	await services.leagues.create(actor, { name: 'Kart Club', headline: 'endure' });
	for (let r = 0; r < 6; r++) {
		const order = DRIVERS.map((_, i) => DRIVERS[(i + (r % 3)) % DRIVERS.length]!);
		const preview = await services.races.submit(actor, {
			text: order.map((name, i) => `${i + 1}. ${name}`).join('\n'),
			date: `2026-0${r + 1}-10`,
		});
		await services.races.confirm(actor, preview.id);
	}
}, 30_000);

afterAll(async () => {
	await client.destroy();
	await charts.close();
	await fake.close();
});

async function run(name: string, options: RawOption[], actor = MEMBER) {
	const handle = fake.sendSlashCommand(name, options, actor);
	const first = await handle.next();
	const reply = first.kind === 'callback' && first.type === 5 ? await handle.next() : first;
	return { first, reply, handle };
}

describe('/forecast', () => {
	it('defers, then answers with the favourites, the Monte Carlo error and the P(title) chart', async () => {
		const { first, reply } = await run('forecast', [text('races-left', 4)]);
		expect(first).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(first) & EPHEMERAL).toBe(0);
		const body = visible(reply);
		expect(body).toContain('Championship forecast 2026');
		expect(body).toContain('Kart Club · endure');
		expect(body).toContain('6 races so far in 2026, 4 left; f1 points.');
		expect(body).toContain('100,000 seasons simulated (seed 1)');
		// Ten contenders listed, the other two counted.
		expect(body.match(/^\d+\. \*\*Driver \d+\*\*/gm)).toHaveLength(10);
		expect(body).toContain('… and 2 more');
		// The same numbers as the service (seeded: the same run).
		const f = await services.forecast.forecast(
			{ userId: MEMBER.userId!, guildId: fake.guildId, manageGuild: false, roles: [] },
			{ racesLeft: 4 },
		);
		const top = f.rows[0]!;
		expect(body).toContain(
			`1. **${top.name}** (${top.pointsNow} pts): title ${fmtPct(top.pTitle)} ± ${fmtMcError(top.pTitleError)}`,
		);
		const embed = dataOf(reply)['embeds'] as EmbedData[];
		expect(embedLength(embed[0]!)).toBeLessThanOrEqual(6000);
		expect(embed[0]!.image?.url).toBe('attachment://forecast.png');
		expect(reply.kind === 'edit' && reply.files.map((file) => [file.filename, file.data.subarray(0, 8)])).toEqual([
			['forecast.png', PNG_SIGNATURE],
		]);
		expect(mentionsOf(reply)).toEqual({ parse: [] });
	});

	it('takes a points option, and refuses bad input ephemerally with the reason', async () => {
		const { reply } = await run('forecast', [text('races-left', 2), text('points', 'motogp')]);
		expect(visible(reply)).toContain('2 left; motogp points.');
		for (const [options, message] of [
			[[text('races-left', 2), text('points', '10,<@123>')], /Points: ".+" \(place 2\) is not a non-negative number/],
			[[], /How many races are left this season\? Give races-left/],
		] as const) {
			const handle = fake.sendSlashCommand('forecast', [...options], MEMBER);
			const deferred = await handle.next();
			expect(deferred).toMatchObject({ kind: 'callback', type: 5 });
			// The public "thinking…" is deleted and the refusal goes to the user only.
			expect((await handle.next()).kind).toBe('delete');
			const refusal = await handle.next();
			expect(flagsOf(refusal) & EPHEMERAL).toBe(EPHEMERAL);
			expect(content(refusal)).toMatch(message);
			expect(mentionsOf(refusal)).toEqual({ parse: [] });
			// The user's text comes back escaped: no mention in it.
			expect(content(refusal)).not.toContain('<@123>');
		}
	});
});
