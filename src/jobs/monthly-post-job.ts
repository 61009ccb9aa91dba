/**
 * The monthly ranking post (protocol in docs/scheduler.md). Every 15 minutes (UTC), for every league
 * of every server the bot is in that has a ranking channel and the post on, it posts the month's post once it is due
 * (ranking-post-schedule.ts), EXACTLY ONCE per league and month, across restarts and processes:
 *
 * 1. `add` (insert-if-absent) `post:<league>:<YYYY-MM>` = claimed, attempt 1. Losing the insert means another run
 *    owns it.
 * 2. A `failed` record, or a `claimed` one older than the stale limit (a crash between claim and confirmation), is
 *    retried as attempt n+1, claimed by inserting `<key>:attempt:<n+1>` (so two processes never both retry); the
 *    retry first looks for the post in the channel by its marker (found: marked posted, nothing sent).
 * 3. Compose, post with a nonce fixed per league and month and `enforce_nonce` (a second guard: Discord returns the
 *    earlier message rather than posting twice within a few minutes), then set `posted` with the message id.
 * 4. A refusal (HTTP 4xx/5xx, a missing channel or permission) or any error sets `failed`; the next run retries.
 *    A channel the bot cannot use is logged (ids and codes only) and leaves a notice for the league's organizers.
 */
import { rankingPostOf } from '../league/ranking-post.js';
import type { LeagueService } from '../services/leagues/league-service.js';
import type { ChannelPoster, MonthlyPostComposer, PostFailure } from '../services/posts/monthly-post-port.js';
import type { ChannelProblem, NoticeService } from '../services/posts/notices.js';
import { duePost, type DuePost } from '../services/posts/ranking-post-schedule.js';
import type { KeyValueNamespace, LeagueInfo } from '../storage/ports.js';
import type { Logger } from '../logger.js';
import type { Job } from './job.js';
import {
	attemptKey,
	postKey,
	postMarker,
	postNonce,
	postRecordOf,
	withMarker,
	type PostRecord,
} from './post-record.js';

export const MONTHLY_POST_JOB = 'monthly-ranking-post';

export interface MonthlyPostJobDeps {
	readonly leagues: Pick<LeagueService, 'list'>;
	/** The servers the bot is in (the client's guild cache). */
	readonly guildIds: () => Iterable<string>;
	/** The store's `jobs` namespace. */
	readonly store: KeyValueNamespace;
	readonly composer: MonthlyPostComposer;
	readonly poster: ChannelPoster;
	readonly notices: Pick<NoticeService, 'record' | 'clear'>;
	/** Timestamps of the records (default: the system clock; tests pass the scheduler's fake clock). */
	readonly clock?: () => Date;
	/** A claim older than this was left by a crash (default 10 minutes: a post takes seconds). */
	readonly staleClaimMs?: number;
	/** Default every 15 minutes: a post goes out within 15 minutes of its hour, and retries as often. */
	readonly schedule?: string;
}

/** Stale attempt keys passed over in one run before giving up until the next (each is a crashed retry). */
const MAX_SKIPPED_ATTEMPTS = 5;

const channelProblems: readonly string[] = ['missing-channel', 'missing-access', 'missing-permission', 'not-text'];

