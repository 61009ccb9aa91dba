import { writeFileSync } from 'node:fs';
import {
	noExtraPositionals,
	parseCommandArgs,
	required,
	resetArg,
	seasonOptions,
	seasonsArg,
	resolveSystemParams,
	systemArg,
	UsageError,
} from '../args.js';
import { loadHistoryAsOf, num, type CliCommand } from '../command.js';
import { csvLine } from '../../formats/csv.js';
import { ratingScale, shownSummary, type RatingScale } from '../../formats/rating-scale.js';
import { replayHistory } from '../../league/replay.js';

const options = {
	system: { type: 'string' },
	input: { type: 'string' },
	param: { type: 'string', multiple: true },
	history: { type: 'string' },
	reset: { type: 'string' },
	...seasonOptions,
	'as-of': { type: 'string' },
	scale: { type: 'string' },
	format: { type: 'string' },
} as const;

/** `--scale raw` (default): as computed; `--scale shown`: as the bot shows them (src/formats/rating-scale.ts). */
function scaleArg(value: string | undefined, system: string, params: unknown): RatingScale | undefined {
	if (value === undefined || value === 'raw') return undefined;
	if (value === 'shown') return ratingScale(system, params);
	throw new UsageError(`--scale must be raw or shown, not "${value}"`);
}

export default {
	name: 'replay',
	summary: 'replay a history CSV and print every player’s rating',
	usage: `pitwall replay --system <id> --input <history.csv> [--param name=value ...] [--history <out.csv>] [--reset yearly]
                      [--as-of YYYY-MM-DD] [--scale raw|shown] [--format csv|json]
                      [--season-reset carry|restart|soft [--season-share N] [--season-starts D1,D2,...]]

Prints CSV player,rating,uncertainty,races,provisional sorted by rating (descending), numbers at full precision,
as of a day: the races dated on or before it (and undated ones), each player grown over their idle days up to it
(Glicko RD growth, endure/speed forgetting), exactly as the bot shows ratings on that day.
--as-of <day>        default: the latest race date of the history.
--history <out.csv>  also write race,player,position,rating_before,rating_after (one row per rated entry;
                     position is the rank the system read, rating_before is after idle-time growth).
--scale shown        ratings and uncertainties as the bot shows them: endure and speed as Elo-like points
                     (1500 + R·400/ln 10) with the uncertainty √k·400/ln 10 (extended form; empty in the base
                     form, whose k is the same for everyone). Default raw: as computed.
--format json        a JSON array of {player, rating, uncertainty, races, provisional} instead of CSV (the
                     numbers as JSON writes them: each reads back as the same double).
--param cars=true    endure and speed rate the car apart from the driver (docs/cars.md): the players' rating is the
                     driver's part, and after them comes the cars' table car,rating,races,last_date (a blank line
                     between; each car's part C as of the day, carried over to its year), as /leaderboard cars:true
                     shows it. With --format json: {"players": [...], "cars": [...]}.
--reset yearly       restart every rating at the first race of each calendar year (needs dates).
--season-reset mode  at each season's first race: carry, restart, or soft (every rating moves --season-share %
                     of the way toward the mean), as a league set so with /league config season-reset:.
--season-starts      the seasons' first days, as /season start gave them (default: each calendar year).`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const system = systemArg(required(values.system, 'system'));
		const params = resolveSystemParams(system, values.param ?? []);
		const scale = scaleArg(values.scale, system.id, params);
		const format = values.format ?? 'csv';
		if (format !== 'csv' && format !== 'json') throw new UsageError(`--format must be csv or json, not "${format}"`);
		const { races, asOf } = loadHistoryAsOf(required(values.input, 'input'), values['as-of'], io);
		const history: string[] = ['race,player,position,rating_before,rating_after'];
		const replayOptions = { reset: resetArg(values.reset), seasons: seasonsArg(values) };
		const replay = replayHistory(system, params, races, replayOptions, (outcome) => {
			for (const change of outcome.changes) {
				history.push(
					csvLine([
						outcome.race.id,
						change.player,
						num(change.rank),
						num(change.before.rating),
						num(change.after.rating),
					]),
				);
			}
		});
		const rows = replay
			.standings(asOf)
			.map((standing) => (scale === undefined ? standing : shownSummary(scale, standing)));
		// With cars (endure and speed, --param cars=true): the cars' table too, each car's part C as of the day (shown:
		// on the points scale as a difference, C·400/ln 10), as /leaderboard cars:true shows it.
		const cars =
			system.cars?.on(params) === true
				? replay.carStandings(asOf).map((car) => ({
						...car,
						rating: scale === undefined ? car.rating : scale.difference(car.rating),
					}))
				: undefined;
		if (format === 'json') {
			const json = rows.map(({ player, rating, uncertainty, races, provisional }) => ({
				player,
				rating,
				uncertainty: uncertainty ?? null,
				races,
				provisional,
			}));
			const carsJson = cars?.map(({ car, rating, races, lastDate }) => ({
				car,
				rating,
				races,
				last_date: lastDate ?? null,
			}));
			io.out(JSON.stringify(carsJson === undefined ? json : { players: json, cars: carsJson }, null, 1) + '\n');
		} else {
			const lines = ['player,rating,uncertainty,races,provisional'];
			for (const row of rows) {
				lines.push(
					csvLine([row.player, num(row.rating), num(row.uncertainty), num(row.races), String(row.provisional)]),
				);
			}
			if (cars !== undefined) {
				lines.push('', 'car,rating,races,last_date');
				for (const car of cars) lines.push(csvLine([car.car, num(car.rating), num(car.races), car.lastDate ?? '']));
			}
			io.out(lines.join('\n') + '\n');
		}
		const { skipped } = replay.snapshot();
		if (skipped.length > 0) {
			io.err(
				`warning: ${system.id} could not rate ${skipped.length} race(s), skipped: ${skipped.map((s) => `${s.race} (${s.reason})`).join('; ')}\n`,
			);
		}
		if (values.history !== undefined) {
			try {
				writeFileSync(values.history, history.join('\n') + '\n');
			} catch (error) {
				throw new UsageError(`cannot write ${values.history}: ${(error as Error).message}`);
			}
		}
		return 0;
	},
} satisfies CliCommand;
