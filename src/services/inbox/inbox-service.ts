/**
 * The results inbox (docs/results-inbox.md): a league's game server sends each result file to the bot's HTTP
 * endpoint (src/http/routes/inbox.ts) with the league's token; each file becomes a race preview posted in the league's
 * results channel, stored when an organizer presses its Confirm, or at once where the league turned auto-confirm on.
 *
 * Tokens are `pwi_<id>_<secret>` (12 hex digits, then 256 random bits in base64url), shown once to the organizer who
 * creates them. The store keeps the SHA-256 of the token, never the token, and a presented token is checked with
 * crypto.timingSafeEqual against it. Store namespace `inbox`:
 *   `league:<league id>`  the league's settings: its token's id and hash, auto-confirm (InboxSettingsRecord);
 *   `token:<id>`          which league a token id belongs to (a stale one, left by a rotation, names an old id and is
 *                         refused);
 *   `file:<preview id>`   one received file (InboxFileRecord).
 *
 * A file's preview id is the first 16 hex digits of SHA-256(league id, SHA-256(file)): the same bytes sent to one
 * league are one preview, whichever process takes them. `file:<preview id>` is written with the store's atomic
 * insert-if-absent before anything is posted, so of two processes receiving the same file (two bot processes on one
 * PostgreSQL, a retry racing its first try) one takes it and the other answers that it is already here. The record
 * holds the race as read, so a Confirm in any process (another shard, after a restart) stores it; the race event
 * carries the preview id, so the log itself refuses a second race from one file.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RaceInput, SimIdClaim } from '../../league/league-events.js';
import type { Logger } from '../../logger.js';
import type { KeyValueNamespace, LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import type { ChannelMessage, ChannelPoster, PostFailure } from '../posts/monthly-post-port.js';
import { storePreviewOnce } from '../races/previews.js';
import type { RacePreview, RaceService, RaceView } from '../races/race-service.js';
import type { RaceFile } from '../races/submission.js';

/** Who stored a race the inbox stored by itself (auto-confirm): the race's `submitted by`. */
export const INBOX_USER = 'inbox';

/** The customId prefix of an inbox preview's buttons: `inbox:confirm:<preview id>`, `inbox:cancel:<preview id>`. */
export const INBOX_BUTTONS = 'inbox';

/** A claim older than this without its preview posted was left by a crash: the same file sent again takes it over. */
export const STALE_CLAIM_MS = 2 * 60_000;

const TOKEN_PATTERN = /^pwi_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

/** The channel a league's inbox posts in: its results channel, else its ranking channel. */
export const resultsChannelOf = (league: LeagueInfo): string | undefined =>
	league.config.resultsChannel ?? league.config.rankingChannel;

// ---- records -------------------------------------------------------------------------------------------------------

export interface InboxSettingsRecord {
	readonly v: 1;
	readonly league: string;
	/** The league's one token (absent: none, or revoked). `hash` is SHA-256 of the whole token, hex. */
	readonly token?: { readonly id: string; readonly hash: string; readonly at: string; readonly by: string } | undefined;
	/** Store each file's race at once, without a preview to confirm. */
	readonly autoConfirm: boolean;
	/** The last change, and who made it. */
	readonly at: string;
	readonly by: string;
}

interface TokenRecord {
	readonly v: 1;
	readonly league: string;
}

/** `claimed` (taken, its preview not posted yet), `posted` (waiting for Confirm), `stored`, `cancelled`. */
export type InboxFileState = 'claimed' | 'posted' | 'stored' | 'cancelled';

export interface InboxFileRecord {
	readonly v: 1;
	readonly league: string;
	/** SHA-256 of the file, hex. */
	readonly hash: string;
	/** The name it was sent under, and its size. */
	readonly name: string;
	readonly bytes: number;
	readonly receivedAt: string;
	/** The race as read when it arrived (dated the day it arrived when the file has no date). */
	readonly race: RaceInput;
	readonly simIds?: readonly SimIdClaim[] | undefined;
	readonly state: InboxFileState;
	/** When the state was written. */
	readonly at: string;
	/** Where its message went (posted, stored). */
	readonly channel?: string | undefined;
	readonly messageId?: string | undefined;
	/** The race it was stored as, and who stored or cancelled it. */
	readonly raceId?: string | undefined;
	readonly by?: string | undefined;
}

