import { UserFacingError } from '../discord/errors.js';
import { LeagueError } from '../league/race-log.js';
import { ParamError } from '../ratings/types.js';

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
