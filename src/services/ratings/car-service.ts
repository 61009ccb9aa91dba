import { escapeForDiscord } from '../../formats/discord-escape.js';
import { listWithMore } from '../../formats/clip-text.js';
import type { LeagueLog } from '../../league/race-log.js';
import { nameKey } from '../../league/race-log-checks.js';
import type { CarStanding } from '../../league/replay.js';
import { rankRace } from '../../ratings/race.js';
import type { LeagueInfo, LeagueRepository, PendingChange } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import type { CarLastChange, ChangeCache } from '../caches/change-cache.js';
import { READ_WAIT_MS } from '../caches/cache-wait.js';
import { refused } from '../errors.js';
import { carSystemsOf, isCarSystem } from '../leagues/car-settings.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import type { LeagueService } from '../leagues/league-service.js';
import { pageOf } from './leaderboard-service.js';
import { checkSystemOption } from './rating-service.js';

/**
 * The cars of a league that rates them apart from the drivers (docs/cars.md): `/leaderboard cars:true` (every car by
 * its part C, as `pitwall replay --param cars=true` prints them) and `/rating car:` (one car, its last race, the
 * drivers who raced it lately). A car's part is on the drivers' scale as a difference: a racer's strength is D + C.
 */

/** Drivers `/rating car:` names, from the car's latest races. */
export const CAR_DRIVERS_SHOWN = 8;
/** How many of the car's latest races the drivers are taken from. */
export const CAR_RACES_LOOKED_AT = 5;

export interface CarsPage {
	readonly league: LeagueInfo;
	readonly system: string;
	/** The day the parts are carried over to (a car keeps carCarry of its part at each new calendar year). */
	readonly asOf: string;
	readonly page: number;
	readonly pages: number;
	readonly total: number;
	/** Rows of this page with their 1-based rank. */
	readonly rows: readonly (CarStanding & { readonly rank: number })[];
	readonly recomputing?: PendingChange | undefined;
}

/** A driver of a car in its latest races. */
export interface CarDriver {
	readonly id: string;
	readonly name: string;
	/** The driver's part D now (undefined: not rated now, e.g. after a reset). */
	readonly rating?: number | undefined;
	/** The latest of the car's races they drove it in. */
	readonly race: string;
	readonly date?: string | undefined;
}

export interface CarRating {
	readonly league: LeagueInfo;
	readonly system: string;
	readonly asOf: string;
	readonly car: CarStanding;
	/** 1-based among the league's rated cars. */
	readonly rank: number;
	readonly rated: number;
	/** The car's last race and its part's move in it (undefined while the league's history is being replayed). */
	readonly last?: (CarLastChange & { readonly raceName?: string | undefined }) | undefined;
	/** Its drivers in its latest races, the latest first. */
	readonly drivers: readonly CarDriver[];
	readonly recomputing?: PendingChange | undefined;
}

export interface CarService {
	/** `/leaderboard cars:true`: the cars by part, a page at a time. */
	page(
		actor: Actor,
		input: { system?: string | undefined; league?: string | undefined; page?: number | undefined },
	): Promise<CarsPage>;
	/** `/rating car:`: one car. */
	car(
		actor: Actor,
		input: { car: string; system?: string | undefined; league?: string | undefined },
	): Promise<CarRating>;
}

/**
 * The system whose cars are shown: the one asked for, which must rate cars; else the headline when it does, else the
 * first of endure and speed that does. A league without cars is told how to turn them on.
 */
export function carSystemOf(league: LeagueInfo, system: string | undefined): string {
	const on = carSystemsOf(league.config);
	const name = `**${escapeForDiscord(league.config.name)}**`;
	if (system !== undefined && system.trim() !== '') {
		const id = checkSystemOption(system, league.config.headline);
		if (on.includes(id as (typeof on)[number])) return id;
		throw refused(
			'no-cars',
			isCarSystem(id)
				? `${name} does not rate cars under \`${id}\`: an organizer can turn it on with /league config cars:on.`
				: `\`${id}\` has no car part: endure and speed rate cars apart from drivers (with /league config cars:on).`,
		);
	}
	const headline = league.config.headline;
	if (on.includes(headline as (typeof on)[number])) return headline;
	const first = on[0];
	if (first === undefined) {
		throw refused(
			'no-cars',
			`${name} does not rate cars apart from drivers: an organizer can turn it on with /league config cars:on (endure and speed).`,
		);
	}
	return first;
}

