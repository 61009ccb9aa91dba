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
	dayArg,
} from '../args.js';
import { loadHistoryAsOf, num, type CliCommand } from '../command.js';
import { DEFAULT_SEASONS, DEFAULT_SEED, forecastChampionship, MAX_SEASONS } from '../../analysis/forecast.js';
import { forecastSetup } from '../../analysis/forecast-setup.js';
import { csvLine } from '../../formats/csv.js';
import { F1_POINTS, parsePointsTable, PointsTableError, pointsTableText } from '../../formats/points-table.js';
import { replayHistory } from '../../league/replay.js';
import { DEFAULT_HEADLINE } from '../../services/leagues/league-service.js';
import { plural } from '../../formats/plural.js';

/** `pitwall forecast`: the championship forecast of a history CSV, the numbers `/forecast` gives. */

const options = {
	'races-left': { type: 'string' },
	points: { type: 'string' },
	'best-results': { type: 'string' },
	system: { type: 'string' },
	param: { type: 'string', multiple: true },
	reset: { type: 'string' },
	...seasonOptions,
	'as-of': { type: 'string' },
	'season-start': { type: 'string' },
	seasons: { type: 'string' },
	seed: { type: 'string' },
} as const;

function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
		throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
	}
	return n;
}

export default {
	name: 'forecast',
	summary: 'championship forecast: the rest of the season simulated from a history',
	usage: `pitwall forecast <history.csv> --races-left N [--points f1|motogp|list] [--best-results N] [--system S]
                        [--param name=value ...] [--reset yearly] [--as-of YYYY-MM-DD] [--seasons N] [--seed N]
                        [--season-reset carry|restart|soft [--season-share N] [--season-starts D1,...]]
                        [--season-start YYYY-MM-DD]

Replays the races dated on or before --as-of (default: the latest race date), takes this calendar year's points of
each driver under --points (default f1; --best-results N counts only each driver's best N race scores), and
simulates the remaining races --seasons times (default ${DEFAULT_SEASONS}, seed ${DEFAULT_SEED}) under --system
(default ${DEFAULT_HEADLINE}), ratings held at the --as-of day's. Prints CSV
player,points_now,p_title,p_title_se,p_top3,expected_points, favourites first: the numbers the bot's /forecast
gives for the same history, day and settings. A history without dates is read as a season from zero with the
drivers of its latest race. --season-start D counts the season so far from day D (a league's current named
season, /season start) instead of the calendar year.`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals, 1);
		const path = positionals[0];
		if (path === undefined) throw new UsageError('give the history CSV: pitwall forecast <history.csv>');
		const racesLeft = wholeNumber(required(values['races-left'], 'races-left'), 'races-left', 0, 200)!;
		let points = F1_POINTS;
		if (values.points !== undefined) {
			try {
				points = parsePointsTable(values.points);
			} catch (error) {
				if (error instanceof PointsTableError) throw new UsageError(`--points: ${error.message}`);
				throw error;
			}
		}
		const bestResults = wholeNumber(values['best-results'], 'best-results', 1, 1000);
		const seasons = wholeNumber(values.seasons, 'seasons', 1, MAX_SEASONS);
		const seed = wholeNumber(values.seed, 'seed', 0, 2 ** 32 - 1);
		const system = systemArg(values.system ?? DEFAULT_HEADLINE);
		const params = resolveSystemParams(system, values.param ?? []);
		const { races, asOf } = loadHistoryAsOf(path, values['as-of'], io);
		const replay = replayHistory(system, params, races, { reset: resetArg(values.reset), seasons: seasonsArg(values) });
		const { season, input } = forecastSetup({
			races,
			asOf,
			racesLeft,
			seasonStart: dayArg(values['season-start'], 'season-start'),
			points,
			bestResults,
			seasons,
			seed,
			performanceOf: (player) => system.performance(replay.stateAt(player, asOf), params),
		});
		if (season.contenders.length === 0)
			throw new UsageError(`no dated race up to ${asOf ?? 'the day'}: nobody to forecast`);
		const result = forecastChampionship(input);
		io.err(
			(season.undated
				? `forecast of an undated history: a season from zero with the latest race's ${season.contenders.length} drivers, ${plural(racesLeft, 'race')},`
				: `forecast ${season.year} as of ${asOf}: ${plural(season.races, 'race')} so far` +
					`${season.contendersFrom !== undefined ? ` (the drivers of the latest race, ${season.contendersFrom})` : ''}, ${racesLeft} left,`) +
				` ${pointsTableText(points)} points` +
				`${bestResults !== undefined ? `, best ${bestResults} results` : ''}, ${system.id}, ${result.seasons} seasons, seed ${result.seed}` +
				`${season.leftOut > 0 ? `; ${season.leftOut} drivers left out` : ''}\n`,
		);
		const order = season.contenders
			.map((player, i) => ({ player, row: result.rows[i]! }))
			.sort((a, b) => b.row.pTitle - a.row.pTitle || b.row.expectedPoints - a.row.expectedPoints);
		const lines = ['player,points_now,p_title,p_title_se,p_top3,expected_points'];
		for (const { player, row } of order) {
			lines.push(
				csvLine([
					player,
					num(row.pointsNow),
					num(row.pTitle),
					num(row.pTitleError),
					num(row.pTop3),
					num(row.expectedPoints),
				]),
			);
		}
		io.out(lines.join('\n') + '\n');
		return 0;
	},
} satisfies CliCommand;
