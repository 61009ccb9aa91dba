/**
 * Exactly one ranking post per league and month with two bot processes on one store: both run the
 * scheduled job (test/e2e/fixtures/job-process.ts: the real client, jobs, poster, scheduler and lease) on a clock the
 * test advances; only the lease holder posts. The leader is then killed (SIGKILL) and the other takes over: the
 * next month is posted once, by it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openStore } from '../../src/storage/store-url.js';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-lease-'));
const storeUrl = `sqlite://${join(dir, 'store.sqlite')}`;
const clockFile = join(dir, 'clock');
const fixture = join(import.meta.dirname, 'fixtures', 'job-process.ts');
const tsx = import.meta.resolve('tsx');
const HOUR = 3_600_000;
let fake: FakeDiscord | undefined;
const children: { name: string; child: ChildProcess; output: () => string }[] = [];

function startProcess(name: string) {
	let output = '';
	const child = spawn(process.execPath, ['--import', tsx, fixture, storeUrl, clockFile, name], {
		env: { ...process.env, DISCORD_API_URL: fake!.apiUrl, DISCORD_TOKEN: fake!.token },
	});
	child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
	child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
	const started = { name, child, output: () => output };
	children.push(started);
	return started;
}

const setClock = (ms: number) => writeFileSync(clockFile, new Date(ms).toISOString());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Advances the clock an hour at a time, giving the processes time to run their job at each hour. */
async function advance(from: number, to: number, step = HOUR): Promise<void> {
	for (let ms = from; ms <= to; ms += step) {
		setClock(ms);
		await sleep(40);
	}
}

afterAll(async () => {
	for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
	await fake?.close();
	rmSync(dir, { recursive: true, force: true });
});

describe('two bot processes on one store', () => {
	it('post once per league and month; after the leader is killed, the other posts the next month once', async () => {
		fake = await startFakeDiscord();
		const channel = fake.addChannel('rankings');
		const repo = createLeagueRepository(await openStore(storeUrl, () => {}));
		const league = await repo.createLeague(
			{ guildId: fake.guildId, name: 'Cup', headline: 'glicko', params: {}, timezone: 'UTC', rankingChannel: channel },
			'test',
		);
		for (const date of ['2026-10-03', '2026-10-10', '2026-11-07']) {
			const entries = ['Ann', 'Bob', 'Cy'].map((player, i) => ({
				player,
				position: i + 1,
				status: 'finished' as const,
			}));
			await repo.appendEvent(league.id, { type: 'race-submitted', race: { date, entries }, by: 'test' });
		}
		await repo.close();
		const start = Date.parse('2026-10-31T20:00:00Z');
		setClock(start);
		const both = [startProcess('one'), startProcess('two')];
		await expect.poll(() => both.every((p) => p.output().includes('ready')), { timeout: 60_000 }).toBe(true);

		const months = () =>
			fake!.postedIn(channel).map((post) => /ranking \S+ (\d{4}-\d\d)/.exec(JSON.stringify(post.body))?.[1]);
		await advance(start, Date.parse('2026-11-01T16:00:00Z'));
		// October's post (due 1 October, the store is new) goes out late, then November's on time: once each.
		await expect.poll(months, { timeout: 10_000 }).toEqual(['2026-10', '2026-11']);
		const posters = both.filter((p) => p.output().includes('"msg":"job started"'));
		expect(posters.map((p) => p.name)).toHaveLength(1); // only the lease holder ran the job at all
		const [leader] = posters;
		const other = both.find((p) => p !== leader)!;

		await advance(Date.parse('2026-11-01T18:00:00Z'), Date.parse('2026-11-20T00:00:00Z'), 6 * HOUR);
		leader!.child.kill('SIGKILL');
		await advance(Date.parse('2026-11-20T06:00:00Z'), Date.parse('2026-11-30T18:00:00Z'), 6 * HOUR);
		await advance(Date.parse('2026-11-30T19:00:00Z'), Date.parse('2026-12-01T16:00:00Z'));
		await expect.poll(months, { timeout: 10_000 }).toEqual(['2026-10', '2026-11', '2026-12']);
		await sleep(500); // nothing more comes
		expect(months()).toEqual(['2026-10', '2026-11', '2026-12']);
		expect(other.output()).toContain('"msg":"job started"');
	}, 180_000);
});
