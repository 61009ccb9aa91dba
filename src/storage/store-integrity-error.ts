/**
 * The store is not the one that was there, or is damaged: a database deleted or replaced, a
 * corrupt file, a store id that does not match its marker. The message is one line for the operator: what is wrong
 * and how to restore (docs/storage.md, "Backup and restore"). `npm start` prints it and exits with
 * STORE_DAMAGED_EXIT_CODE, without a stack trace.
 */
export class StoreIntegrityError extends Error {
	override readonly name = 'StoreIntegrityError';
}

/** The exit code of `npm start` and `npm run backup` on a StoreIntegrityError (2 is a bad configuration). */
export const STORE_DAMAGED_EXIT_CODE = 3;

/** How to restore, appended to every StoreIntegrityError message. */
export const RESTORE_HINT = 'see "Backup and restore" in README.md / docs/storage.md';