function settingsRecordOf(raw: unknown, key: string): InboxSettingsRecord | undefined {
	if (raw === undefined) return undefined;
	if ((raw as { v?: unknown }).v !== 1) throw versionError(key, raw);
	return raw as InboxSettingsRecord;
}

function fileRecordOf(raw: unknown, key: string): InboxFileRecord | undefined {
	if (raw === undefined) return undefined;
	const record = raw as Partial<InboxFileRecord>;
	if (record.v !== 1 || !['claimed', 'posted', 'stored', 'cancelled'].includes(String(record.state))) {
		throw versionError(key, raw);
	}
	return record as InboxFileRecord;
}

const versionError = (key: string, raw: unknown) =>
	new Error(
		`inbox record ${key} has schema version ${String((raw as { v?: unknown }).v)}: this pitwall reads version 1`,
	);

// ---- what the service answers --------------------------------------------------------------------------------------

/** A league's inbox as `/league inbox` shows it (never the token: only its id, when and by whom it was made). */
export interface InboxSettingsView {
	readonly league: LeagueInfo;
	readonly token?: { readonly id: string; readonly at: string; readonly by: string } | undefined;
	readonly autoConfirm: boolean;
	/** Where previews go (the results channel, else the ranking channel), if anywhere. */
	readonly channel: string | undefined;
	/** The address files are sent to, when this process knows it (HTTP_PUBLIC_URL, or its own host and port). */
	readonly url: string | undefined;
}

/** The preview an inbox message shows: the race preview of the file, and the file. */
export interface InboxPreviewView {
	readonly preview: RacePreview;
	readonly file: { readonly name: string; readonly bytes: number };
	readonly receivedAt: string;
}

/** What a file became: a preview waiting in the channel, a race stored (auto-confirm), or nothing new (already here). */
export type InboxReceipt =
	| {
			readonly kind: 'previewed';
			readonly league: LeagueInfo;
			readonly preview: string;
			readonly channel: string;
			readonly messageId: string;
			readonly racers: number;
			readonly warnings: number;
	  }
	| {
			readonly kind: 'stored';
			readonly league: LeagueInfo;
			readonly preview: string;
			readonly race: string;
			/** The channel the race was announced in, when it was. */
			readonly channel: string | undefined;
			/** Why the announcement did not go out (the race is stored all the same). */
			readonly notPosted?: string | undefined;
	  }
	| { readonly kind: 'duplicate'; readonly league: LeagueInfo; readonly preview: string; readonly message: string };

export interface InboxConfirmed {
	readonly already: boolean;
	readonly league: LeagueInfo;
	readonly race: string;
	readonly file: string;
}

/** How a preview's message and an auto-confirmed race's message look: given by the Discord adapter (commands/). */
export interface InboxMessages {
	/** The preview with its Confirm / Cancel buttons (customIds `inbox:confirm:<id>`, `inbox:cancel:<id>`). */
	preview(view: InboxPreviewView): ChannelMessage;
	/** A race the inbox stored by itself (auto-confirm). */
	stored(view: RaceView, file: { readonly name: string }): ChannelMessage;
}

/** Where received files are posted: the channel poster over this process's Discord client, and the messages. */
export interface InboxOutlet {
	readonly poster: ChannelPoster;
	readonly messages: InboxMessages;
}

