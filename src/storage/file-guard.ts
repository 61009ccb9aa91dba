import { statSync } from 'node:fs';
import { RESTORE_HINT, StoreIntegrityError } from './store-integrity-error.js';

/**
 * Notices a database file deleted or replaced under a running process (issue 9 item 4: a bot went on acknowledging
 * 30 races into an unlinked file, all lost at the restart). SQLite keeps writing to the inode it opened, so the path
 * is compared with that inode (device + inode number) around every operation: a `stat` of a few microseconds, next
 * to a SQLite round trip of tens. Once lost, the store refuses everything from then on; `rescue` first saves what the
 * process still holds (the open, unlinked file) to a new file, and its answer goes into the message.
 */
export interface FileGuard {
	/** Throws a StoreIntegrityError when the file is no longer the one opened (after the first time, at once). */
	check(): Promise<void>;
	/**
	 * `check`, unless the file was found sound within the last `READ_CHECK_MS`: reads, which acknowledge nothing, do
	 * not pay a `stat` each (issue 9 §4: about 2% of the bot's CPU under load).
	 */
	checkRecent(): Promise<void>;
}

/** How long a sound check vouches for reads. */
export const READ_CHECK_MS = 1000;

const identity = (path: string): string | undefined => {
	try {
		const stat = statSync(path);
		return `${stat.dev}:${stat.ino}`;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
};

export function guardFile(path: string, rescue: () => Promise<string>): FileGuard {
	const opened = identity(path);
	let lost: StoreIntegrityError | undefined;
	let rescuing: Promise<StoreIntegrityError> | undefined;
	let soundAt = -Infinity;
	const check = async () => {
		if (lost !== undefined) throw lost;
		const now = identity(path);
		if (now === opened) {
			soundAt = performance.now();
			return;
		}
		rescuing ??= rescue().then(
			(saved) => lostError(path, now, `what this process held was saved to ${saved}`),
			(error: unknown) =>
				lostError(
					path,
					now,
					`saving what this process held failed (${error instanceof Error ? error.message : String(error)})`,
				),
		);
		throw (lost = await rescuing);
	};
	return {
		check,
		checkRecent: () =>
			lost === undefined && performance.now() - soundAt < READ_CHECK_MS ? Promise.resolve() : check(),
	};
}

const lostError = (path: string, now: string | undefined, saved: string) =>
	new StoreIntegrityError(
		`the database ${path} was ${now === undefined ? 'deleted' : 'replaced by another file'} while pitwall was running: ` +
			`nothing more is stored; ${saved}; stop pitwall and restore (${RESTORE_HINT})`,
	);
