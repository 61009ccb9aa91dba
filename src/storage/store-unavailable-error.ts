/**
 * The store cannot do what was asked right now, though nothing is wrong with what it holds: a server that does not
 * answer (PostgreSQL, Redis), a database made read-only. The user is told so in plain words (services/errors.ts),
 * not "Something went wrong"; for a write, whether anything was stored:
 * - `no`: nothing was stored (the write was never sent, or a look at the log after the failure found it absent);
 * - `unknown`: the write was sent and the store stopped answering before it said whether it took it.
 */
export type StoredOutcome = 'no' | 'unknown';

export class StoreUnavailableError extends Error {
	override readonly name: string = 'StoreUnavailableError';
	constructor(
		message: string,
		/** What a write left behind; a read stores nothing (`no`). */
		readonly stored: StoredOutcome,
		options?: ErrorOptions & { readonly write?: boolean },
	) {
		super(message, options);
		this.write = options?.write ?? stored === 'unknown';
	}

	/** A write failed (a read failing while a write was prepared is a write too: nothing was sent). */
	readonly write: boolean;

	/** The same failure, with what is now known of the write. */
	withOutcome(stored: StoredOutcome): StoreUnavailableError {
		return new StoreUnavailableError(this.message, stored, { cause: this.cause ?? this, write: true });
	}
}

/** The store's files cannot be written (`chattr +i`, a read-only mount): writes are refused, reads still answer. */
export class StoreReadOnlyError extends StoreUnavailableError {
	override readonly name = 'StoreReadOnlyError';
	constructor(options?: ErrorOptions) {
		super(READ_ONLY_MESSAGE, 'no', { ...options, write: true });
	}
}

/** What a user reads when a write meets a read-only store (shown as is: it is a complete answer). */
export const READ_ONLY_MESSAGE =
	'The store is read-only: nothing was stored. Ratings and results can still be read; ' +
	'writing works again once the bot’s operator makes the database writable.';