export interface InboxService {
	/** Whether the league's inbox has a token, where its previews go, auto-confirm (organizers). */
	settings(actor: Actor, league: string | undefined): Promise<InboxSettingsView>;
	/** A new token, replacing the league's previous one at once (organizers). The token is returned only here. */
	newToken(
		actor: Actor,
		league: string | undefined,
	): Promise<{ readonly view: InboxSettingsView; readonly token: string; readonly replaced: boolean }>;
	/** The token stops working (organizers); `revoked` is false when there was none. */
	revokeToken(actor: Actor, league: string | undefined): Promise<{ view: InboxSettingsView; revoked: boolean }>;
	/** Store each file's race at once (true) or preview it for an organizer's Confirm (false, the default). */
	setAutoConfirm(actor: Actor, league: string | undefined, on: boolean): Promise<InboxSettingsView>;
	/** The league a presented token opens, or undefined (malformed, unknown, rotated or revoked). */
	authenticate(token: string | undefined): Promise<LeagueInfo | undefined>;
	/**
	 * One file sent to the league's inbox: read as `/race submit file:` reads it (a refusal is a UserFacingError and
	 * stores nothing), taken once (by its hash), then posted as a preview, or stored at once (auto-confirm).
	 */
	receive(league: LeagueInfo, file: RaceFile, outlet: InboxOutlet): Promise<InboxReceipt>;
	/** An inbox preview's Confirm, by an organizer at the time of the press, in any process; idempotent. */
	confirm(actor: Actor, previewId: string): Promise<InboxConfirmed>;
	/** An inbox preview's Cancel: the file is set aside (sent again, it is answered as already received). */
	cancel(actor: Actor, previewId: string): Promise<{ readonly league: LeagueInfo; readonly file: string }>;
}

export interface InboxServiceOptions {
	/** The store's `inbox` namespace. */
	readonly store: KeyValueNamespace;
	readonly clock?: () => Date;
	/** The address files are sent to, for `/league inbox` (undefined: the HTTP server is off here). */
	readonly url?: () => string | undefined;
	/** Random bytes for tokens (tests pass a seeded source). */
	readonly random?: (size: number) => Buffer;
	/** Warnings that change no answer (a state record that could not be written after the race was stored). */
	readonly log?: Logger | undefined;
	/** Where previews go for a league that names no channel (the local console, whose one channel is itself). */
	readonly channel?: string | undefined;
}

const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();

/** The preview id of a file in a league: the same bytes to the same league are always the same preview. */
export const inboxPreviewId = (leagueId: string, fileHash: string): string =>
	sha256(`${leagueId}\n${fileHash}`).toString('hex').slice(0, 16);

/** The inbox acts for the league's organizers: the token is their authority, as Manage Server is a member's. */
const inboxActor = (league: LeagueInfo): Actor => ({
	userId: INBOX_USER,
	guildId: league.config.guildId,
	manageGuild: true,
	roles: [],
});

/** `2026-03-01 20:14 UTC`. */
const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Why a post failed, for the sender: what Discord said, in words. */
function postFailureText(failure: PostFailure): string {
	switch (failure.kind) {
		case 'missing-channel':
			return 'the channel does not exist any more';
		case 'missing-access':
			return 'the bot cannot see the channel';
		case 'missing-permission':
			return 'the bot may not send messages there';
		case 'not-text':
			return 'it is not a text channel';
		case 'http':
			return `Discord answered HTTP ${failure.status ?? '?'}`;
	}
}

