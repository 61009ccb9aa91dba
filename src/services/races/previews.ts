import { randomUUID } from 'node:crypto';
import type { LeagueLog, StoredPreview } from '../../league/race-log.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refuse, refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';

/**
 * What waits for a Confirm (a race preview, a correction, a merge, a calibration proposal): its id, how long it waits,
 * the organizer check at every press, and how a Confirm pressed again finds what an earlier press stored (the log
 * records the preview id and refuses it twice).
 */

/** How long a preview waits for Confirm. */
export const PREVIEW_TTL_MS = 15 * 60 * 1000;

/** A preview's id (16 hex digits): carried by its Confirm and Cancel buttons, and by the event it is confirmed into. */
export const newPreviewId = (): string => randomUUID().replaceAll('-', '').slice(0, 16);

/** The refusal of a Confirm or Cancel whose preview no longer waits: what was not done, and what to do. */
export const expiredPreview = (notDone: string, again: string) =>
	refused(
		'preview-expired',
		`This preview has expired or was already handled (previews last 15 minutes): ${notDone}. ${again}`,
	);

/** The items waiting for a press, in memory, dropped once expired. */
export interface WaitingItems<T> {
	set(id: string, item: T): void;
	/**
	 * The item, for an organizer of its league: organizer status is checked again at every press, from the member of
	 * the button's interaction, so a member whose role was revoked since the preview can no longer confirm or cancel
	 * it. The league is returned as it is now. The item stays until `delete`.
	 */
	claim(actor: Actor, id: string): Promise<{ readonly item: T; readonly league: LeagueInfo } | undefined>;
	delete(id: string): void;
	size(): number;
}

export function createWaitingItems<T>(
	repo: Pick<LeagueRepository, 'getLeague'>,
	clock: () => Date,
	waitsFor: (item: T) => { readonly league: LeagueInfo; readonly expiresAt: Date },
): WaitingItems<T> {
	const items = new Map<string, T>();
	const sweep = () => {
		const now = clock().getTime();
		for (const [id, item] of items) if (waitsFor(item).expiresAt.getTime() <= now) items.delete(id);
	};
	return {
		set(id, item) {
			sweep();
			items.set(id, item);
		},
		async claim(actor, id) {
			sweep();
			const item = items.get(id);
			if (item === undefined) return undefined;
			const then = waitsFor(item).league;
			const league = (await repo.getLeague(then.id)) ?? then;
			requireOrganizer(actor, league.config);
			return { item, league };
		},
		delete(id) {
			items.delete(id);
		},
		size: () => (sweep(), items.size),
	};
}

type Stored<K extends StoredPreview['kind']> = Extract<StoredPreview, { kind: K }>;

/**
 * A preview that is not waiting here may have been stored already: by this Confirm's first press whose answer was
 * lost, by a Confirm before a restart, or by another process over the same store. The button carries only the
 * preview id, so the leagues of the member's server are asked, each read fresh from the store.
 */
export async function findStoredPreview<K extends StoredPreview['kind']>(
	repo: LeagueRepository,
	leagues: LeagueService,
	actor: Actor,
	previewId: string,
	kind: K,
): Promise<{ readonly league: LeagueInfo; readonly state: LeagueLog; readonly stored: Stored<K> } | undefined> {
	if (actor.guildId === undefined) return undefined;
	for (const league of await leagues.list(actor.guildId)) {
		const state = await repo.loadState(league.id, { fresh: true });
		const stored = state.storedPreview(previewId);
		if (stored?.kind === kind) {
			requireOrganizer(actor, league.config);
			return { league, state, stored: stored as Stored<K> };
		}
	}
	return undefined;
}

/**
 * Appends the event of a confirmed preview. When the log refuses it because the preview is already stored (a second
 * press that raced the first, or a retry whose first write was durable), the answer is what it was stored as, with the
 * league's state read fresh, not an error.
 */
export async function storePreviewOnce<T, K extends StoredPreview['kind']>(
	repo: LeagueRepository,
	league: LeagueInfo,
	previewId: string,
	kind: K,
	code: string,
	append: () => Promise<T>,
): Promise<{ readonly result: T } | { readonly already: Stored<K>; readonly state: LeagueLog }> {
	try {
		return { result: await refuse(code, append) };
	} catch (error) {
		// A store that does not answer this look either: the append's own error says what is known of the write.
		let state: LeagueLog;
		try {
			state = await repo.loadState(league.id, { fresh: true });
		} catch {
			throw error;
		}
		const stored = state.storedPreview(previewId);
		if (stored?.kind === kind) return { already: stored as Stored<K>, state };
		throw error;
	}
}
