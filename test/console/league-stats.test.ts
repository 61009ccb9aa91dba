/**
 * /league stats in the local console, in-process, over the sample league the console seeds: the embed
 * printed as text (the table, the best predictor) and the reliability chart written as a PNG, its path printed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import { CONSOLE_GUILD_ID } from '../../src/console/console-interaction.js';
import { runConsole } from '../../src/console/console-loop.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-console-stats-'));
const charts = createChartRenderer();
afterAll(async () => {
	await charts.close();
	rmSync(dir, { recursive: true, force: true });
});

describe('/league stats in the console', () => {
	it('prints the table and the best predictor, and writes the reliability chart', async () => {
		const repo = createLeagueRepository(createMemoryStore());
		expect((await ensureSampleLeague(repo, CONSOLE_GUILD_ID)).races).toBe(293);
		const input = new PassThrough();
		let out = '';
		const done = runConsole({
			commands,
			buttons,
			context: { log: createLogger({ level: 'silent' }), services: createServices(repo), charts },
			input,
			write: (text) => (out += text),
			prompt: false,
			outDir: join(dir, 'out'),
		});
		input.end('/league stats\n');
		expect(await done).toBe(0);
		expect(out).toContain('== Prediction stats: 293 races ==  ZakStunts');
		expect(out).toMatch(/^system\s+winner LL\s+Brier\s+picked\s+races$/m);
		// best first
		expect(out).toMatch(/^system.*\nendure\s.*\nfolyami\s/m);
		expect(out).toMatch(/^endure\s+−374\.5\s+0\.632\s+\d+\.\d%\s+293$/m);
		expect(out).toMatch(/^Best predictor: endure \(winner log-likelihood −374\.5\), \d+\.\d ahead of folyami/m);
		expect(out).not.toContain('`'); // the table's code fence is not printed
		const path = /^file written: (\S+reliability\.png)$/m.exec(out)?.[1];
		expect(path).toBeDefined();
		expect(readFileSync(path!).subarray(1, 4).toString()).toBe('PNG');
	}, 30_000);
});
