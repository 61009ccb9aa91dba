import { randomBytes } from 'node:crypto';
import { LEAGUE_DEFAULTS } from '../../league/league-defaults.js';
import type { LeagueConfig } from '../../league/league-events.js';
import { listWithMore } from '../../formats/clip-text.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { applyParamText, ParamTextError } from '../../formats/param-text.js';
import { parsePointsTable, PointsTableError } from '../../formats/points-table.js';
import { nameKey, newName } from '../../league/race-log-checks.js';
import {
	DEFAULT_RANKING_POST,
	RANKING_POST_MAX_DAY,
	rankingPostOf,
	type ActiveRankingPost,
} from '../../league/ranking-post.js';
import { isSystemId, systems } from '../../ratings/index.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { leagueId } from '../../storage/league-repository.js';
import { isOrganizer, requireGuild, requireOrganizer, type Actor } from '../actor.js';
import { refuse, refused, UserFacingError } from '../errors.js';
import { nextPost } from '../posts/ranking-post-schedule.js';
import { formatLocal } from './zoned-time.js';
import type { RetirementReading } from '../../ratings/race.js';
import { seasonResetSetting, type SeasonResetInput } from '../seasons/season-service.js';
import { withCarSettings } from './car-settings.js';

/** Leagues of a server: create, configure, describe, list, and find the one a command means. */

/** A role as the command's role option gives it: its id, and whether Discord or an integration manages it. */
export interface RoleChoice {
	readonly id: string;
	readonly managed: boolean;
}

export interface CreateLeagueInput {
	readonly name: string;
	readonly headline?: string | undefined;
	readonly timezone?: string | undefined;
	readonly organizerRole?: RoleChoice | undefined;
	readonly rankingChannel?: string | undefined;
	/** Where the results inbox posts its previews (absent: the ranking channel). */
	readonly resultsChannel?: string | undefined;
}

export interface ConfigureLeagueInput {
	readonly headline?: string | undefined;
	readonly timezone?: string | undefined;
	/** Changed only by members with Manage Server. */
	readonly organizerRole?: RoleChoice | undefined;
	readonly rankingChannel?: string | undefined;
	/** Where the results inbox posts its previews (absent: the ranking channel). */
	readonly resultsChannel?: string | undefined;
	/** The class rated from multi-class result files; `all` goes back to every class as one field. */
	readonly carClass?: string | undefined;
	readonly reset?: 'yearly' | 'none' | undefined;
	/** How retirements are read (rankRace): `ordered` (the default), `tied` or `excluded`. */
	readonly retirements?: RetirementReading | undefined;
	/** Rating parameters as `system.name=value …` (param-text.ts). */
	readonly parameters?: string | undefined;
	/** Day of the month of the ranking post, 1–28. */
	readonly postDay?: number | undefined;
	/** Hour of the ranking post, 0–23, league time. */
	readonly postHour?: number | undefined;
	/** Turns the monthly ranking post on or off. */
	readonly monthlyPost?: 'on' | 'off' | undefined;
	/** The forecast's points table: `f1`, `motogp` or a list (points-table.ts); `default` goes back to F1's. */
	readonly points?: string | undefined;
	/** Dropped results: only the best N race scores count; 0 counts every result. */
	readonly bestResults?: number | undefined;
	/** The leaderboard hides players with fewer rated races; 0 turns it off. */
	readonly minRaces?: number | undefined;
	/** The leaderboard hides players idle for more days; 0 turns it off. */
	readonly idleDays?: number | undefined;
	/** The league's web page and API (docs/web.md): `public`, `unlisted` (a link with a secret) or `private`. */
	readonly visibility?: 'public' | 'unlisted' | 'private' | undefined;
	/** The colours of the league's charts. */
	readonly chartTheme?: 'dark' | 'light' | undefined;
	/** What ratings do at a season's first race (season-service.ts seasonResetSetting). */
	readonly seasonReset?: SeasonResetInput['seasonReset'];
	/** A soft season reset's share, in percent. */
	readonly seasonShare?: number | undefined;
	/** Cars rated apart from drivers in endure and speed (car-settings.ts); absent keeps the setting. */
	readonly cars?: 'on' | 'off' | undefined;
}

