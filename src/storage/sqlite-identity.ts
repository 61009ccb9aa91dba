import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { RESTORE_HINT, StoreIntegrityError } from './store-integrity-error.js';

/**
 * The identity of a SQLite store: a store id written in the database when it is created (the key
 * `meta:store-id` of the keyv table, so a backup carries it), and the same id in a marker file `<file>.id` beside the
 * database. At start the two must agree; a database missing where the marker says one existed is refused rather than
 * silently recreated empty (which re-imported the sample league over a deleted store).
 */

export const STORE_ID_KEY = 'meta:store-id';

export const markerPath = (path: string): string => `${path}.id`;

export async function readMarker(path: string): Promise<string | undefined> {
	try {
		return (await readFile(markerPath(path), 'utf8')).trim();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
}

/** Written to a temporary file and renamed over the marker, so a crash leaves the old marker or the new one. */
export async function writeMarker(path: string, id: string): Promise<void> {
	const temporary = `${markerPath(path)}.${process.pid}.tmp`;
	await writeFile(temporary, `${id}\n`);
	await rename(temporary, markerPath(path));
}

/** Refuses to open where the marker names a store and the database is missing. */
export function checkNotMissing(path: string, exists: boolean, marker: string | undefined): void {
	if (exists || marker === undefined) return;
	throw new StoreIntegrityError(
		`the database ${path} is missing, but ${markerPath(path)} says store ${marker} was there: nothing was created; ` +
			`restore it from a backup (${RESTORE_HINT}), or delete ${markerPath(path)} to start an empty store`,
	);
}

export interface StoreIdAccess {
	read(): Promise<string | undefined>;
	/** Insert only if absent; the id then stored. */
	create(id: string): Promise<string>;
}

/**
 * The database's store id, checked against the marker. A database without an id and without a marker is new, or
 * written before store ids existed: it gets an id now. Without a marker (deleted, or a restore to a new place) the marker is
 * written from the database. Returns the id.
 */
export async function checkIdentity(
	path: string,
	marker: string | undefined,
	access: StoreIdAccess,
	newId: () => string = randomUUID,
): Promise<string> {
	let id = await access.read();
	if (id === undefined) {
		if (marker !== undefined) {
			throw new StoreIntegrityError(
				`the database ${path} has no store id, but ${markerPath(path)} says store ${marker} was there: the file was ` +
					`replaced or emptied; restore it from a backup (${RESTORE_HINT}), or delete ${markerPath(path)} to use this file`,
			);
		}
		id = await access.create(newId());
	} else if (marker !== undefined && marker !== id) {
		throw new StoreIntegrityError(
			`the database ${path} holds store ${id}, but ${markerPath(path)} says store ${marker} was there: the file was ` +
				`replaced; restore the right one from a backup (${RESTORE_HINT}), or delete ${markerPath(path)} to use this file`,
		);
	}
	if (marker !== id) await writeMarker(path, id);
	return id;
}
