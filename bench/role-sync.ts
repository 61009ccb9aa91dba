/**
 * Rank roles (docs/rank-roles.md) for a league of 2,000 linked members: the time to compute the changes (the pure
 * diff alone, then the whole plan with the leaderboard and the member list read through the fake Discord) and to
 * apply them through the real discord.js client against the fake Discord with its role rate limit on (discord.js
 * paces itself by the X-RateLimit headers; the 429s it still met are counted). `npm run bench`, or alone:
 * `tsx bench/role-sync.ts`.
 */
import { Events } from 'discord.js';
import { once } from 'node:events';
import { buttons, commands } from '../commands/index.js';
import { startBot } from '../src/discord/client.js';
import { managedRoles, roleChanges, type RankRoleSettings } from '../src/league/rank-tiers.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { createMemoryStore } from '../src/storage/memory-store.js';
import { startFakeDiscord } from '../test/e2e/fake-discord.js';
import { fmtMs, medianMs } from './timing.js';

const MEMBERS = 2000;
const RACES = 200;
const FIELD = 20;
/** The fake's limit on role changes: 50 requests a window of 500 ms (100 a second). */
const LIMIT = { limit: 50, windowMs: 500 };

/** A deterministic generator (mulberry32), so every run measures the same league. */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export async function runRoleSyncBench(): Promise<void> {
	console.log(`\nrank roles: ${MEMBERS} linked members, ${RACES} races of ${FIELD}`);
	const fake = await startFakeDiscord();
	const store = createMemoryStore();
	const repo = createLeagueRepository(store);
	const services = createServices(repo, { jobs: store.namespace('jobs') });
	const client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log: createLogger({ level: 'silent' }), services },
		commands,
		buttons,
	});
	try {
		if (!client.isReady()) await once(client, Events.ClientReady);
		const next = random(7);
		const names = Array.from({ length: MEMBERS }, (_, i) => `P${i + 1}`);
		const races = Array.from({ length: RACES }, (_, r) => {
			// Every player races twice (4,000 places): race r takes the next 20 players, in a random finishing order.
			const field = Array.from({ length: FIELD }, (_, i) => names[(r * FIELD + i) % MEMBERS]!).sort(() => next() - 0.5);
			return {
				date: `2025-${String(1 + Math.floor(r / 20)).padStart(2, '0')}-${String(1 + (r % 20)).padStart(2, '0')}`,
				entries: field.map((player, i) => ({ player, position: i + 1, status: 'finished' as const })),
			};
		});
		const info = await repo.createLeague(
			{ guildId: fake.guildId, name: 'Big', headline: 'folyami', params: {}, timezone: 'UTC' },
			'bench',
		);
		await repo.appendEvent(info.id, { type: 'league-imported', races, source: 'bench', by: 'bench' });
		const state = await repo.loadState(info.id);
		const tiers = ['Gold', 'Silver', 'Bronze'].map((name) => fake.addRole(name));
		const other = fake.addRole('Drivers');
		const settings: RankRoleSettings = {
			enabled: true,
			tiers: [
				{ role: tiers[0]!, lastPlace: 10 },
				{ role: tiers[1]!, lastPlace: 100 },
				{ role: tiers[2]!, lastPlace: 1000 },
			],
		};
		const members = new Map<string, readonly string[]>();
		let linked = 0;
		for (const player of state.players()) {
			const user = String(600000000000000000n + BigInt(linked++));
			await repo.appendEvent(info.id, { type: 'player-linked', player: player.id, user, by: 'bench' });
			// Each member holds a random tier (or none) and a role the bot never touches.
			const held = next() < 0.75 ? [tiers[Math.floor(next() * 3)]!] : [];
			fake.addMember(user, [...held, other]);
			members.set(user, [...held, other]);
		}
		const league = (await repo.getLeague(info.id))!;

		const plan = await services.roleSync.plan(league, settings);
		const wanted = plan.wanted;
		const managed = managedRoles(settings);
		const pure = medianMs(() => roleChanges(wanted, members, managed));
		const changes = plan.changes ?? [];
		const started = performance.now();
		for (let i = 0; i < 5; i++) await services.roleSync.plan(league, settings);
		const planMs = (performance.now() - started) / 5;
		console.log(
			`  diff (pure, ${wanted.size} wanted, ${members.size} members): ${fmtMs(pure)} · plan with the leaderboard and the member list (2 pages): ${fmtMs(planMs)}`,
		);

		fake.limitRoleChanges(LIMIT);
		const requests = fake.requests.length;
		const applyStart = performance.now();
		await repo.appendEvent(league.id, {
			type: 'league-configured',
			config: { ...league.config, roles: settings },
			by: 'bench',
		});
		services.roleSync.leagueChanged(league.id); // the raw repository has no hook: the services' writes do this
		await services.roleSync.idle();
		const applyMs = performance.now() - applyStart;
		const ops = fake.roleChanges.length;
		const rate = ops / (applyMs / 1000);
		console.log(
			`  apply: ${ops} role changes for ${changes.length} members in ${(applyMs / 1000).toFixed(1)} s (${rate.toFixed(0)} a second; fake limit ${LIMIT.limit} per ${LIMIT.windowMs} ms) · ${fake.roleRateLimited} 429s · ${fake.requests.length - requests} requests`,
		);
	} finally {
		await client.destroy();
		await fake.close();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) await runRoleSyncBench();
