/**
 * /league calibrate in the local console, in-process, over the sample league the console seeds: the
 * proposal printed with its buttons, `confirm` applies it, and /league info then shows the new parameters.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { calibrate } from '../../src/analysis/calibrate.js';
import { CONSOLE_GUILD_ID } from '../../src/console/console-interaction.js';
import { runConsole } from '../../src/console/console-loop.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { createLogger } from '../../src/logger.js';
import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import { getSystem } from '../../src/ratings/index.js';
import { createServices } from '../../src/services/index.js';
import { LEAGUE_MAX_EVALUATIONS } from '../../src/services/calibration/league-calibrate-service.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

describe('/league calibrate in the console', () => {
	it('prints the proposal, applies it on confirm, and /league info shows the new parameters', async () => {
		const repo = createLeagueRepository(createMemoryStore());
		const seeded = await ensureSampleLeague(repo, CONSOLE_GUILD_ID);
		const races = (await repo.loadState(seeded.league.id)).ratedRaces().map((r) => r.race);
		const expected = calibrate(getSystem('folyami'), races, {
			fixed: LEAGUE_DEFAULTS['folyami'],
			maxEvaluations: LEAGUE_MAX_EVALUATIONS,
		});
		const k = String(expected.bestPoint['k']);
		const k0 = String(LEAGUE_DEFAULTS['folyami']!['k']); // as created (src/league/league-defaults.ts)
		const input = new PassThrough();
		let out = '';
		const done = runConsole({
			commands,
			buttons,
			context: { log: createLogger({ level: 'silent' }), services: createServices(repo) },
			input,
			write: (text) => (out += text),
			prompt: false,
		});
		input.end('/league calibrate\nconfirm\n/league info\n');
		expect(await done).toBe(0);
		expect(out).toMatch(/Calibration of .?folyami.? on .*ZakStunts.*: 293 races scored/);
		expect(out).toMatch(new RegExp(`^k\\s+${k0} → ${k.replace('.', '\\.')}$`, 'm'));
		expect(out).toContain('[confirm] [cancel]');
		expect(out).toMatch(new RegExp(`Applied to .*ZakStunts.*: .?folyami.? k ${k0} → ${k.replace('.', '\\.')}`));
		expect(out).toMatch(new RegExp(`Parameters of .?folyami.?: .?k=${k.replace('.', '\\.')}`));
	}, 60_000);
});
