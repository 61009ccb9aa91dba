/**
 * The driver and the car end to end through the fake Discord (docs/cars.md): an organizer turns cars on with
 * `/league config cars:on` (a member is refused), `/league info` says so, `/rating` shows the driver's part with the
 * car's beside it and the car's move in the last race, `/rating car:` one car, `/leaderboard cars:true` the cars'
 * table, `/league stats` the comparison with and without cars, and car names autocomplete. Every answer within
 * Discord's limits, pinging nobody, names escaped (`Team *Bold*`, `Ann_e`), within 3 s.
 */
import { describe, expect, it } from 'vitest';
import { carLeagueRaces } from '../support/driver-car-league.js';
import type { ReplyEvent } from './fake-discord.js';
import {
	EPHEMERAL,
	embedsOf,
	flagsOf,
	MEMBER,
	expectWithinDiscordLimits,
	ORGANIZER,
	STRING,
	sub,
	text,
	useLeagueBot,
	visible,
	type LeagueBot,
} from './league-bot.js';

const bot: LeagueBot = useLeagueBot();
const BOOLEAN = 5;
const flag = (name: string, value: boolean) => ({ name, type: BOOLEAN, value });

/** Every answer within Discord's limits, public, pinging nobody, in time. */
async function answer(name: string, options: Parameters<LeagueBot['run']>[1]): Promise<ReplyEvent> {
	const started = performance.now();
	const event = await bot.run(name, options, MEMBER);
	expect(performance.now() - started).toBeLessThan(3000);
	expect(flagsOf(event) & EPHEMERAL).toBe(0);
	expectWithinDiscordLimits(event);
	return event;
}

describe('cars rated apart from drivers, end to end', () => {
	it('an organizer turns them on; players read the driver, the car and the cars’ table', async () => {
		await bot.run('league', [sub('create', [text('name', 'GT Cup'), text('system', 'endure')])], ORGANIZER);
		const [league] = await bot.repo.listLeagues(bot.fake.guildId);
		await bot.repo.appendEvent(league!.id, {
			type: 'league-imported',
			races: carLeagueRaces(),
			source: 'test',
			by: 'test',
		});

		// Before: no cars, and /leaderboard cars:true says how to turn them on.
		await bot.expectRefusal('leaderboard', [flag('cars', true)], MEMBER, /does not rate cars apart from drivers/);
		const seq = (await bot.repo.getLeague(league!.id))!.seq;
		await bot.expectRefusal('league', [sub('config', [text('cars', 'on')])], MEMBER, /^Only league organizers/);
		expect((await bot.repo.getLeague(league!.id))!.seq).toBe(seq);
		const configured = visible(await bot.run('league', [sub('config', [text('cars', 'on')])], ORGANIZER));
		expect(configured).toContain('Cars: rated apart from drivers in endure and speed');
		expect((await bot.repo.getLeague(league!.id))!.seq).toBe(seq + 1);
		expect(visible(await answer('league', [sub('info')]))).toContain('Cars: rated apart from drivers');

		// /rating: the driver's part, the car's beside it, the strength their sum; the car's move in the last race.
		const alice = await answer('rating', [text('player', 'Alice')]);
		const [embed] = embedsOf(alice);
		const fields = embed!['fields'] as { name: string; value: string }[];
		const field = (name: string) => fields.find((f) => f.name === name)?.value;
		expect(fields.map((f) => f.name).slice(0, 3)).toEqual(['Driver', 'Car', 'Strength (driver + car)']);
		const [, part] = /^([+−]\d+\.\d) \(Ferrari\)$/u.exec(field('Car')!) ?? [];
		expect(part).toBeDefined();
		const signed = Number(part!.replace('−', '-'));
		expect(Number(field('Strength (driver + car)'))).toBeCloseTo(Number(field('Driver')) + signed, 6);
		expect(field('Why the last race moved it')).toMatch(
			/\nCar \*\*Ferrari\*\*: [+−]\d+\.\d → [+−]\d+\.\d \([+−]\d+\.\d\)$/u,
		);

		// /rating car: with the markdown of its name escaped in the title.
		const bold = await answer('rating', [text('car', 'team *bold*')]);
		const [carEmbed] = embedsOf(bold);
		expect(carEmbed!['title']).toBe('Team \\*Bold\\*');
		expect(visible(bold)).toContain('Car part');
		expect(visible(bold)).toMatch(/Drivers lately\n\*\*Eve\*\* \d+\.\d · last in it R24/u);
		const ferrari = visible(await answer('rating', [text('car', 'Ferrari')]));
		expect(ferrari).toContain('**Ann\\_e**');
		expect(ferrari).not.toContain('**Bob**'); // Bob drove it in the first season only

		// /leaderboard cars:true: the four cars, the Ferrari first, its part as on /rating.
		const table = await answer('leaderboard', [flag('cars', true)]);
		const lines = String(embedsOf(table)[0]!['description']).split('\n');
		expect(lines).toHaveLength(4);
		expect(lines[0]).toBe(`1. **Ferrari** ${part} · 24 races · last 2025-08-02`);
		expect(lines.some((line) => line.includes('**Team \\*Bold\\***'))).toBe(true);

		// /league stats: with and without cars, for endure and speed.
		const stats = visible(await answer('league', [sub('stats')]));
		expect(stats).toMatch(
			/\nendure: with cars −\d+\.\d · without −\d+\.\d: cars (help|cost) \d+\.\d .*; on in this league/u,
		);
		expect(stats).toMatch(/\nspeed: with cars −\d+\.\d · without −\d+\.\d/u);

		// Refusals: a car and a player at once, an unknown car, a system without a car part.
		await bot.expectRefusal('rating', [text('car', 'Ferrari'), text('player', 'Bob')], MEMBER, /not both/);
		await bot.expectRefusal('rating', [text('car', '@everyone')], MEMBER, /^No car "@\u200beveryone" has been rated/);
		await bot.expectRefusal(
			'leaderboard',
			[flag('cars', true), text('system', 'glicko')],
			MEMBER,
			/`glicko` has no car part/,
		);

		// Car names autocomplete (each entry's car, else its team).
		const choices = await bot.fake
			.sendAutocomplete('rating', [{ name: 'car', type: STRING, value: 'fer', focused: true }])
			.next();
		expect(choices).toMatchObject({
			kind: 'callback',
			type: 8,
			data: { choices: [{ name: 'Ferrari', value: 'Ferrari' }] },
		});
	});
});