/** The monthly ranking post of a league as `/league info` shows it. */
export interface RankingPostSummary extends ActiveRankingPost {
	/** The next scheduled post, when the post is on and has a channel. */
	readonly next?: { readonly month: string; readonly at: Date; readonly local: string } | undefined;
}

export interface LeagueSummary {
	readonly info: LeagueInfo;
	readonly players: number;
	readonly races: number;
	readonly voided: number;
	readonly rankingPost: RankingPostSummary;
}

/** What `/league config channel-default:` did in the channel it was run in. */
export interface ChannelDefaultResult {
	readonly info: LeagueInfo;
	/** The channel (the actor's). */
	readonly channel: string;
	/** Whether the setting changed (false: it already was so). */
	readonly changed: boolean;
	/** Setting it: the league whose default the channel was until now, if another. */
	readonly movedFrom?: LeagueInfo | undefined;
}

export interface LeagueRenameResult {
	readonly info: LeagueInfo;
	/** The name before. */
	readonly from: string;
}

export interface LeagueService {
	create(actor: Actor, input: CreateLeagueInput): Promise<LeagueInfo>;
	configure(actor: Actor, league: string | undefined, input: ConfigureLeagueInput): Promise<LeagueInfo>;
	/** `/league rename`: a new name under the rules of `/league create`; the league's id stays. */
	rename(actor: Actor, league: string | undefined, name: string): Promise<LeagueRenameResult>;
	/**
	 * `/league config channel-default:`: makes the league the one commands without the league option mean in the
	 * actor's channel (moving the channel from another league of the server), or stops it being so.
	 */
	setChannelDefault(actor: Actor, league: string | undefined, on: boolean): Promise<ChannelDefaultResult>;
	info(actor: Actor, league: string | undefined): Promise<LeagueSummary>;
	list(guildId: string): Promise<LeagueInfo[]>;
	/**
	 * The league a command means: by name (or id) when given, else the default league of the actor's channel, else
	 * the server's only league.
	 */
	resolve(actor: Actor, league: string | undefined): Promise<LeagueInfo>;
}

export const DEFAULT_HEADLINE = 'folyami';
export const DEFAULT_TIMEZONE = 'UTC';
/** The largest dropped-results count `/league config best-results:` takes. */
export const MAX_BEST_RESULTS = 100;

/** The forecast's points table and dropped results after `/league config`; absent keeps each. */
function forecastSettings(
	config: LeagueConfig,
	input: ConfigureLeagueInput,
): Pick<LeagueConfig, 'points' | 'bestResults'> {
	let points = config.points;
	if (input.points !== undefined) {
		if (input.points.trim().toLowerCase() === 'default') points = undefined;
		else {
			try {
				points = parsePointsTable(input.points);
			} catch (error) {
				if (!(error instanceof PointsTableError)) throw error;
				throw refused('bad-points', `Points: ${escapeForDiscord(error.message)}.`);
			}
		}
	}
	const best = input.bestResults;
	if (best !== undefined && !(Number.isInteger(best) && best >= 0 && best <= MAX_BEST_RESULTS)) {
		throw refused(
			'bad-best-results',
			`Best results must be a whole number from 0 (every result counts) to ${MAX_BEST_RESULTS}.`,
		);
	}
	const bestResults = best === undefined ? config.bestResults : best || undefined;
	return { points, bestResults };
}

/** The largest `/league config min-races:` and `idle-days:`. */
export const MAX_MIN_RACES = 1000;
export const MAX_IDLE_DAYS = 3650;

