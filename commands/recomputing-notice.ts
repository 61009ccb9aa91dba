/** The line a read answered from the ratings before a change still being replayed starts with (RatingsView.recomputing). */
import type { PendingChange } from '../src/storage/ports.js';

/** What changed, in a few words: `R1 was voided`. Race ids and fixed words only: nothing to escape. */
function changeText(change: PendingChange): string {
	const race = change.race ?? 'a race';
	switch (change.type) {
		case 'race-voided':
			return `${race} was voided`;
		case 'race-restored':
			return `${race} was restored`;
		case 'race-edited':
			return `${race} was edited`;
		case 'race-submitted':
			return `${race} was added before races already rated`;
		case 'league-imported':
			return 'races were imported';
		case 'league-configured':
			return 'the league’s settings changed';
		case 'players-merged':
			return 'two players were merged';
		case 'penalty-given':
			return `a penalty was given in ${race}`;
		case 'penalty-withdrawn':
			return `a penalty in ${race} was withdrawn`;
		case 'season-started':
		case 'season-ended':
			return 'the seasons changed';
		default:
			return 'the league changed';
	}
}

/**
 * `⏳ Ratings are being recomputed after R1 was voided: these are from before that. Ask again in a few seconds for the
 * new ones.` Undefined when the answer is of the latest state.
 */
export function recomputingNotice(change: PendingChange | undefined): string | undefined {
	if (change === undefined) return undefined;
	return `⏳ Ratings are being recomputed after ${changeText(change)}: these are from before that. Ask again in a few seconds for the new ones.`;
}
