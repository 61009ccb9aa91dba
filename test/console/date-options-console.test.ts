/**
 * `date:03.12.2026` typed into every date option of the bot gets the same answer: how dates are written and the day it
 * most likely means, asked rather than taken; nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { consoleActor, consoleWorld } from './console-session.js';

const DID_YOU_MEAN =
	'"03.12.2026": did you mean 2026-12-03? Dates are written YYYY-MM-DD, like 2026-12-03. Nothing was stored.';

describe('date options in the console', () => {
	it('/race submit, /race edit, /season start and /season end answer 03.12.2026 alike', async () => {
		const w = consoleWorld(() => new Date('2026-11-20T12:00:00Z'));
		await w.services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		const { out } = await w.type([
			'/race submit results:"1. Alice; 2. Bob" date:2026-11-01',
			'confirm',
			'/race submit results:"1. Alice; 2. Bob" date:03.12.2026',
			'/race edit race:R1 reason:typo date:03.12.2026',
			'/season start name:Winter date:03.12.2026',
			'/season end date:03/12/2026',
		]);
		expect(out).toContain(`The date ${DID_YOU_MEAN}`);
		expect(out.split(`The date ${DID_YOU_MEAN}`).length - 1).toBe(2);
		expect(out).toContain(`The start date ${DID_YOU_MEAN}`);
		expect(out).toContain(
			'The end date "03/12/2026" may be day first (2026-12-03) or month first (2026-03-12). Dates are written YYYY-MM-DD, like 2026-12-03. Nothing was stored.',
		);
		expect(out).not.toContain('not a calendar day');
		const state = await w.repo.loadState((await w.repo.listLeagues(consoleActor.guildId))[0]!.id);
		expect(state.races().map((r) => r.date)).toEqual(['2026-11-01']);
	});
});