/** The leaderboard's filter after `/league config`: absent keeps each, 0 turns it off. */
function leaderboardSettings(
	config: LeagueConfig,
	input: ConfigureLeagueInput,
): Pick<LeagueConfig, 'minRaces' | 'idleDays'> {
	const setting = (value: number | undefined, current: number | undefined, max: number, message: string) => {
		if (value === undefined) return current;
		if (!(Number.isInteger(value) && value >= 0 && value <= max)) throw refused('bad-leaderboard-filter', message);
		return value || undefined;
	};
	return {
		minRaces: setting(
			input.minRaces,
			config.minRaces,
			MAX_MIN_RACES,
			`Minimum races must be a whole number from 0 (every player shown) to ${MAX_MIN_RACES}.`,
		),
		idleDays: setting(
			input.idleDays,
			config.idleDays,
			MAX_IDLE_DAYS,
			`Idle days must be a whole number from 0 (no one hidden for idle time) to ${MAX_IDLE_DAYS}.`,
		),
	};
}

function checkTimezone(timezone: string): string {
	try {
		new Intl.DateTimeFormat('en', { timeZone: timezone });
		return timezone;
	} catch {
		throw refused(
			'bad-timezone',
			`"${escapeForDiscord(timezone)}" is not an IANA time zone (e.g. Europe/Budapest, UTC).`,
		);
	}
}

function checkSystem(system: string): string {
	if (!isSystemId(system)) {
		throw refused(
			'unknown-system',
			`Unknown rating system "${escapeForDiscord(system)}"; known: ${Object.keys(systems).join(', ')}.`,
		);
	}
	return system;
}

/**
 * The organizer role may not be one every member has. Discord guarantees exactly one such role:
 * @everyone, whose id is the server's id. Whether any other role is on every member cannot be known from an
 * interaction (it would take the privileged member list), and any role can be taken away from a member, so it is
 * the admins' choice. Managed roles are refused too: Discord or an integration hands them out (a bot's own role,
 * Server Booster, a subscription's or linked role), not the server's admins, so they say nothing about who organizes.
 */
function checkOrganizerRole(role: RoleChoice, guildId: string): string {
	if (role.id === guildId) {
		throw refused(
			'everyone-role',
			'@everyone is every member of the server, so it cannot be the organizer role (anyone could submit, void and edit races). Choose a role given to organizers only.',
		);
	}
	if (role.managed) {
		throw refused(
			'managed-role',
			'That role is managed by Discord or an integration (a bot’s role, Server Booster, a linked role): the server’s admins do not choose who has it, so it cannot be the organizer role. Choose a role given to organizers only.',
		);
	}
	return role.id;
}

/** The ranking post settings after `/league config`, refused with a message the organizer can act on. */
function configuredRankingPost(config: LeagueConfig, input: ConfigureLeagueInput): LeagueConfig['rankingPost'] {
	const { postDay, postHour, monthlyPost } = input;
	if (postDay === undefined && postHour === undefined && monthlyPost === undefined) return config.rankingPost;
	if (postDay !== undefined && !(Number.isInteger(postDay) && postDay >= 1 && postDay <= RANKING_POST_MAX_DAY)) {
		throw refused(
			'bad-post-day',
			`The post day must be a whole number from 1 to ${RANKING_POST_MAX_DAY} (a day every month has), not ${postDay}.`,
		);
	}
	if (postHour !== undefined && !(Number.isInteger(postHour) && postHour >= 0 && postHour <= 23)) {
		throw refused('bad-post-hour', `The post hour must be a whole number from 0 to 23 (league time), not ${postHour}.`);
	}
	if (monthlyPost !== undefined && monthlyPost !== 'on' && monthlyPost !== 'off') {
		throw refused('bad-monthly-post', 'The monthly post is either on or off.');
	}
	if (monthlyPost === 'on' && config.rankingChannel === undefined) {
		throw refused(
			'post-needs-channel',
			'The monthly ranking post needs a ranking channel: add ranking-channel (a channel where the bot can send messages and attach files).',
		);
	}
	const base = config.rankingPost ?? DEFAULT_RANKING_POST;
	return {
		day: postDay ?? base.day,
		hour: postHour ?? base.hour,
		enabled: monthlyPost === undefined ? base.enabled : monthlyPost === 'on',
	};
}

