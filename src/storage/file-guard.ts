import { type Stats, statSync } from 'node:fs';
import { RESTORE_HINT, StoreIntegrityError } from './store-integrity-error.js';

/**
 * Notices a database file deleted, replaced or overwritten under a running process (a bot went on acknowledging 30
 * races into an unlinked file, all lost at the restart; another 30 into a file overwritten in place, the whole store
 * unreadable after). SQLite keeps writing to the inode it opened, so the path is compared with that inode (device +
 * inode number) around every operation: a `stat` of a few microseconds, next to a SQLite round trip of tens. An
 * overwrite in place keeps the inode: `lookInPlace` (sqlite-header-guard.ts) looks at the files' headers for it.
 * Once lost, the store refuses everything from then on; `rescue` first saves what the process still holds (the open,
 * unlinked file; the pages SQLite still has cached) to a new file, and its answer goes into the message.
 */
export interface FileGuard {
	/** Throws a StoreIntegrityError when the file is no longer the one opened (after the first time, at once). */
	check(): Promise<void>;
	/**
	 * `check`, unless the file was found sound within the last `READ_CHECK_MS`: reads, which acknowledge nothing, do
	 * not pay a `stat` each (about 2% of the bot's CPU under load).
	 */
	checkRecent(): Promise<void>;
	/** The error every operation now gets, once the file was found lost. */
	readonly lost: StoreIntegrityError | undefined;
}

/** How long a sound check vouches for reads. */
export const READ_CHECK_MS = 1000;

const statOf = (path: string): Stats | undefined => {
	try {
		return statSync(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
};

const identity = (stat: Stats | undefined) => (stat === undefined ? undefined : `${stat.dev}:${stat.ino}`);

/** How the file was lost, for the message. */
type Loss = { readonly kind: 'deleted' | 'replaced' } | { readonly kind: 'overwritten'; readonly what: string };

export function guardFile(
	path: string,
	rescue: () => Promise<string>,
	/**
	 * What changed in the file opened, or undefined. It calls `statPath` once per look, when it suits it (the path's
	 * `stat`, which this guard then compares with the inode opened).
	 */
	lookInPlace: (statPath: () => Stats | undefined) => Promise<string | undefined> = (statPath) => (
		statPath(),
		Promise.resolve(undefined)
	),
): FileGuard {
	const opened = identity(statOf(path));
	let lost: StoreIntegrityError | undefined;
	let rescuing: Promise<StoreIntegrityError> | undefined;
	let soundAt = -Infinity;
	const lostNow = (): StoreIntegrityError | undefined => lost;
	const loss = async (): Promise<Loss | undefined> => {
		let stat: Stats | undefined;
		let taken = false;
		const statPath = () => ((taken = true), (stat = statOf(path)));
		const what = await lookInPlace(statPath);
		if (!taken) statPath();
		const now = identity(stat);
		if (now !== opened) return { kind: now === undefined ? 'deleted' : 'replaced' };
		return what === undefined ? undefined : { kind: 'overwritten', what };
	};
	const check = async () => {
		if (lost !== undefined) throw lost;
		const found = await loss();
		const meanwhile = lostNow(); // found by another operation while this one looked
		if (meanwhile !== undefined) throw meanwhile;
		if (found === undefined) {
			soundAt = performance.now();
			return;
		}
		rescuing ??= rescue().then(
			(saved) => lostError(path, found, `what this process held was saved to ${saved}`),
			(error: unknown) =>
				lostError(
					path,
					found,
					`saving what this process held failed (${error instanceof Error ? error.message : String(error)})`,
				),
		);
		throw (lost = await rescuing);
	};
	return {
		check,
		checkRecent: () =>
			lost === undefined && performance.now() - soundAt < READ_CHECK_MS ? Promise.resolve() : check(),
		get lost() {
			return lost;
		},
	};
}

const how = (loss: Loss) =>
	loss.kind === 'overwritten'
		? `overwritten in place (${loss.what})`
		: loss.kind === 'deleted'
			? 'deleted'
			: 'replaced by another file';

const lostError = (path: string, loss: Loss, saved: string) =>
	new StoreIntegrityError(
		`the database ${path} was ${how(loss)} while pitwall was running: nothing more is stored; ${saved}; ` +
			`stop pitwall and restore (${RESTORE_HINT})`,
	);
