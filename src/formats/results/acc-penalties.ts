import { objects } from './json-value.js';

/**
 * ACC's penalties, by car (`carId`), as short words. Facts (Server Admin Handbook, and the files):
 * - `penalties[]` are given in the race: `penalty` DriveThrough, StopAndGo_10/20/30 (served when `clearedInLap` is
 *   not 0), PostRaceTime (`penaltyValue` seconds), Disqualified, RemoveBestLaptime (qualifying only) or None (a
 *   warning for a cut); `reason` Cutting, PitSpeeding, Trolling, WrongWay, DriverRanNoStint, …;
 * - `post_race_penalties[]` are given after the flag: a time (PostRaceTime) or a disqualification;
 * - a post-race time is already in the leaderboard's totalTime and order (race.to.fix.positions.json: the car with
 *   +80 s is listed by a total that holds them; so is the car with +30 s in a 2023 file of fabieu/simdesk's history),
 *   so it is only named, never added again;
 * - a disqualification with `clearedInLap` 0 (or after the race) stands: the car is DSQ. One with a clearedInLap was
 *   lifted in the race (race control's /clear, or the auto-DQ downgraded): the car raced on and is classified; said
 *   in a warning.
 * RemoveBestLaptime and None change nothing in a race: left out.
 */

export interface CarPenalties {
	readonly words: string[];
	disqualified: boolean;
	/** The reason of the disqualification, in words ("driver ran no stint"). */
	disqualifiedFor?: string;
}

export function accPenalties(
	inRace: unknown,
	postRace: unknown,
	carName: (carId: number) => string,
	warnings: string[],
): Map<number, CarPenalties> {
	const byCar = new Map<number, CarPenalties>();
	const given = [
		...objects(inRace).map((p) => ({ p, post: false })),
		...objects(postRace).map((p) => ({ p, post: true })),
	];
	for (const { p, post } of given) {
		const carId = typeof p.carId === 'number' ? p.carId : undefined;
		const kind = typeof p.penalty === 'string' ? p.penalty : '';
		if (carId === undefined || kind === '' || kind === 'None' || kind === 'RemoveBestLaptime') continue;
		const car = byCar.get(carId) ?? { words: [], disqualified: false };
		byCar.set(carId, car);
		const reason = words(p.reason);
		const why = reason === '' ? '' : `: ${reason}`;
		const cleared = typeof p.clearedInLap === 'number' ? p.clearedInLap : 0;
		const value = typeof p.penaltyValue === 'number' ? p.penaltyValue : undefined;
		if (kind === 'Disqualified') {
			if (post || cleared === 0) {
				car.disqualified = true;
				if (reason !== '') car.disqualifiedFor ??= reason;
				car.words.push(`disqualified${why}`);
			} else {
				warnings.push(`${carName(carId)}: disqualification${why} lifted in lap ${cleared} (raced on): not applied`);
			}
			continue;
		}
		if (kind === 'PostRaceTime') {
			car.words.push(value === undefined ? `time penalty${why}` : `+${value} s${why}`);
			continue;
		}
		const stopGo = /^StopAndGo_(\d+)$/u.exec(kind);
		const name = kind === 'DriveThrough' ? 'drive-through' : stopGo ? `stop-and-go ${stopGo[1]} s` : words(kind);
		car.words.push(`${name}${cleared === 0 ? ' (not served)' : ''}${why}`);
	}
	return byCar;
}

/** "DriverRanNoStint" → "driver ran no stint". */
function words(value: unknown): string {
	if (typeof value !== 'string') return '';
	return value
		.replace(/([a-z\d])([A-Z])/gu, '$1 $2')
		.replace(/_/gu, ' ')
		.trim()
		.toLowerCase();
}