/** A car's name as results give it (rankRace: the entry's car, else its team); matched as names are, by nameKey. */
function findCar(cars: readonly CarStanding[], typed: string, league: LeagueInfo): CarStanding {
	const key = nameKey(typed);
	const found = cars.find((c) => c.car === typed.trim()) ?? cars.find((c) => nameKey(c.car) === key);
	if (found !== undefined) return found;
	const known = listWithMore(cars.map((c) => `**${escapeForDiscord(c.car)}**`));
	throw refused(
		'unknown-car',
		cars.length === 0
			? `No car has been rated in **${escapeForDiscord(league.config.name)}** yet: its results name no car or team.`
			: `No car "${escapeForDiscord(typed.trim())}" has been rated in **${escapeForDiscord(league.config.name)}**. Cars: ${known}.`,
	);
}

/** The drivers of `car` in its latest races (CAR_RACES_LOOKED_AT of them), the latest first, each once. */
function driversOf(state: LeagueLog, car: string, retirements: LeagueInfo['config']['retirements']) {
	const rated = state.ratedRaces();
	const seen = new Map<string, { race: string; date?: string | undefined }>();
	let races = 0;
	for (let i = rated.length - 1; i >= 0 && races < CAR_RACES_LOOKED_AT; i--) {
		const { race } = rated[i]!;
		const inCar = rankRace(race, retirements).filter((entry) => entry.car === car);
		if (inCar.length === 0) continue;
		races++;
		for (const entry of inCar) {
			if (!seen.has(entry.player)) seen.set(entry.player, { race: race.id, date: race.date });
		}
	}
	return [...seen].slice(0, CAR_DRIVERS_SHOWN);
}

/**
 * `work`'s value, or undefined after READ_WAIT_MS: a big league's first read replays its history for the change cache,
 * and the answer goes without the car's last race rather than wait for seconds (as /rating does, cache-wait.ts).
 */
async function unlessSlow<T>(work: Promise<T>): Promise<T | undefined> {
	work.catch(() => undefined); // a failure after the wait is the cache's, not this answer's
	let timer: NodeJS.Timeout | undefined;
	const wait = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), READ_WAIT_MS)));
	try {
		return await Promise.race([work, wait]);
	} finally {
		clearTimeout(timer);
	}
}

export function createCarService(
	repo: LeagueRepository,
	leagues: LeagueService,
	changes: ChangeCache,
	clock: () => Date = () => new Date(),
): CarService {
	const carsOf = async (actor: Actor, input: { system?: string | undefined; league?: string | undefined }) => {
		const league = await leagues.resolve(actor, input.league);
		const system = carSystemOf(league, input.system);
		const state = await repo.loadState(league.id);
		const asOf = leagueReadingDay(state, league.config.timezone, clock());
		const view = await repo.ratingsAt(league.id, system, asOf);
		return { league, system, state, asOf, view, cars: view.replay.carStandings(asOf) };
	};
	return {
		async page(actor, input) {
			const { league, system, asOf, view, cars } = await carsOf(actor, input);
			const { total, pages, page, rows } = pageOf(cars, input.page, "The cars' table");
			return {
				league,
				system,
				asOf,
				page,
				pages,
				total,
				rows,
				...(view.recomputing !== undefined && { recomputing: view.recomputing }),
			};
		},
		async car(actor, input) {
			const { league, system, state, asOf, view, cars } = await carsOf(actor, input);
			const car = findCar(cars, input.car, league);
			const last = await unlessSlow(changes.lastCarChange(league, system, car.car));
			const rating = new Map(view.standings.map((s) => [s.player, s.rating]));
			const drivers = driversOf(state, car.car, league.config.retirements).map(([id, at]): CarDriver => ({
				id,
				name: state.playerById(id)?.name ?? id,
				rating: rating.get(id),
				race: at.race,
				...(at.date !== undefined && { date: at.date }),
			}));
			return {
				league,
				system,
				asOf,
				car,
				rank: cars.indexOf(car) + 1,
				rated: cars.length,
				...(last !== undefined && { last: { ...last, raceName: state.race(last.race)?.name } }),
				drivers,
				...(view.recomputing !== undefined && { recomputing: view.recomputing }),
			};
		},
	};
}
