import { UserFacingError } from '../discord/errors.js';
import { LeagueError } from '../league/race-log.js';
import { ParamError } from '../ratings/types.js';
import { StoreIntegrityError } from '../storage/store-integrity-error.js';
import { StoreReadOnlyError, StoreUnavailableError } from '../storage/store-unavailable-error.js';

/**
 * Service refusals are UserFacingErrors (a plain class with no discord.js import): the router shows the message,
 * ephemerally. Domain refusals (LeagueError, ParamError) are translated with `refuse`.
 */
export { UserFacingError };

export function refused(code: string, message: string): UserFacingError {
	return new UserFacingError(code, message);
}

/** Runs `work`, turning a domain refusal into a UserFacingError with the same message. */
export async function refuse<T>(code: string, work: () => Promise<T> | T): Promise<T> {
	try {
		return await work();
	} catch (error) {
		if (error instanceof LeagueError || error instanceof ParamError) {
			const text = error.message;
			throw new UserFacingError(code, text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.'));
		}
		throw error;
	}
}

/**
 * What a user is told when the store failed under their command (a server not answering, a read-only or damaged
 * database), instead of "Something went wrong": that the store is unavailable and, for a write, whether anything was
 * stored (the repository looks at the log before it says "nothing", league-repository.ts). Undefined for any other
 * error. The operator's details (paths, hosts, the driver's words) stay in the log.
 */
export function storeFailureMessage(error: unknown): string | undefined {
	if (error instanceof StoreReadOnlyError) return error.message;
	if (error instanceof StoreIntegrityError) {
		return (
			'The league store is damaged, so the bot has stopped storing anything: nothing more was stored. ' +
			'The bot’s operator has to restore it from a backup.'
		);
	}
	if (!(error instanceof StoreUnavailableError)) return undefined;
	if (!error.write)
		return 'The league store is unavailable right now, so this could not be done. Try again in a few minutes.';
	if (error.stored === 'no')
		return 'The league store is unavailable right now: nothing was stored. Try again in a few minutes.';
	return (
		'The league store stopped answering while this was being stored, so it is not known whether it was. ' +
		'Look (for a race, `/race show`) before you try again; pressing the same Confirm button again is safe: ' +
		'it is stored at most once.'
	);
}
