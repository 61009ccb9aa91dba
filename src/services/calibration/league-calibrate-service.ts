import type { CalibrationResult } from '../../analysis/calibrate.js';
import { createWaitingItems, newPreviewId, PREVIEW_TTL_MS } from '../races/previews.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import type { LeagueConfig } from '../../league/league-events.js';
import { replayOptionsOf } from '../../league/replay-options.js';
import { isSystemId, systems } from '../../ratings/index.js';
import type { ParamOverrides } from '../../ratings/types.js';
import { LogMovedError, type LeagueInfo, type LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { runCalibrationInWorker, type CalibrationRunner } from './calibration-runner.js';
import { refuse, refused } from '../errors.js';
import { MIN_STATS_RACES, tooFewRaces } from './league-stats-service.js';
import type { LeagueService } from '../leagues/league-service.js';

/**
 * `/league calibrate` (organizers): tunes one system's main parameters on the league's own confirmed
 * races, read exactly as the league replays them (its yearly reset, its reading of retirements, its current
 * parameters held fixed and as the starting point), with the code `pitwall calibrate` runs (src/analysis/
 * calibrate.ts), on a worker thread (calibration-runner.ts). The answer is a proposal that waits here for 15 minutes;
 * Confirm appends ONE league-configured event with the proposed parameters, and the ratings replay as on any
 * `/league config`.
 *
 * - One calibration per league at a time: a second ask while one runs is refused (the first one's answer comes); at
 *   most MAX_RUNNING_CALIBRATIONS over every league.
 * - Organizers only, checked when asked and again at Confirm and Cancel (a member whose role was revoked since
 *   cannot apply).
 * - Confirm is idempotent: a second press (a retry, a double click) answers with the first one's change and stores
 *   nothing; a proposal of a log that moved on since (a race, a void, another config) is refused as stale.
 */

/**
 * Backtests per calibration, the defaults' included. `pitwall calibrate` takes 60; a league of 10,000 races of 20
 * racers costs 1.3-2 s a backtest on a shared 2-core machine, so 30 keeps the worst case under a minute
 * (bench/league-calibrate.ts). One-parameter searches settle in 8-16; two coupled ones (Glicko with dates, endure and
 * speed with forgetting) took 40-60 on F1 and may stop at the cap: since the search starts from the league's current
 * parameters, confirming and running /league calibrate again continues it.
 */
export const LEAGUE_MAX_EVALUATIONS = 30;

/**
 * Calibrations running at once, over every league of the process: each takes a core for up to a minute, and the
 * machines this runs on have two, one of which the bot's own thread needs.
 */
export const MAX_RUNNING_CALIBRATIONS = 2;

/** How long a proposal waits for Confirm: as long as a race preview (15 minutes). */
const PROPOSAL_TTL_MS = PREVIEW_TTL_MS;

/** A gain below this (nats) shows as +0.00: not worth a change of every rating. */
export const MIN_GAIN = 0.005;
/**
 * A gain must exceed this many of its standard errors (calibrate.ts pairedGainError) to be proposed: below it, the
 * races are too few to tell the proposed settings from the current ones.
 */
export const NOISE_STANDARD_ERRORS = 2;

export interface CalibrationProposal {
	readonly id: string;
	readonly league: LeagueInfo;
	readonly system: string;
	/** The log seq the calibration read: Confirm is refused once the league's log is past it. */
	readonly seq: number;
	/** The system's parameter overrides in the league's settings when calibrated. */
	readonly current: ParamOverrides;
	/** What Confirm sets them to (the calibration's bestOverrides). */
	readonly proposed: ParamOverrides;
	readonly result: CalibrationResult;
	/** The proposal beats the current settings by at least MIN_GAIN and by more than the noise: only then a Confirm. */
	readonly better: boolean;
	/** A gain of at least MIN_GAIN found, but within NOISE_STANDARD_ERRORS standard errors: not proposed. */
	readonly withinNoise: boolean;
	readonly expiresAt: Date;
}

export interface AppliedCalibration {
	readonly proposal: CalibrationProposal;
	/** The league after the change. */
	readonly league: LeagueInfo;
	/** Applied by an earlier press of the same Confirm: nothing was stored this time. */
	readonly already: boolean;
}

export interface LeagueCalibrateService {
	calibrate(
		actor: Actor,
		input: { readonly league?: string | undefined; readonly system?: string | undefined },
	): Promise<CalibrationProposal>;
	confirm(actor: Actor, proposalId: string): Promise<AppliedCalibration>;
	cancel(actor: Actor, proposalId: string): Promise<CalibrationProposal>;
	/** Leagues with a calibration running (tests, diagnostics). */
	running(): number;
}

export interface LeagueCalibrateOptions {
	readonly runner?: CalibrationRunner | undefined;
	readonly clock?: (() => Date) | undefined;
	readonly newId?: (() => string) | undefined;
	readonly maxEvaluations?: number | undefined;
}

interface Waiting {
	readonly proposal: CalibrationProposal;
	/** Set by the first Confirm: its append, which later presses wait for instead of appending again. */
	applying?: Promise<LeagueInfo> | undefined;
}

/** The league's settings with one system's parameters replaced. */
export function configWithParams(config: LeagueConfig, system: string, params: ParamOverrides): LeagueConfig {
	return { ...config, params: { ...config.params, [system]: params } };
}

export function createLeagueCalibrateService(
	repo: LeagueRepository,
	leagues: LeagueService,
	options: LeagueCalibrateOptions = {},
): LeagueCalibrateService {
	const {
		runner = runCalibrationInWorker,
		clock = () => new Date(),
		newId = newPreviewId,
		maxEvaluations = LEAGUE_MAX_EVALUATIONS,
	} = options;
	const busy = new Set<string>();
	const waiting = createWaitingItems(repo, clock, (w: Waiting) => w.proposal);

	/** A waiting proposal, for an organizer of its league now (the league as it is now is returned too). */
	const claim = async (actor: Actor, proposalId: string) => {
		const claimed = await waiting.claim(actor, proposalId);
		if (claimed === undefined) {
			throw refused(
				'calibration-expired',
				'This proposal has expired or was already handled (proposals last 15 minutes). Run /league calibrate again.',
			);
		}
		return { w: claimed.item, league: claimed.league };
	};

	const run = async (league: LeagueInfo, system: string, now: Date): Promise<CalibrationProposal> => {
		const state = await repo.loadState(league.id);
		// The live state moves on with the league: what the calibration reads is taken now, before it runs.
		const seq = state.seq();
		const config = state.config() ?? league.config;
		const races = state.ratedRaces().map((rated) => rated.race);
		if (races.length < MIN_STATS_RACES) throw tooFewRaces('calibrate-few-races', races.length, 'calibration needs');
		const current = config.params[system] ?? {};
		const result = await refuse('calibrate-failed', () =>
			runner({
				system,
				races,
				options: { fixed: current, ...replayOptionsOf(config, state.seasons()), maxEvaluations },
			}),
		);
		const found = result.dimensions.length > 0 && result.races > 0 && result.gain >= MIN_GAIN;
		const withinNoise = found && !(result.gain > NOISE_STANDARD_ERRORS * result.gainStandardError);
		return {
			id: newId(),
			league: { ...league, config, seq },
			system,
			seq,
			current,
			proposed: result.bestOverrides,
			result,
			better: found && !withinNoise,
			withinNoise,
			expiresAt: new Date(now.getTime() + PROPOSAL_TTL_MS),
		};
	};

	return {
		running: () => busy.size,
		async calibrate(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			requireOrganizer(actor, league.config);
			const system = input.system ?? league.config.headline;
			if (!isSystemId(system)) {
				throw refused(
					'unknown-system',
					`Unknown rating system "${escapeForDiscord(system)}". Systems: ${Object.keys(systems).join(', ')}.`,
				);
			}
			if (busy.has(league.id)) {
				throw refused(
					'calibrate-busy',
					`A calibration of **${escapeForDiscord(league.config.name)}** is already running: its answer will come to whoever asked. Try again when it is done.`,
				);
			}
			if (busy.size >= MAX_RUNNING_CALIBRATIONS) {
				throw refused(
					'calibrate-capacity',
					`The bot is calibrating ${busy.size} other leagues right now: try again in a minute.`,
				);
			}
			busy.add(league.id);
			try {
				const proposal = await run(league, system, clock());
				if (proposal.better) waiting.set(proposal.id, { proposal });
				return proposal;
			} finally {
				busy.delete(league.id);
			}
		},
		async confirm(actor, proposalId) {
			const { w, league } = await claim(actor, proposalId);
			const { proposal } = w;
			if (w.applying !== undefined) return { proposal, league: await w.applying, already: true };
			const stale = () => {
				waiting.delete(proposalId);
				return refused(
					'calibration-stale',
					`**${escapeForDiscord(league.config.name)}** changed since this proposal (a race or a setting): nothing was changed. Run /league calibrate again.`,
				);
			};
			if (league.seq !== proposal.seq) throw stale();
			const applying = (async () => {
				const config = configWithParams(league.config, proposal.system, proposal.proposed);
				try {
					// atSeq: a race or setting that lands between the check above and this append is not overwritten.
					await refuse('bad-config', () =>
						repo.appendEvent(
							league.id,
							{ type: 'league-configured', config, by: actor.userId },
							{ atSeq: proposal.seq },
						),
					);
				} catch (error) {
					throw error instanceof LogMovedError ? stale() : error;
				}
				return (await repo.getLeague(league.id))!;
			})();
			w.applying = applying;
			try {
				return { proposal, league: await applying, already: false };
			} catch (error) {
				w.applying = undefined; // nothing stored: Confirm may be pressed again
				throw error;
			}
		},
		async cancel(actor, proposalId) {
			const { w } = await claim(actor, proposalId);
			if (w.applying !== undefined) {
				throw refused('calibration-applied', 'These parameters were already applied: there is nothing to cancel.');
			}
			waiting.delete(proposalId);
			return w.proposal;
		},
	};
}
