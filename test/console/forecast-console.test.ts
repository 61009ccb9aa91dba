/**
 * `/forecast` in the local console: the real registry, router, services and an in-thread chart renderer
 * over a memory store; the console prints the embed as text and writes the chart.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import { CONSOLE_GUILD_ID, CONSOLE_USER_ID } from '../../src/console/console-interaction.js';
import { runConsole } from '../../src/console/console-loop.js';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-console-forecast-'));
const charts = createChartRenderer({ worker: false });
afterAll(async () => {
	await charts.close();
	rmSync(dir, { recursive: true, force: true });
});

const now = () => new Date('2026-05-01T12:00:00Z');

describe('/forecast in the console', () => {
	it('prints the forecast and writes its chart; a bad points list is an ephemeral error', async () => {
		const repo = createLeagueRepository(createMemoryStore(), { clock: now });
		const services = createServices(repo, { clock: now, charts });
		const actor = { userId: CONSOLE_USER_ID, guildId: CONSOLE_GUILD_ID, manageGuild: true, roles: [] };
		await services.leagues.create(actor, { name: 'Cup', headline: 'glicko' });
		for (const [date, text] of [
			['2026-03-01', '1. Ann\n2. Bob\n3. Cy'],
			['2026-04-01', '1. Bob\n2. Ann\n3. Cy'],
		] as const) {
			const preview = await services.races.submit(actor, { text, date });
			await services.races.confirm(actor, preview.id);
		}
		const input = new PassThrough();
		let out = '';
		const done = runConsole({
			commands,
			buttons,
			context: { log: createLogger({ level: 'silent' }), services, charts },
			input,
			write: (text) => (out += text),
			prompt: false,
			outDir: join(dir, 'out'),
			now,
		});
		input.end('/forecast races-left:2\n/forecast races-left:2 points:5,,1\n');
		expect(await done).toBe(0);
		expect(out).toContain('== Championship forecast 2026 ==  Cup · glicko');
		expect(out).toMatch(/1\. (Ann|Bob) \(43 pts\): title \d+\.\d% ± \d\.\d\d% · top 3 100\.0%/);
		expect(out).toContain('2 races so far in 2026, 2 left; f1 points.');
		const path = /^file written: (\S+forecast\.png)$/m.exec(out)?.[1];
		expect(path).toBeDefined();
		expect(readFileSync(path!).subarray(1, 4).toString()).toBe('PNG');
		expect(out).toContain(
			'(only you can see this)\nPoints: place 2 of the points list is empty (two commas in a row?).',
		);
	});
});