export interface LeagueServiceOptions {
	/** Now, for the next post time in `info` (default: the system clock). */
	readonly clock?: () => Date;
}

export function createLeagueService(repo: LeagueRepository, options: LeagueServiceOptions = {}): LeagueService {
	const { clock = () => new Date() } = options;
	const resolve = async (actor: Actor, league: string | undefined): Promise<LeagueInfo> => {
		const guildId = requireGuild(actor);
		const leagues = await repo.listLeagues(guildId);
		// A server may have dozens of leagues: the refusals name a few and count the rest.
		const names = listWithMore(leagues.map((l) => `**${escapeForDiscord(l.config.name)}**`));
		if (league !== undefined && league.trim() !== '') {
			const key = nameKey(league);
			const found = leagues.find((l) => nameKey(l.config.name) === key || l.id === league.trim());
			if (found) return found;
			throw refused(
				'unknown-league',
				leagues.length === 0
					? `There is no league "${escapeForDiscord(league)}": this server has no league yet (an organizer can run /league create).`
					: `There is no league "${escapeForDiscord(league)}" in this server. Leagues: ${names}.`,
			);
		}
		const channel = actor.channelId;
		const ofChannel =
			channel === undefined ? undefined : leagues.find((l) => l.config.defaultChannels?.includes(channel));
		if (ofChannel) return ofChannel;
		if (leagues.length === 1) return leagues[0]!;
		if (leagues.length === 0) {
			throw refused('no-league', 'This server has no league yet: an organizer can create one with /league create.');
		}
		throw refused(
			'which-league',
			`This server has ${leagues.length} leagues (${names}): choose one with the league option, or an organizer can make one the default of this channel with /league config channel-default:true.`,
		);
	};

	/** A league's config with `channel` taken out of its default channels (absent when none is left). */
	const withoutChannel = (config: LeagueConfig, channel: string): LeagueConfig => {
		const rest = (config.defaultChannels ?? []).filter((c) => c !== channel);
		return { ...config, defaultChannels: rest.length === 0 ? undefined : rest };
	};

	return {
		resolve,
		list: (guildId) => repo.listLeagues(guildId),
		async create(actor, input) {
			const guildId = requireGuild(actor);
			requireOrganizer({ ...actor, roles: [] }, undefined); // only Manage Server may create a league
			const config: LeagueConfig = {
				guildId,
				name: await refuse('bad-league', () => newName(input.name, 'league name')),
				headline: checkSystem(input.headline ?? DEFAULT_HEADLINE),
				// A new league starts from the defaults chosen for leagues, written out so that
				// /league config shows them and the CLI's --param reproduces the league.
				params: LEAGUE_DEFAULTS,
				timezone: checkTimezone(input.timezone ?? DEFAULT_TIMEZONE),
				...(input.organizerRole !== undefined && { organizerRole: checkOrganizerRole(input.organizerRole, guildId) }),
				...(input.rankingChannel !== undefined && { rankingChannel: input.rankingChannel }),
				...(input.resultsChannel !== undefined && { resultsChannel: input.resultsChannel }),
			};
			// A league renamed to this name keeps its first name's id, so the store cannot see the clash: look at the names.
			const taken = (await repo.listLeagues(guildId)).find((l) => nameKey(l.config.name) === nameKey(config.name));
			if (taken)
				throw refused('bad-league', `A league named "${escapeForDiscord(config.name)}" already exists in this server.`);
			try {
				return await refuse('bad-league', () => repo.createLeague(config, actor.userId));
			} catch (error) {
				// The id of this name is taken by a league renamed since: say so rather than name a league that is not there.
				if (!(error instanceof UserFacingError) || !error.message.startsWith('A league named')) throw error;
				const id = leagueId(guildId, config.name);
				const deleted = await repo.listLeagues(guildId, { deleted: true });
				const holder = deleted.find(
					(l) => nameKey(l.config.name) === nameKey(config.name) || leagueId(guildId, l.config.name) === id,
				);
				if (holder !== undefined) {
					throw refused(
						'bad-league',
						`"${escapeForDiscord(config.name)}" is the name of a deleted league of this server (${escapeForDiscord(holder.config.name)}): /league undelete brings it back, or choose another name.`,
					);
				}
				// Another spelling of a league's name, with the same id ("Sun-Cup" for "Sun Cup"): name that league.
				const sameId = (await repo.listLeagues(guildId)).find((l) => l.id === id);
				if (sameId !== undefined && leagueId(guildId, sameId.config.name) === id) {
					throw refused(
						'bad-league',
						`"${escapeForDiscord(config.name)}" is too close to the name of the league **${escapeForDiscord(sameId.config.name)}** (both make the league id \`${id}\`): choose a name that differs by more than case, spaces or punctuation.`,
					);
				}
				throw refused(
					'bad-league',
					`"${escapeForDiscord(config.name)}" was the name of a league of this server that has since been renamed, and its id still takes that name: choose another name.`,
				);
			}
		},
		async rename(actor, league, name) {
			const info = await resolve(actor, league);
			requireOrganizer(actor, info.config);
			const fresh = await refuse('bad-league', () => newName(name, 'league name'));
			if (fresh === info.config.name) {
				throw refused('same-name', `The league is already named **${escapeForDiscord(fresh)}**: nothing was changed.`);
			}
			const others = (await repo.listLeagues(info.config.guildId)).filter((l) => l.id !== info.id);
			const taken = others.find((l) => nameKey(l.config.name) === nameKey(fresh));
			if (taken) {
				throw refused(
					'league-name-taken',
					`Another league of this server is named **${escapeForDiscord(taken.config.name)}**: choose another name. Nothing was changed.`,
				);
			}
			await refuse('bad-league', () =>
				repo.appendEvent(info.id, {
					type: 'league-configured',
					config: { ...info.config, name: fresh },
					by: actor.userId,
				}),
			);
			return { info: (await repo.getLeague(info.id))!, from: info.config.name };
		},
		async setChannelDefault(actor, league, on) {
			const info = await resolve(actor, league);
			requireOrganizer(actor, info.config);
			const channel = actor.channelId;
			if (channel === undefined) {
				throw refused('no-channel', 'channel-default: needs a channel of the server: run the command in that channel.');
			}
			const holds = (l: LeagueInfo) => l.config.defaultChannels?.includes(channel) === true;
			const store = async (target: LeagueInfo, config: LeagueConfig) => {
				await refuse('bad-config', () =>
					repo.appendEvent(target.id, { type: 'league-configured', config, by: actor.userId }),
				);
			};
			if (!on) {
				if (!holds(info)) return { info, channel, changed: false };
				await store(info, withoutChannel(info.config, channel));
				return { info: (await repo.getLeague(info.id))!, channel, changed: true };
			}
			if (holds(info)) return { info, channel, changed: false };
			const movedFrom = (await repo.listLeagues(info.config.guildId)).find((l) => l.id !== info.id && holds(l));
			if (movedFrom) {
				// Moving the channel changes the other league too: its organizers' call as well.
				if (!isOrganizer(actor, movedFrom.config)) {
					throw refused(
						'not-organizer',
						`This channel is the default of **${escapeForDiscord(movedFrom.config.name)}**, and only its organizers can move it. Nothing was changed.`,
					);
				}
				await store(movedFrom, withoutChannel(movedFrom.config, channel));
			}
			await store(info, { ...info.config, defaultChannels: [...(info.config.defaultChannels ?? []), channel] });
			return { info: (await repo.getLeague(info.id))!, channel, changed: true, movedFrom };
		},
		async configure(actor, league, input) {
			const info = await resolve(actor, league);
			requireOrganizer(actor, info.config);
			const organizerRole = input.organizerRole && checkOrganizerRole(input.organizerRole, info.config.guildId);
			if (organizerRole !== undefined && organizerRole !== info.config.organizerRole && !actor.manageGuild) {
				// The role grants the right to submit, void and edit: handing it on is the admins' act, as creating a league
				// is. A role organizer could otherwise give it to a role of their own choosing and lock the others out.
				throw refused(
					'organizer-role-admin',
					'Only members with Manage Server can change the organizer role; the other settings are yours to change.',
				);
			}
			const reset = input.reset === undefined ? info.config.reset : input.reset === 'yearly' ? 'yearly' : undefined;
			let params = info.config.params;
			if (input.parameters !== undefined) {
				try {
					params = applyParamText(params, input.parameters);
				} catch (error) {
					if (!(error instanceof ParamTextError)) throw error;
					throw refused('bad-config', escapeForDiscord(error.message));
				}
			}
			params = withCarSettings(params, input.cars);
			const retirements =
				input.retirements === undefined
					? info.config.retirements
					: input.retirements === 'ordered'
						? undefined
						: input.retirements;
			const updated: LeagueConfig = {
				...info.config,
				params,
				reset,
				retirements,
				...forecastSettings(info.config, input),
				...leaderboardSettings(info.config, input),
				...(input.headline !== undefined && { headline: checkSystem(input.headline) }),
				...(input.timezone !== undefined && { timezone: checkTimezone(input.timezone) }),
				...(organizerRole !== undefined && { organizerRole }),
				...(input.rankingChannel !== undefined && { rankingChannel: input.rankingChannel }),
				...(input.resultsChannel !== undefined && { resultsChannel: input.resultsChannel }),
				...(input.carClass !== undefined && { carClass: leagueClass(input.carClass) }),
				...(input.visibility !== undefined && webSettings(info.config, input.visibility)),
				...(input.chartTheme !== undefined && { chartTheme: input.chartTheme }),
				...seasonResetSetting(info.config, input),
			};
			const rankingPost = configuredRankingPost(updated, input);
			const config: LeagueConfig = { ...updated, ...(rankingPost !== undefined && { rankingPost }) };
			if (reset === 'yearly' && info.config.reset !== 'yearly') {
				// The log refuses this too (race-log-checks.ts checkDatedForReset); here it is worded for the organizer.
				const undated = (await repo.loadState(info.id))
					.races()
					.find((r) => r.status === 'confirmed' && r.date === undefined);
				if (undated) {
					throw refused(
						'reset-needs-dates',
						`A yearly reset needs a date on every race, and ${undated.id} has none: edit the undated races first.`,
					);
				}
			}
			await refuse('bad-config', () =>
				repo.appendEvent(info.id, { type: 'league-configured', config, by: actor.userId }),
			);
			return (await repo.getLeague(info.id))!;
		},
		async info(actor, league) {
			const info = await resolve(actor, league);
			const state = await repo.loadState(info.id);
			const races = state.races();
			const voided = races.filter((r) => r.status === 'voided').length;
			const post = rankingPostOf(info.config);
			const timezone = info.config.timezone;
			const next = post.active ? nextPost(clock(), post, timezone) : undefined;
			return {
				info,
				players: state.players().length,
				races: races.length - voided,
				voided,
				rankingPost: { ...post, next: next && { ...next, local: formatLocal(next.at, timezone) } },
			};
		},
	};
}

/**
 * `/league config visibility:`: the secret of an unlisted league's address is drawn the first time it is unlisted and
 * kept afterwards (also while public or private), so a link handed out stays valid when the league is unlisted again.
 */
function webSettings(
	config: LeagueConfig,
	visibility: 'public' | 'unlisted' | 'private',
): Pick<LeagueConfig, 'visibility' | 'webSecret'> {
	const webSecret = config.webSecret ?? (visibility === 'unlisted' ? randomBytes(12).toString('hex') : undefined);
	return { visibility: visibility === 'private' ? undefined : visibility, webSecret };
}

/** `/league config class:`: a class name as result files write it, or `all` (every class as one field). */
function leagueClass(typed: string): string | undefined {
	const name = typed.trim().replace(/\s+/gu, ' ');
	if (name === '' || name.toLowerCase() === 'all') return undefined;
	if ([...name].length > 64) throw refused('bad-config', 'A class name is at most 64 characters.');
	return name;
}
