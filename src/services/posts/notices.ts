import { escapeForDiscord } from '../../formats/discord-escape.js';
import type { KeyValueNamespace, LeagueInfo } from '../../storage/ports.js';
import { createKeyedMutex } from '../../storage/mutex.js';
import { isOrganizer, type Actor } from '../actor.js';

/**
 * Notices for organizers: when the monthly post cannot go to a league's channel, the job records a
 * notice here; the next time an organizer of that league uses any command in the server, the router shows it to
 * them in an ephemeral follow-up, once. Stored per guild (namespace `jobs`, key `notices:<guildId>`), so the check
 * on every command is a single read.
 */

export type ChannelProblem = 'missing-channel' | 'missing-access' | 'missing-permission' | 'not-text';

export interface PostNotice {
	readonly league: string;
	/** `YYYY-MM`: the month whose post failed. */
	readonly month: string;
	readonly channel: string;
	readonly problem: ChannelProblem;
}

interface StoredNotice extends PostNotice {
	readonly delivered: boolean;
}

interface NoticesRecord {
	readonly v: 1;
	readonly notices: readonly StoredNotice[];
}

export interface NoticeService {
	/** Records (or keeps) the notice for `notice.league`; a notice already shown for the same problem is not repeated. */
	record(guildId: string, notice: PostNotice): Promise<void>;
	/** Drops the league's notice (its post went out). */
	clear(guildId: string, leagueId: string): Promise<void>;
	/** The notices this member should see now, as message texts; each is marked shown. */
	takeFor(actor: Actor): Promise<string[]>;
}

export interface NoticeServiceDeps {
	/** The `jobs` namespace. */
	readonly store: KeyValueNamespace;
	readonly getLeague: (leagueId: string) => Promise<LeagueInfo | undefined>;
}

const why: Record<ChannelProblem, string> = {
	'missing-permission': 'the bot lacks permission to send messages or attach files there',
	'missing-access': 'the bot cannot see that channel (it lacks the View Channel permission)',
	'missing-channel': 'the channel no longer exists',
	'not-text': 'that channel does not take messages',
};

export function noticeText(leagueName: string, notice: PostNotice): string {
	return (
		`The monthly ranking of **${escapeForDiscord(leagueName)}** (${notice.month}) could not be posted in ` +
		`<#${notice.channel}>: ${why[notice.problem]}. Fix the channel permissions or choose another channel with ` +
		'/league config ranking-channel. The bot tries again every 15 minutes until the end of the month.'
	);
}

export function createNoticeService(deps: NoticeServiceDeps): NoticeService {
	const mutex = createKeyedMutex();
	const key = (guildId: string) => `notices:${guildId}`;
	const read = async (guildId: string): Promise<readonly StoredNotice[]> => {
		const raw = (await deps.store.get(key(guildId))) as NoticesRecord | undefined;
		if (raw === undefined) return [];
		if (raw.v !== 1) throw new Error(`jobs record ${key(guildId)} has schema version ${String(raw.v)}`);
		return raw.notices;
	};
	const write = (guildId: string, notices: readonly StoredNotice[]) =>
		notices.length === 0
			? deps.store.delete(key(guildId))
			: deps.store.set(key(guildId), { v: 1, notices } satisfies NoticesRecord);

	return {
		record: (guildId, notice) =>
			mutex.run(guildId, async () => {
				const notices = await read(guildId);
				const old = notices.find((n) => n.league === notice.league);
				const same =
					old !== undefined &&
					old.month === notice.month &&
					old.channel === notice.channel &&
					old.problem === notice.problem;
				if (same) return;
				await write(guildId, [...notices.filter((n) => n.league !== notice.league), { ...notice, delivered: false }]);
			}),
		clear: (guildId, leagueId) =>
			mutex.run(guildId, async () => {
				const notices = await read(guildId);
				if (notices.some((n) => n.league === leagueId)) {
					await write(
						guildId,
						notices.filter((n) => n.league !== leagueId),
					);
				}
			}),
		takeFor: async (actor) => {
			const guildId = actor.guildId;
			if (guildId === undefined) return [];
			// The common case, on every command: one read, nothing pending.
			if (!(await read(guildId)).some((n) => !n.delivered)) return [];
			return mutex.run(guildId, async () => {
				const notices = await read(guildId);
				const texts: string[] = [];
				const kept: StoredNotice[] = [];
				for (const notice of notices) {
					if (notice.delivered) {
						kept.push(notice);
						continue;
					}
					const league = await deps.getLeague(notice.league);
					// The league is gone or its channel changed since: the notice no longer applies.
					if (league === undefined || league.config.rankingChannel !== notice.channel) continue;
					if (isOrganizer(actor, league.config)) {
						texts.push(noticeText(league.config.name, notice));
						kept.push({ ...notice, delivered: true });
					} else kept.push(notice);
				}
				await write(guildId, kept);
				return texts;
			});
		},
	};
}