export function createInboxService(
	repo: LeagueRepository,
	leagues: LeagueService,
	races: RaceService,
	options: InboxServiceOptions,
): InboxService {
	const { store, clock = () => new Date(), random = randomBytes, log } = options;
	const url = options.url ?? (() => undefined);
	const now = () => clock().toISOString();
	const channelOf = (league: LeagueInfo) => resultsChannelOf(league) ?? options.channel;
	const settingsKey = (league: string) => `league:${league}`;
	const fileKey = (preview: string) => `file:${preview}`;

	const settingsOf = async (league: string) =>
		settingsRecordOf(await store.get(settingsKey(league)), settingsKey(league));
	const fileOf = async (preview: string) => fileRecordOf(await store.get(fileKey(preview)), fileKey(preview));

	const view = (league: LeagueInfo, record: InboxSettingsRecord | undefined): InboxSettingsView => ({
		league,
		...(record?.token !== undefined && { token: { id: record.token.id, at: record.token.at, by: record.token.by } }),
		autoConfirm: record?.autoConfirm ?? false,
		channel: channelOf(league),
		url: url(),
	});

	const organizerLeague = async (actor: Actor, ref: string | undefined) => {
		const league = await leagues.resolve(actor, ref);
		requireOrganizer(actor, league.config);
		return league;
	};

	/** The league of a file record for a button press: an organizer of it, now, in its own server. */
	const pressedLeague = async (actor: Actor, record: InboxFileRecord): Promise<LeagueInfo> => {
		const league = await repo.getLeague(record.league);
		if (league === undefined || league.config.guildId !== actor.guildId || league.config.deleted !== undefined) {
			throw refused('inbox-unknown', 'This preview belongs to no league of this server: nothing was stored.');
		}
		requireOrganizer(actor, league.config);
		return league;
	};

	const waiting = async (previewId: string) => {
		const record = /^[0-9a-f]{16}$/.test(previewId) ? await fileOf(previewId) : undefined;
		if (record === undefined) {
			throw refused(
				'inbox-unknown',
				'This inbox preview is not waiting any more (its file was given back to the sender): nothing was stored.',
			);
		}
		return record;
	};

	/** The race a preview was stored as, read from the log (the truth, whatever the file record says). */
	const storedRace = async (league: LeagueInfo, previewId: string) => {
		const stored = (await repo.loadState(league.id, { fresh: true })).storedPreview(previewId);
		return stored?.kind === 'submitted' ? stored.race : undefined;
	};

	/** What the sender of a file already here is told. */
	const duplicate = async (league: LeagueInfo, previewId: string, record: InboxFileRecord): Promise<InboxReceipt> => {
		const when = `This file was already received on ${utc(record.receivedAt)}`;
		const race = await storedRace(league, previewId);
		const message =
			race !== undefined
				? `${when} and stored as ${race}: nothing new was stored.`
				: record.state === 'cancelled'
					? `${when} and cancelled by an organizer: nothing was stored. To rate it after all, attach it to /race submit.`
					: `${when}: its preview waits for an organizer's Confirm in the results channel. Nothing new was stored.`;
		return { kind: 'duplicate', league, preview: previewId, message };
	};

	/**
	 * Takes the file: inserts its record if absent; a claim left by a crash (older than STALE_CLAIM_MS, never posted)
	 * is taken over by whoever inserts its takeover key, so two processes never both take it.
	 */
	const claim = async (previewId: string, record: InboxFileRecord): Promise<boolean> => {
		if (await store.add(fileKey(previewId), record)) return true;
		const existing = await fileOf(previewId);
		if (existing === undefined) return store.add(fileKey(previewId), record); // given back meanwhile
		if (existing.state !== 'claimed' || clock().getTime() - Date.parse(existing.at) < STALE_CLAIM_MS) return false;
		if (!(await store.add(`takeover:${previewId}:${existing.at}`, { v: 1, at: record.at }))) return false;
		await store.set(fileKey(previewId), record);
		return true;
	};

	/** The state written after the fact: the log or Discord already has the truth, so a failure here is a warning. */
	const setState = async (previewId: string, record: InboxFileRecord) => {
		try {
			await store.set(fileKey(previewId), record);
		} catch (error) {
			log?.warn(
				{ err: error, league: record.league, preview: previewId, state: record.state },
				'inbox record not updated',
			);
		}
	};

	const post = async (poster: ChannelPoster, channel: string, message: ChannelMessage, nonce: string) => {
		try {
			return await poster.post(channel, message, { nonce });
		} catch (error) {
			log?.warn({ err: error, channel }, 'inbox: Discord could not be reached');
			return { ok: false, failure: undefined } as const;
		}
	};

	/** The file's race stored once under its preview id: its race id, and whether an earlier store had made it. */
	const storeRace = async (
		league: LeagueInfo,
		previewId: string,
		record: InboxFileRecord,
		by: string,
	): Promise<{ race: string; already: boolean }> => {
		const done = await storePreviewOnce(repo, league, previewId, 'submitted', 'bad-race', () =>
			repo.appendEvent(league.id, {
				type: 'race-submitted',
				race: record.race,
				preview: previewId,
				...(record.simIds !== undefined && { simIds: [...record.simIds] }),
				by,
			}),
		);
		if ('already' in done) return { race: done.already.race, already: true };
		return { race: done.result.race ?? '?', already: false };
	};

	/** Stores the race now (auto-confirm) and announces it in the channel if there is one. */
	const storeNow = async (
		league: LeagueInfo,
		previewId: string,
		record: InboxFileRecord,
		outlet: InboxOutlet,
	): Promise<InboxReceipt> => {
		const { race } = await storeRace(league, previewId, record, INBOX_USER);
		const channel = channelOf(league);
		let notPosted: string | undefined = channel === undefined ? 'the league has no results channel' : undefined;
		let messageId: string | undefined;
		if (channel !== undefined) {
			const shown = await races.show(inboxActor(league), `${league.id}/${race}`);
			const result = await post(outlet.poster, channel, outlet.messages.stored(shown, record), `inbox:${previewId}`);
			if (result.ok) messageId = result.messageId;
			else notPosted = result.failure ? postFailureText(result.failure) : 'Discord could not be reached';
		}
		await setState(previewId, {
			...record,
			state: 'stored',
			raceId: race,
			by: INBOX_USER,
			at: now(),
			...(messageId !== undefined && { channel, messageId }),
		});
		return {
			kind: 'stored',
			league,
			preview: previewId,
			race,
			channel: messageId !== undefined ? channel : undefined,
			notPosted,
		};
	};

	return {
		async settings(actor, ref) {
			const league = await organizerLeague(actor, ref);
			return view(league, await settingsOf(league.id));
		},

		async newToken(actor, ref) {
			const league = await organizerLeague(actor, ref);
			const before = await settingsOf(league.id);
			const id = random(6).toString('hex');
			const token = `pwi_${id}_${random(32).toString('base64url')}`;
			if (!(await store.add(`token:${id}`, { v: 1, league: league.id } satisfies TokenRecord))) {
				throw new Error('inbox token id collision: try again');
			}
			const at = now();
			const record: InboxSettingsRecord = {
				v: 1,
				league: league.id,
				token: { id, hash: sha256(token).toString('hex'), at, by: actor.userId },
				autoConfirm: before?.autoConfirm ?? false,
				at,
				by: actor.userId,
			};
			await store.set(settingsKey(league.id), record);
			// The old token stops working with the write above (its id is not the league's any more); its pointer goes.
			if (before?.token !== undefined) await store.delete(`token:${before.token.id}`);
			return { view: view(league, record), token, replaced: before?.token !== undefined };
		},

		async revokeToken(actor, ref) {
			const league = await organizerLeague(actor, ref);
			const before = await settingsOf(league.id);
			if (before?.token === undefined) return { view: view(league, before), revoked: false };
			const record: InboxSettingsRecord = { ...before, token: undefined, at: now(), by: actor.userId };
			await store.set(settingsKey(league.id), record);
			await store.delete(`token:${before.token.id}`);
			return { view: view(league, record), revoked: true };
		},

		async setAutoConfirm(actor, ref, on) {
			const league = await organizerLeague(actor, ref);
			const before = await settingsOf(league.id);
			const record: InboxSettingsRecord = {
				v: 1,
				league: league.id,
				...(before?.token !== undefined && { token: before.token }),
				autoConfirm: on,
				at: now(),
				by: actor.userId,
			};
			await store.set(settingsKey(league.id), record);
			return view(league, record);
		},

		async authenticate(token) {
			const id = TOKEN_PATTERN.exec(token ?? '')?.[1];
			if (id === undefined) return undefined;
			const pointer = (await store.get(`token:${id}`)) as TokenRecord | undefined;
			const settings = pointer === undefined ? undefined : await settingsOf(pointer.league);
			const current = settings?.token?.id === id ? settings.token : undefined;
			// Compared in constant time whatever is found, so the answer's timing says nothing about the secret.
			const expected = current === undefined ? Buffer.alloc(32) : Buffer.from(current.hash, 'hex');
			const matches = timingSafeEqual(expected, sha256(token!));
			if (!matches || current === undefined || settings === undefined) return undefined;
			// A deleted league's token opens nothing, as if revoked (its log would refuse the race anyway).
			const league = await repo.getLeague(settings.league);
			return league?.config.deleted === undefined ? league : undefined;
		},

		async receive(league, file, outlet) {
			const hash = sha256(file.bytes).toString('hex');
			const previewId = inboxPreviewId(league.id, hash);
			const existing = await fileOf(previewId);
			const stale = existing?.state === 'claimed' && clock().getTime() - Date.parse(existing.at) >= STALE_CLAIM_MS;
			if (existing !== undefined && !stale) return duplicate(league, previewId, existing);
			const settings = await settingsOf(league.id);
			const autoConfirm = settings?.autoConfirm ?? false;
			const channel = channelOf(league);
			if (channel === undefined && !autoConfirm) {
				throw refused(
					'inbox-no-channel',
					`${league.config.name} has no results channel for the preview: an organizer sets one with /league config ` +
						'results-channel:#channel. Nothing was stored; send the file again then.',
				);
			}
			// Read as /race submit reads a file: the same checks and the same preview. A refusal stores nothing.
			const actor = inboxActor(league);
			const submitted = await races.submit(actor, { league: league.id, file });
			const taken = await races.takePreview(actor, submitted.id);
			if (taken === undefined) throw new Error('inbox: the preview was not waiting');
			const receivedAt = now();
			const record: InboxFileRecord = {
				v: 1,
				league: league.id,
				hash,
				name: file.name,
				bytes: file.bytes.length,
				receivedAt,
				race: taken.race,
				...(taken.simIds !== undefined && { simIds: taken.simIds }),
				state: 'claimed',
				at: receivedAt,
			};
			if (!(await claim(previewId, record))) {
				const current = await fileOf(previewId);
				if (current !== undefined) return duplicate(league, previewId, current);
				throw new Error('inbox: the file could not be taken');
			}
			try {
				if (autoConfirm) return await storeNow(league, previewId, record, outlet);
				const message = outlet.messages.preview({
					preview: { ...taken.preview, id: previewId },
					file: { name: file.name, bytes: file.bytes.length },
					receivedAt,
				});
				// The nonce is the file's: a retry after a lost answer gets Discord's earlier message, not a second one.
				const result = await post(outlet.poster, channel!, message, `inbox:${previewId}`);
				if (!result.ok) {
					const why = result.failure ? postFailureText(result.failure) : 'Discord could not be reached';
					throw refused(
						'inbox-post-failed',
						`The preview could not be posted in the results channel (${channel}): ${why}. Nothing was stored; ` +
							'send the file again once the channel is fixed.',
					);
				}
				await setState(previewId, { ...record, state: 'posted', channel, messageId: result.messageId, at: now() });
				return {
					kind: 'previewed',
					league,
					preview: previewId,
					channel: channel!,
					messageId: result.messageId,
					racers: taken.race.entries.length,
					warnings: taken.preview.warnings.length,
				};
			} catch (error) {
				// Not taken after all: give the file back, so that sending it again tries again. A race stored meanwhile
				// (auto-confirm) keeps its record: the log has it.
				if (!(autoConfirm && (await storedRace(league, previewId)) !== undefined)) {
					await store.delete(fileKey(previewId)).catch(() => undefined);
				}
				throw error;
			}
		},

		async confirm(actor, previewId) {
			const record = await waiting(previewId);
			const league = await pressedLeague(actor, record);
			if (record.state === 'cancelled') {
				const already = await storedRace(league, previewId);
				if (already !== undefined) return { already: true, league, race: already, file: record.name };
				throw refused(
					'inbox-cancelled',
					`This file was cancelled${record.by !== undefined ? ` by <@${record.by}>` : ''} on ${utc(record.at)}: ` +
						'nothing was stored. To rate it after all, attach it to /race submit.',
				);
			}
			const { race, already } = await storeRace(league, previewId, record, actor.userId);
			if (record.state !== 'stored') {
				await setState(previewId, { ...record, state: 'stored', raceId: race, by: actor.userId, at: now() });
			}
			return { already, league, race, file: record.name };
		},

		async cancel(actor, previewId) {
			const record = await waiting(previewId);
			const league = await pressedLeague(actor, record);
			const race = await storedRace(league, previewId);
			if (race !== undefined) {
				throw refused(
					'inbox-stored',
					`Already stored as **${race}**: nothing was cancelled. To take it back, use /race void race:${race}.`,
				);
			}
			if (record.state !== 'cancelled') {
				await store.set(fileKey(previewId), { ...record, state: 'cancelled', by: actor.userId, at: now() });
			}
			return { league, file: record.name };
		},
	};
}