export function createMonthlyPostJob(deps: MonthlyPostJobDeps): Job {
	const { store, poster, composer, notices, clock = () => new Date(), staleClaimMs = 10 * 60_000 } = deps;
	const stamp = () => clock().toISOString();

	const failed = async (
		league: LeagueInfo,
		due: DuePost,
		attempt: number,
		failure: PostFailure,
		log: Logger,
	): Promise<void> => {
		const key = postKey(league.id, due.month);
		const channel = league.config.rankingChannel ?? '';
		await store.set(key, { v: 1, state: 'failed', attempt, at: stamp(), failure } satisfies PostRecord);
		log.warn(
			{ league: league.id, guildId: league.config.guildId, month: due.month, channel, attempt, ...failure },
			'monthly post refused by Discord; retried on the next run',
		);
		if (channelProblems.includes(failure.kind)) {
			await notices.record(league.config.guildId, {
				league: league.id,
				month: due.month,
				channel,
				problem: failure.kind as ChannelProblem,
			});
		}
	};

	const posted = async (league: LeagueInfo, due: DuePost, attempt: number, messageId: string, log: Logger) => {
		await store.set(postKey(league.id, due.month), {
			v: 1,
			state: 'posted',
			attempt,
			at: stamp(),
			messageId,
		} satisfies PostRecord);
		log.info({ league: league.id, month: due.month, messageId, attempt, late: due.late }, 'monthly post posted');
		try {
			await notices.clear(league.config.guildId, league.id);
		} catch (error) {
			log.error({ err: error, league: league.id }, 'could not drop the notice of a posted league');
		}
	};

	/** Claims the post (or its next attempt); undefined when it is posted, or another run holds it. */
	const claim = async (key: string, log: Logger): Promise<{ attempt: number } | undefined> => {
		const record = postRecordOf(await store.get(key), key);
		if (record === undefined) {
			const won = await store.add(key, { v: 1, state: 'claimed', attempt: 1, at: stamp() } satisfies PostRecord);
			return won ? { attempt: 1 } : undefined;
		}
		if (record.state === 'posted' || record.state === 'skipped') return undefined;
		if (record.state === 'claimed' && clock().getTime() - Date.parse(record.at) < staleClaimMs) {
			log.debug({ key, attempt: record.attempt }, 'monthly post in progress elsewhere');
			return undefined;
		}
		// Retry n+1 belongs to whoever inserts its key. A key whose owner never wrote the record (it died in between)
		// is passed over once it is stale, so a crash at any point cannot block the post for the rest of the month.
		for (let attempt = record.attempt + 1; attempt <= record.attempt + MAX_SKIPPED_ATTEMPTS; attempt++) {
			if (await store.add(attemptKey(key, attempt), { v: 1, at: stamp() })) {
				await store.set(key, { v: 1, state: 'claimed', attempt, at: stamp() } satisfies PostRecord);
				return { attempt };
			}
			const owner = (await store.get(attemptKey(key, attempt))) as { at?: string } | undefined;
			if (owner?.at === undefined || clock().getTime() - Date.parse(owner.at) < staleClaimMs) return undefined;
		}
		return undefined;
	};

	const postLeague = async (league: LeagueInfo, now: Date, log: Logger): Promise<void> => {
		const settings = rankingPostOf(league.config);
		if (!settings.active || settings.channel === undefined) return;
		const due = duePost(now, settings, league.config.timezone);
		if (due === undefined) return;
		const key = postKey(league.id, due.month);
		const claimed = await claim(key, log);
		if (claimed === undefined) return;
		const { attempt } = claimed;
		const marker = postMarker(league.id, due.month);
		try {
			if (attempt > 1) {
				// A retry: an earlier attempt may have posted without recording it (a crash, a lost answer).
				const found = await poster.findMarked(settings.channel, marker);
				if (!found.ok) return await failed(league, due, attempt, found.failure, log);
				if (found.messageId !== undefined) return await posted(league, due, attempt, found.messageId, log);
			}
			const composed = await composer.compose(league.id, due.month, { late: due.late, now });
			if (composed === undefined) {
				await store.set(key, { v: 1, state: 'skipped', attempt, at: stamp() } satisfies PostRecord);
				log.info({ league: league.id, month: due.month }, 'monthly post skipped: nothing to rank yet');
				return;
			}
			const message = withMarker(composed, marker);
			const result = await poster.post(settings.channel, message, { nonce: postNonce(key) });
			if (!result.ok) return await failed(league, due, attempt, result.failure, log);
			await posted(league, due, attempt, result.messageId, log);
		} catch (error) {
			log.error({ err: error, league: league.id, month: due.month, attempt }, 'monthly post failed');
			await store.set(key, {
				v: 1,
				state: 'failed',
				attempt,
				at: stamp(),
				failure: { kind: 'error' },
			} satisfies PostRecord);
		}
	};

	return {
		name: MONTHLY_POST_JOB,
		schedule: deps.schedule ?? '*/15 * * * *',
		timezone: 'UTC',
		async run({ now, log }) {
			let leagues = 0;
			for (const guildId of deps.guildIds()) {
				try {
					for (const league of await deps.leagues.list(guildId)) {
						leagues += 1;
						try {
							await postLeague(league, now, log);
						} catch (error) {
							// The store failed: this league waits for the next run, the others go on.
							log.error({ err: error, league: league.id }, 'monthly post: league skipped');
						}
					}
				} catch (error) {
					log.error({ err: error, guildId }, 'monthly post: could not list the leagues of a server');
				}
			}
			log.debug({ leagues }, 'monthly post: leagues checked');
		},
	};
}

export default createMonthlyPostJob;
