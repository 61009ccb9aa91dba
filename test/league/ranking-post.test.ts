import { describe, expect, it } from 'vitest';
import type { LeagueConfig } from '../../src/league/league-events.js';
import { createLeagueLog, LeagueError } from '../../src/league/race-log.js';
import { rankingPostOf } from '../../src/league/ranking-post.js';

const config: LeagueConfig = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
const configure = (rankingPost: unknown) => () =>
	createLeagueLog().check({
		type: 'league-configured',
		config: { ...config, rankingPost } as LeagueConfig,
		by: 'u',
		at: 't',
	});

describe('ranking post settings in the league log', () => {
	it('the log refuses a post day outside 1-28, an hour outside 0-23, a missing on/off', () => {
		expect(configure({ day: 29, hour: 12, enabled: true })).toThrow(
			new LeagueError('the ranking post day must be a whole number from 1 to 28 (every month has it), not 29'),
		);
		expect(configure({ day: 0, hour: 12, enabled: true })).toThrow(/day must be a whole number from 1 to 28/);
		expect(configure({ day: 1.5, hour: 12, enabled: true })).toThrow(/day must be a whole number/);
		expect(configure({ day: 1, hour: 24, enabled: true })).toThrow(
			'the ranking post hour must be a whole number from 0 to 23, not 24',
		);
		expect(configure({ day: 1, hour: -1, enabled: true })).toThrow(/hour must be a whole number from 0 to 23/);
		expect(configure({ day: 1, hour: 12 })).toThrow('the ranking post must be on or off');
		expect(configure('monthly')).toThrow('the ranking post settings must be an object');
		expect(configure({ day: 28, hour: 0, enabled: false })).not.toThrow();
		expect(configure(undefined)).not.toThrow();
	});

	it('absent settings mean day 1 at 12:00, on as soon as there is a ranking channel', () => {
		expect(rankingPostOf(config)).toEqual({ day: 1, hour: 12, enabled: true, channel: undefined, active: false });
		expect(rankingPostOf({ ...config, rankingChannel: 'c' })).toMatchObject({ active: true, channel: 'c' });
		const off = { ...config, rankingChannel: 'c', rankingPost: { day: 5, hour: 7, enabled: false } };
		expect(rankingPostOf(off)).toEqual({ day: 5, hour: 7, enabled: false, channel: 'c', active: false });
	});
});
