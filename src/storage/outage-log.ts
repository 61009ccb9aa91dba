/**
 * One log line per outage, not one per retry: a Redis client reconnecting during a 45 s outage logged 216
 * ECONNREFUSED lines. The first error after the store last worked is passed on, with a note that the rest are held
 * back; further errors are counted, and passed on at most once every `every` ms with the count; `recovered()` (the
 * store answers again) ends the outage, so the next error is logged at once.
 */
export interface OutageLog {
	readonly onError: (error: unknown) => void;
	recovered(): void;
}

/** How often a continuing outage is logged again. */
export const OUTAGE_LOG_EVERY_MS = 60_000;

export function createOutageLog(
	onError: (error: unknown) => void,
	what: string,
	{ every = OUTAGE_LOG_EVERY_MS, now = () => performance.now() } = {},
): OutageLog {
	let since: number | undefined;
	let loggedAt = -Infinity;
	let held = 0;
	return {
		onError(error) {
			const at = now();
			if (since === undefined) {
				since = at;
				loggedAt = at;
				onError(
					new OutageError(`${what} is not answering: ${reason(error)} (retrying; further errors are held back)`, error),
				);
				return;
			}
			held++;
			if (at - loggedAt < every) return;
			loggedAt = at;
			const seconds = Math.round((at - since) / 1000);
			onError(
				new OutageError(
					`${what} has not answered for ${seconds} s: ${reason(error)} (${held} errors held back)`,
					error,
				),
			);
			held = 0;
		},
		recovered() {
			since = undefined;
			held = 0;
		},
	};
}

export class OutageError extends Error {
	override readonly name = 'StoreOutage';
	constructor(message: string, cause: unknown) {
		super(message, { cause });
	}
}

const reason = (error: unknown): string => {
	const e = error as { code?: unknown; message?: unknown } | undefined;
	const message = typeof e?.message === 'string' && e.message !== '' ? e.message : String(error);
	return typeof e?.code === 'string' && !message.includes(e.code) ? `${e.code} ${message}` : message;
};
